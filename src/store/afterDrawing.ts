/**
 * Runs `work` once the page has drawn what is now in the store and has nothing more urgent to do:
 * in its first idle time, waiting `atMostMs` at most (where the browser has no idle callbacks, a frame
 * and then a task after it), so the work delays neither the frame that shows a change nor what the
 * page does right after it. With no page to draw (Node: tests, the command line), at once.
 */
export const afterDrawing = (work: () => void, atMostMs: number) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: atMostMs });
  else if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(work));
  else work();
};
