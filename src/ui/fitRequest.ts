/** Listeners told of one kind of request, each time it is made. */
const signal = () => {
  const listeners = new Set<() => void>();
  return {
    emit: () => {
      for (const listener of listeners) listener();
    },
    on: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
};

const fit = signal();
/**
 * Asks the canvas on screen to show the whole graph again (Fit View, Auto layout): the editor's
 * (editor/Canvas.tsx) or a server's LangGraph graph drawn in its place (debugger/server/ServerCanvas.tsx).
 */
export const requestFit = fit.emit;
export const onFitRequest = fit.on;

const taken = signal();
/**
 * Tells the canvas on screen that the person moved its view with a control React Flow reports no
 * event for (the zoom buttons, the minimap): the view is theirs until Fit View, and a resize or a
 * panel coming over the canvas no longer fits the graph again over it.
 */
export const takeView = taken.emit;
export const onViewTaken = taken.on;
