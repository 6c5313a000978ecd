/**
 * How a server graph's edges go round its nodes, with the editor's routing (ui/edgeRouting.ts): an
 * edge whose curve would pass under a node it does not join (a dashed edge to `__end__` across the
 * nodes between) detours along a level clear of them; an edge closing a loop runs back above or
 * below the nodes, never under one; labels sit clear of the nodes (ui/labelPlacement.ts), off their
 * edge with a leader where there is no room on it. Pure: the canvas draws to what this returns.
 */
import { edgeRoute, type PlacedLabel, type Point, type Rect } from '../../ui/edgeGeometry.ts';
import { detourLevel, nodeGrid, routeRoundNodes } from '../../ui/edgeRouting.ts';
import { placeLabels } from '../../ui/labelPlacement.ts';
import { finish } from '../../ui/pausable.ts';

/** React Flow's default handle, 6 px square, centred on the node's side: where an edge starts and ends. */
const HANDLE_OUT = 3;
/** How far under both its ends a loop runs where no level clear of the nodes is found. */
const LOOP_DROP = 56;
/** The node's breakpoint toggle, over its top right corner (server.css): a label keeps clear of it too. */
const TOGGLE = { up: 19, right: 22 };

export interface RoutedEdge {
  id: string;
  source: string;
  target: string;
  /** It closes a loop (drawingLayout.ts, loopEdges). */
  loop: boolean;
  /** The label's box, when it has one. */
  label: { width: number; height: number } | null;
}

export interface ServerEdgeLayout {
  /** The level of each edge drawn as a loop or a detour (edgeRoute's `loopY`); an edge not here is a curve. */
  levels: Map<string, number>;
  labels: Map<string, PlacedLabel>;
}

/** Where an edge leaves its source and enters its target, as React Flow draws its handles. */
export const edgeEnds = (source: Rect, target: Rect): { from: Point; to: Point } => ({
  from: { x: source.x + source.width + HANDLE_OUT, y: source.y + source.height / 2 },
  to: { x: target.x - HANDLE_OUT, y: target.y + target.height / 2 },
});

/** A loop back to a node on the left (or to itself) is drawn as one; an edge closing a loop forward is a curve. */
export const drawnAsLoop = (edge: Pick<RoutedEdge, 'loop'>, from: Point, to: Point) => edge.loop && to.x < from.x + 24;

/** Levels and label places for `edges` among the node boxes `rects` (by node id). */
export const serverEdgeLayout = (edges: readonly RoutedEdge[], rects: ReadonlyMap<string, Rect>): ServerEdgeLayout => {
  const ends = new Map<string, { from: Point; to: Point }>();
  for (const edge of edges) {
    const [source, target] = [rects.get(edge.source), rects.get(edge.target)];
    if (source && target) ends.set(edge.id, edgeEnds(source, target));
  }
  const grid = nodeGrid(rects);
  const levels = new Map<string, number>();
  for (const edge of edges) {
    const end = ends.get(edge.id);
    if (end && drawnAsLoop(edge, end.from, end.to)) levels.set(edge.id, detourLevel(grid, end.from, end.to) ?? Math.max(end.from.y, end.to.y) + LOOP_DROP);
  }
  finish(routeRoundNodes(edges.filter((edge) => ends.has(edge.id)), ends, rects, levels));
  const obstacles = [...rects.values()].map((rect) => ({ x: rect.x, y: rect.y - TOGGLE.up, width: rect.width + TOGGLE.right, height: rect.height + TOGGLE.up }));
  const requests = edges.flatMap((edge) => {
    const end = ends.get(edge.id);
    return end && edge.label ? [{ id: edge.id, route: edgeRoute(end.from, end.to, levels.get(edge.id) ?? null), size: edge.label }] : [];
  });
  return { levels, labels: placeLabels(obstacles, requests) };
};
