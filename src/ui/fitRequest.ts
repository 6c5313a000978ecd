/**
 * Asks the canvas on screen to show the whole graph again (Fit View, Auto layout): the editor's
 * (editor/Canvas.tsx) or a server's LangGraph graph drawn in its place (debugger/server/ServerCanvas.tsx).
 */
const listeners = new Set<() => void>();
export const requestFit = () => {
  for (const listener of listeners) listener();
};
export const onFitRequest = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
