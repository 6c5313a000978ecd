/**
 * What of the canvas a fit may use: all but what overlays it. Loaded after the canvas's first
 * commit (Canvas.tsx): nothing overlays the first screen, whose first fit uses the whole canvas.
 */
import type { Room } from './fit.ts';

/**
 * The part of `canvas` left free by what overlays it: elements marked `data-covers-canvas` (a
 * prompt, a panel drawn over the canvas). Each takes its side of the canvas, the one it reaches
 * least far from; what it covers beyond that is not fitted into.
 */
export const freeRoom = (canvas: Element, size: { width: number; height: number }): Room => {
  const box = canvas.getBoundingClientRect();
  let [left, top, right, bottom] = [0, 0, size.width, size.height];
  for (const element of canvas.ownerDocument.querySelectorAll('[data-covers-canvas]')) {
    const cover = element.getBoundingClientRect();
    const [coverLeft, coverTop, coverRight, coverBottom] = [cover.left - box.left, cover.top - box.top, cover.right - box.left, cover.bottom - box.top];
    if (cover.width === 0 || coverRight <= left || coverLeft >= right || coverBottom <= top || coverTop >= bottom) continue;
    // What each side would lose if the cover took it.
    const losses = [
      { side: 'left', loss: coverRight - left },
      { side: 'right', loss: right - coverLeft },
      { side: 'top', loss: coverBottom - top },
      { side: 'bottom', loss: bottom - coverTop },
    ].sort((a, b) => a.loss - b.loss);
    const { side } = losses[0];
    if (side === 'left') left = coverRight;
    else if (side === 'right') right = coverLeft;
    else if (side === 'top') top = coverBottom;
    else bottom = coverTop;
  }
  return { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
};
