/**
 * What of a canvas a fit may use: all but what overlays it. Loaded after the editor canvas's first
 * commit (editor/Canvas.tsx): nothing overlays the first screen, whose first fit uses the whole
 * canvas. A server's LangGraph graph (debugger/server/ServerCanvas.tsx) fits into it too.
 */

/** The part of a canvas nothing covers, relative to the canvas. */
export interface Room {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The part of `canvas` left free by what overlays it: elements marked `data-covers-canvas` (a
 * prompt, a panel drawn over the canvas). Each takes the side of the canvas that loses least room
 * to it; what it covers beyond that is not fitted into.
 */
export const freeRoom = (canvas: Element, size: { width: number; height: number }): Room => {
  const box = canvas.getBoundingClientRect();
  let [left, top, right, bottom] = [0, 0, size.width, size.height];
  for (const element of canvas.ownerDocument.querySelectorAll('[data-covers-canvas]')) {
    const cover = element.getBoundingClientRect();
    const [coverLeft, coverTop, coverRight, coverBottom] = [cover.left - box.left, cover.top - box.top, cover.right - box.left, cover.bottom - box.top];
    if (cover.width === 0 || coverRight <= left || coverLeft >= right || coverBottom <= top || coverTop >= bottom) continue;
    // The room each side would lose if the cover took it: a short panel at the top right takes the
    // right (a strip under it would squeeze a wide graph), a wide prompt at the top takes the top.
    const [width, height] = [right - left, bottom - top];
    const losses = [
      { side: 'left', loss: (coverRight - left) * height },
      { side: 'right', loss: (right - coverLeft) * height },
      { side: 'top', loss: (coverBottom - top) * width },
      { side: 'bottom', loss: (bottom - coverTop) * width },
    ].sort((a, b) => a.loss - b.loss);
    const { side } = losses[0];
    if (side === 'left') left = coverRight;
    else if (side === 'right') right = coverLeft;
    else if (side === 'top') top = coverBottom;
    else bottom = coverTop;
  }
  return { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
};

const coverListeners = new Set<() => void>();
const coversChanged = () => {
  for (const listener of coverListeners) listener();
};
/** Called when what covers the canvases changes (a panel over them opens, closes or changes size). */
export const onCoversChange = (listener: () => void) => {
  coverListeners.add(listener);
  return () => void coverListeners.delete(listener);
};
/**
 * The ref of an element marked `data-covers-canvas`: its coming, its going and each change of its
 * size are told to the canvases (onCoversChange), which fit their graph into the room left again.
 */
export const coverCanvas = (element: HTMLElement | null) => {
  if (!element) return;
  // A ResizeObserver tells of the element's first size too: its coming.
  const observer = new ResizeObserver(coversChanged);
  observer.observe(element);
  return () => {
    observer.disconnect();
    coversChanged();
  };
};
