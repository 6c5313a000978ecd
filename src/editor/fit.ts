/**
 * How the canvas fits a graph into view. The floor on the zoom keeps node titles (16 px) at
 * 10 px or more on screen; a graph too big for that is shown from its top-left, readable, and
 * the rest is a pan (or the minimap) away.
 */
export const MIN_FIT_ZOOM = 0.66;
export const FIT_OPTIONS = { padding: 0.08, maxZoom: 1.2, minZoom: MIN_FIT_ZOOM };
