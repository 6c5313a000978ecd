import { kindDefinition } from './kinds/index.ts';
import type { GraphEdge, GraphFile, GraphNode } from './schema.ts';

export const nodeById = (graph: GraphFile, id: string): GraphNode | undefined => graph.nodes.find((node) => node.id === id);

/** The outcomes a node can report: its kind's, or what its config makes them (an inner loop adds `max_iter`). */
export const outcomesOf = (node: GraphNode): readonly string[] => {
  const definition = kindDefinition(node.kind);
  return definition.outcomesFor ? definition.outcomesFor(node.config) : definition.outcomes;
};

export const isTerminal = (node: GraphNode): boolean => kindDefinition(node.kind).terminal;

const tryOrder = (outgoing: readonly GraphEdge[]): GraphEdge[] => [
  ...outgoing.filter((edge) => edge.when !== 'otherwise'),
  ...outgoing.filter((edge) => edge.when === 'otherwise'),
];

/** A source's edges in the order they are tried: file order, `otherwise` last (SPEC §1, Edges). */
export const edgesInTryOrder = (graph: GraphFile, source: string): GraphEdge[] => tryOrder(graph.edges.filter((edge) => edge.source === source));

/** Every source's edges in file order, in one pass: what whole-graph checks read instead of filtering per node. */
export const outgoingEdges = (graph: GraphFile): Map<string, GraphEdge[]> => {
  const outgoing = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    const list = outgoing.get(edge.source);
    if (list) list.push(edge);
    else outgoing.set(edge.source, [edge]);
  }
  return outgoing;
};

/** `edgesInTryOrder` for every source at once. */
export const edgesInTryOrderBySource = (graph: GraphFile): Map<string, GraphEdge[]> =>
  new Map([...outgoingEdges(graph)].map(([source, edges]) => [source, tryOrder(edges)]));

/** Nodes reachable from the entry by following edges; linear in the size of the graph. */
export const reachableFrom = (graph: GraphFile, entry: string): Set<string> => {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const outgoing = outgoingEdges(graph);
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id) || !ids.has(id)) continue;
    seen.add(id);
    for (const edge of outgoing.get(id) ?? []) queue.push(edge.target);
  }
  return seen;
};
