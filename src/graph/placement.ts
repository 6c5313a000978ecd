/** New nodes and where they and copies go: the palette's (a free spot) and the clipboard's (copies offset, with fresh ids). */
import type { Position } from './common.ts';
import { KINDS, type NodeKind } from './kinds/index.ts';
import { KIND_SCHEMAS } from './kinds/schemas.ts';
import { nextEdgeId, nextNodeId, uniqueId } from './ops.ts';
import type { GraphEdge, GraphFile, GraphNode } from './schema.ts';

/** A node of a kind, with its kind's default config (its config schema's, hence zod: not on the first screen). */
export const createNode = (graph: GraphFile, kind: NodeKind, position: Position): GraphNode =>
  ({ id: nextNodeId(graph, kind), kind, label: KINDS[kind].title, position, config: KIND_SCHEMAS[kind].config.parse({}) }) as GraphNode;

/** A node's box on the canvas. The canvas knows sizes (editor/geometry.ts), the graph does not: the caller says. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Room kept between a new node and the others: the run's chips above a node and its edges' ends beside it need it. */
const CLEARANCE = 40;
/** How far apart the spots tried are, and how many rings of them round the wanted one. */
const STEP = 40;
const RINGS = 40;

const clear = (box: Box, boxes: readonly Box[]) =>
  boxes.every((other) => box.x + box.width + CLEARANCE <= other.x || other.x + other.width + CLEARANCE <= box.x || box.y + box.height + CLEARANCE <= other.y || other.y + other.height + CLEARANCE <= box.y);

/** Whether `box` lies whole inside `room`. */
export const boxInside = (box: Box, room: Box) => box.x >= room.x && box.y >= room.y && box.x + box.width <= room.x + room.width && box.y + box.height <= room.y + room.height;

/**
 * The nearest spot to `position` where a node of `size` overlaps no node of the graph (`boxOf`
 * gives each node's box) and keeps a clearance from each: the position itself when it is free,
 * else the closest free one on rings of spots round it, nearer ones first, right and below before
 * left and above at the same distance. With a `room` (the view), only spots whole inside it count
 * while one is free there: a node added from the keyboard lands where the person looks.
 */
export const freePosition = (graph: GraphFile, position: Position, size: { width: number; height: number }, boxOf: (node: GraphNode) => Box, room?: Box): Position => {
  const boxes = graph.nodes.map(boxOf);
  const inside = (spot: Position) => !room || boxInside({ ...spot, ...size }, room);
  const fits = (spot: Position) => inside(spot) && clear({ ...spot, ...size }, boxes);
  if (fits(position)) return position;
  for (let ring = 1; ring <= RINGS; ring += 1) {
    const spots: Position[] = [];
    for (let dx = -ring; dx <= ring; dx += 1)
      for (let dy = -ring; dy <= ring; dy += 1) if (Math.max(Math.abs(dx), Math.abs(dy)) === ring) spots.push({ x: position.x + dx * STEP, y: position.y + dy * STEP });
    const distance = (spot: Position) => Math.hypot(spot.x - position.x, spot.y - position.y) - (spot.x >= position.x ? 0.1 : 0) - (spot.y >= position.y ? 0.05 : 0);
    const found = spots.sort((a, b) => distance(a) - distance(b)).find(fits);
    if (found) return found;
  }
  // No free spot in the room: the nearest anywhere (the caller brings it into view).
  if (room) return freePosition(graph, position, size, boxOf);
  // A canvas this crowded: below everything.
  return { x: position.x, y: Math.max(...boxes.map((box) => box.y + box.height)) + CLEARANCE };
};

/** Copies of nodes with fresh ids, offset, and the edges among them. */
export const duplicateNodes = (graph: GraphFile, nodes: readonly GraphNode[], edges: readonly GraphEdge[], offset: Position = { x: 40, y: 40 }) => {
  const taken = new Set(graph.nodes.map((node) => node.id));
  const renamed = new Map<string, string>();
  const copies = nodes.map((node) => {
    const id = uniqueId(node.id.replace(/_\d+$/, ''), taken);
    taken.add(id);
    renamed.set(node.id, id);
    return { ...structuredClone(node), id, position: { x: node.position.x + offset.x, y: node.position.y + offset.y } } as GraphNode;
  });
  let next: GraphFile = { ...graph, nodes: [...graph.nodes, ...copies] };
  for (const edge of edges) {
    const source = renamed.get(edge.source);
    const target = renamed.get(edge.target);
    if (source && target) next = { ...next, edges: [...next.edges, { ...structuredClone(edge), id: nextEdgeId(next), source, target }] };
  }
  return { graph: next, ids: copies.map((node) => node.id) };
};
