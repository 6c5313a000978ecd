/**
 * Keeping the node of the selected step in view, as a code debugger keeps the current line in view.
 *
 * The rule: on every step shown, if the node is not wholly inside the canvas (less a margin), the
 * view moves, at the same zoom, to centre it along each side it overflows; a node already in view
 * moves nothing, so a person reading the graph is not shaken at every step. And the view never
 * moves while a person works the canvas: from their press, wheel or touch on it until they have
 * let go of it for FOLLOW_QUIET_MS, or until they turn to something else (a press off the canvas,
 * such as Step or a step of the timeline, or a key, such as F10). A step shown in that time (a live
 * run going on) is left where it is; the next one after it is brought into view again.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface View {
  x: number;
  y: number;
  zoom: number;
}

/** How close to the canvas's edge a node may come and still count as in view, in screen pixels. */
export const REVEAL_MARGIN = 24;
/** How long after a person's last pan, zoom or drag on the canvas the view is theirs alone. */
export const FOLLOW_QUIET_MS = 2000;

/** Along one axis: the translation that keeps `[start, start + length]` (flow units) in view, or null when it is. */
const along = (start: number, length: number, translate: number, zoom: number, room: number, margin: number): number | null => {
  const from = start * zoom + translate;
  const to = from + length * zoom;
  if (from >= margin && to <= room - margin) return null;
  return room / 2 - (start + length / 2) * zoom;
};

/** The view that brings `node` (in flow coordinates) into a `pane` of that size, or null when it is in view already. */
export const viewRevealing = (node: Box, view: View, pane: { width: number; height: number }, margin = REVEAL_MARGIN): View | null => {
  if (pane.width <= 0 || pane.height <= 0) return null;
  const x = along(node.x, node.width, view.x, view.zoom, pane.width, margin);
  const y = along(node.y, node.height, view.y, view.zoom, pane.height, margin);
  return x === null && y === null ? null : { x: x ?? view.x, y: y ?? view.y, zoom: view.zoom };
};

/** Whether the view is the person's now: they hold the canvas, or let go of it less than FOLLOW_QUIET_MS ago. */
export const personHoldsView = (now: number, lastGestureAt: number | null, holding: boolean) => holding || (lastGestureAt !== null && now - lastGestureAt < FOLLOW_QUIET_MS);
