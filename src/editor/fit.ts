/**
 * How the canvas fits a graph into view. The floor on the zoom keeps node titles (16 px) at more
 * than 10 px on screen; a graph too big for that is shown from its left, where the entry is,
 * readable, and the rest is a pan or a click on the minimap away.
 */
import type { Viewport } from '@xyflow/react';
import type { GraphFile } from '../graph/schema.ts';
import type { EdgeLayout } from './flowAdapter.ts';
import { LOOP_SWING, nodeRect, type Rect } from './geometry.ts';

export const MIN_FIT_ZOOM = 0.66;
const MAX_FIT_ZOOM = 1.2;
const PADDING = 24;
/** For React Flow's own Fit View button. */
export const FIT_OPTIONS = { padding: 0.06, maxZoom: MAX_FIT_ZOOM, minZoom: MIN_FIT_ZOOM };

/** The box the graph is drawn in: its nodes and the loops under them. */
export const graphBounds = (graph: GraphFile, layout: EdgeLayout): Rect | null => {
  if (graph.nodes.length === 0) return null;
  const rects = graph.nodes.map(nodeRect);
  // A loop swings out past the nodes it joins before it turns under them.
  const reach = layout.loops.size > 0 ? LOOP_SWING : 0;
  const left = Math.min(...rects.map((rect) => rect.x)) - reach;
  const top = Math.min(...rects.map((rect) => rect.y));
  const right = Math.max(...rects.map((rect) => rect.x + rect.width)) + reach;
  // A loop's label hangs about half a line under its run.
  const bottom = Math.max(...rects.map((rect) => rect.y + rect.height), ...[...layout.loops.values()].map((y) => y + 16));
  return { x: left, y: top, width: right - left, height: bottom - top };
};

/** The view that shows `bounds` in a `size` canvas: whole where it can be read, else from its left. */
export const viewportFor = (bounds: Rect, size: { width: number; height: number }): Viewport => {
  const room = { width: Math.max(1, size.width - 2 * PADDING), height: Math.max(1, size.height - 2 * PADDING) };
  const zoom = Math.min(MAX_FIT_ZOOM, Math.max(MIN_FIT_ZOOM, Math.min(room.width / bounds.width, room.height / bounds.height)));
  const across = (length: number, space: number, start: number) =>
    length * zoom <= space ? PADDING + (space - length * zoom) / 2 - start * zoom : PADDING - start * zoom;
  return { x: across(bounds.width, room.width, bounds.x), y: across(bounds.height, room.height, bounds.y), zoom };
};

/** The view centred on `rect` at full size: where a graph too large to draw whole opens. */
export const viewportAround = (rect: Rect, size: { width: number; height: number }): Viewport => ({
  x: size.width / 2 - (rect.x + rect.width / 2),
  y: size.height / 2 - (rect.y + rect.height / 2),
  zoom: 1,
});

/** Asks the canvas to fit the graph again (after Auto layout, say). */
const listeners = new Set<() => void>();
export const requestFit = () => {
  for (const listener of listeners) listener();
};
export const onFitRequest = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
