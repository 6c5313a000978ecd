/**
 * Pure edits of a graph document, as the canvas makes them. Each returns a new document and never
 * mutates its input. The inspector's (inspectorOps.ts), the palette's and the clipboard's
 * (placement.ts: a new node, with its kind's default config) and the scenarios' (scenarioOps.ts)
 * load with them.
 */
import type { NodeKind } from './kinds/index.ts';
import type { Position } from './common.ts';
import type { GraphEdge, GraphFile, GraphNode } from './schema.ts';
import type { When } from './when.ts';

export const uniqueId = (base: string, taken: ReadonlySet<string>): string => {
  const stem = base.replace(/[^\w-]/g, '_').replace(/^(?=[^A-Za-z_])/, '_') || 'node';
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n += 1) if (!taken.has(`${stem}_${n}`)) return `${stem}_${n}`;
};

export const nextNodeId = (graph: GraphFile, kind: NodeKind): string =>
  uniqueId(kind, new Set(graph.nodes.map((node) => node.id)));

export const nextEdgeId = (graph: GraphFile): string => {
  const taken = new Set(graph.edges.map((edge) => edge.id));
  for (let n = graph.edges.length + 1; ; n += 1) if (!taken.has(`e${n}`)) return `e${n}`;
};

export const addNode = (graph: GraphFile, node: GraphNode): GraphFile => ({
  ...graph,
  nodes: [...graph.nodes, node],
  // The first node of an empty graph is where a run starts.
  entry: graph.entry && graph.nodes.some((existing) => existing.id === graph.entry) ? graph.entry : node.id,
});

export const moveNodes = (graph: GraphFile, positions: ReadonlyMap<string, Position>): GraphFile => ({
  ...graph,
  nodes: graph.nodes.map((node) => {
    const position = positions.get(node.id);
    return position ? { ...node, position } : node;
  }),
});

export const removeNodes = (graph: GraphFile, ids: readonly string[]): GraphFile => {
  const gone = new Set(ids);
  const removed: GraphFile = {
    ...graph,
    nodes: graph.nodes.filter((node) => !gone.has(node.id)),
    edges: graph.edges.filter((edge) => !gone.has(edge.source) && !gone.has(edge.target)),
    entry: gone.has(graph.entry) ? '' : graph.entry,
  };
  if (graph.finally !== undefined && gone.has(graph.finally)) delete removed.finally;
  return removed;
};

/** Connects two nodes; an outcome handle gives the edge its condition. */
export const connect = (graph: GraphFile, source: string, target: string, outcome?: string | null): GraphFile => {
  const when: When | undefined = outcome ? { outcome } : undefined;
  const duplicate = graph.edges.some(
    (edge) => edge.source === source && edge.target === target && JSON.stringify(edge.when) === JSON.stringify(when),
  );
  if (duplicate) return graph;
  const edge: GraphEdge = { id: nextEdgeId(graph), source, target, ...(when ? { when } : {}) };
  return { ...graph, edges: [...graph.edges, edge] };
};

export const updateEdge = (graph: GraphFile, id: string, update: (edge: GraphEdge) => GraphEdge): GraphFile => ({
  ...graph,
  edges: graph.edges.map((edge) => (edge.id === id ? update(edge) : edge)),
});

export const removeEdges = (graph: GraphFile, ids: readonly string[]): GraphFile => {
  const gone = new Set(ids);
  return { ...graph, edges: graph.edges.filter((edge) => !gone.has(edge.id)) };
};

