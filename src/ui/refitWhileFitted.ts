/** What a canvas tells `refitWhileFitted`: whether its view is still fitted, and how it fits. */
export interface Refit {
  /** Whether the view is still the fit's: the person has not panned or zoomed it since. */
  isFitted: () => boolean;
  fit: (duration: number) => void;
  /** The canvas's size as its ResizeObserver tells it. */
  onResize?: (size: { width: number; height: number }) => void;
}

/**
 * Fits a canvas's graph again while its view is still fitted: when the canvas changes size (at
 * once), and when a panel over it (the server panel, an approval prompt: freeRoom.ts) comes, goes
 * or changes size (animated). Both canvases use it: the editor's and a server's LangGraph graph.
 * Returns the way to stop.
 */
export const refitWhileFitted = (element: HTMLElement, { isFitted, fit, onResize }: Refit) => {
  let frame = 0;
  // In the next frame: a panel that has just gone is out of the page by then.
  const refit = (duration: number) => {
    if (!isFitted()) return;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => fit(duration));
  };
  const observer = new ResizeObserver((entries) => {
    const box = entries.at(-1)?.borderBoxSize[0];
    if (box) onResize?.({ width: box.inlineSize, height: box.blockSize });
    refit(0);
  });
  observer.observe(element);
  let stopCovers: (() => void) | undefined;
  let stopped = false;
  // Loaded apart: the editor's first screen has no panel over it (freeRoom.ts).
  void import('./freeRoom.ts').then(({ onCoversChange }) => {
    if (!stopped) stopCovers = onCoversChange(() => refit(200));
  });
  return () => {
    stopped = true;
    observer.disconnect();
    stopCovers?.();
    cancelAnimationFrame(frame);
  };
};
