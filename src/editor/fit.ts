/**
 * How the canvas fits a graph into view. A graph opened is fitted readable: whole with every text
 * of the canvas (13 px, geometry.ts CANVAS_TEXT) at 10 px or more on screen where it fits so; else
 * whole with its titles (15 px) at 10 px or more; else, too big for that, from its left, where the
 * entry is, every text readable, and the rest is a pan or a click on the minimap away. Fit View
 * and Auto layout show the whole graph, however small. Either way the box fitted is all that is
 * drawn (nodes, the chips and toggles above them, loops, labels) with a margin, in the part of the
 * canvas nothing covers; the margin narrows before the text gets small.
 */
import type { Viewport } from '@xyflow/react';
import type { GraphFile } from '../graph/schema.ts';
import type { Room } from '../ui/freeRoom.ts';
import { viewportInRoom } from '../ui/viewportInRoom.ts';
import type { EdgeLayout } from './flowAdapter.ts';
import { ABOVE_NODE, CANVAS_TEXT, LOOP_SWING, nodeRect, unionOf, type Rect } from './geometry.ts';

/** The smallest zoom at which the canvas's body text is 10 px on screen. */
export const MIN_FIT_ZOOM = Math.ceil((10 / CANVAS_TEXT.body) * 1000) / 1000;
/** The smallest zoom at which the node titles are 10 px on screen: a graph is opened whole down to it. */
export const MIN_WHOLE_FIT_ZOOM = Math.ceil((10 / CANVAS_TEXT.title) * 1000) / 1000;
/** The smallest zoom Fit View goes to for the whole graph. */
export const MIN_WHOLE_ZOOM = 0.1;
/** Past this many nodes a graph opens on its entry, and the canvas draws only what is in view. */
export const LARGE_GRAPH = 200;
const MAX_FIT_ZOOM = 1.2;
/** The margin kept round the graph, in screen pixels. */
export const FIT_MARGIN = 24;
/** What the margin gives way to before the text does: a graph a little too big for its canvas is drawn closer to its sides, readable. */
export const MIN_FIT_MARGIN = 4;
/** What the breakpoint toggle on a node's corner reaches past its right side (editor.css). */
const TOGGLE_OUT = 10;
/** How far a loop's label hangs under its run. */
const LOOP_LABEL_BELOW = 16;

/** How a fit chooses its zoom: readable (whole if it can be, else from the graph's left); or the whole graph. */
export type FitMode = 'readable' | 'whole';

/** The box the graph is drawn in: its nodes with what is drawn above them, the loops under them, the labels. */
export const graphBounds = (graph: GraphFile, layout: EdgeLayout): Rect | null => {
  if (graph.nodes.length === 0) return null;
  const rects = new Map(graph.nodes.map((node) => [node.id, nodeRect(node, graph.skills)]));
  const parts: Rect[] = [...rects.values()].map((rect) => ({ x: rect.x, y: rect.y - ABOVE_NODE, width: rect.width + TOGGLE_OUT, height: rect.height + ABOVE_NODE }));
  // A loop swings out past the nodes it joins before it turns under them; its label hangs under its run.
  for (const edge of graph.edges) {
    const level = layout.loops.get(edge.id);
    const [source, target] = [rects.get(edge.source), rects.get(edge.target)];
    if (level === undefined || !source || !target) continue;
    const [left, right] = [target.x - LOOP_SWING, source.x + source.width + LOOP_SWING];
    parts.push({ x: Math.min(left, right), y: level, width: Math.abs(right - left), height: LOOP_LABEL_BELOW });
  }
  if (layout.labelExtent) parts.push(layout.labelExtent);
  return unionOf(parts);
};


/**
 * The view that shows `bounds` in `room` of the canvas (its whole size by default) with a margin:
 * readable and from the graph's left and top where it does not fit, or whole.
 */
export const viewportFor = (bounds: Rect, room: Room | { width: number; height: number }, mode: FitMode = 'readable'): Viewport => {
  const margin = marginFor(bounds, room);
  return viewportInRoom(bounds, room, {
    margin: { x: margin, y: margin },
    minZoom: (whole) => (mode === 'whole' ? MIN_WHOLE_ZOOM : whole >= MIN_WHOLE_FIT_ZOOM ? Math.min(MIN_FIT_ZOOM, whole) : MIN_FIT_ZOOM),
    maxZoom: MAX_FIT_ZOOM,
  });
};

/**
 * FIT_MARGIN, unless a narrower one, down to MIN_FIT_MARGIN, is what shows the graph whole at a
 * readable zoom: the bounds hold all that is drawn, so a narrower margin hides nothing, where a
 * smaller zoom would draw the text under 10 px. A graph too big either way keeps the full margin.
 */
const marginFor = (bounds: Rect, room: { width: number; height: number }) => {
  const spare = Math.min(room.width - bounds.width * MIN_FIT_ZOOM, room.height - bounds.height * MIN_FIT_ZOOM) / 2;
  return spare >= MIN_FIT_MARGIN && spare < FIT_MARGIN ? spare : FIT_MARGIN;
};

/** The view centred on `rect` at full size: where a graph too large to draw whole opens. */
export const viewportAround = (rect: Rect, size: { width: number; height: number }): Viewport => ({
  x: size.width / 2 - (rect.x + rect.width / 2),
  y: size.height / 2 - (rect.y + rect.height / 2),
  zoom: 1,
});
