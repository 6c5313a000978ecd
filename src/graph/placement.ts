/** Where new nodes and copies go: the palette's (a free spot) and the clipboard's (copies offset, with fresh ids). */
import type { Position } from './common.ts';
import { nextEdgeId, uniqueId } from './ops.ts';
import type { GraphEdge, GraphFile, GraphNode } from './schema.ts';

/** Roughly a node's footprint on the canvas, for placing new nodes where none stands. */
const NODE_FOOTPRINT = { width: 220, height: 150 };

/** The position itself when no node stands there, else the first free spot below it. */
export const freePosition = (graph: GraphFile, position: Position): Position => {
  const taken = (y: number) =>
    graph.nodes.some((node) => Math.abs(node.position.x - position.x) < NODE_FOOTPRINT.width && Math.abs(node.position.y - y) < NODE_FOOTPRINT.height);
  let y = position.y;
  while (taken(y)) y += NODE_FOOTPRINT.height;
  return { x: position.x, y };
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

