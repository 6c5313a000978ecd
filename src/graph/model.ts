import { kindDefinition } from './kinds/index.ts';
import type { GraphEdge, GraphFile, GraphNode } from './schema.ts';

export const nodeById = (graph: GraphFile, id: string): GraphNode | undefined => graph.nodes.find((node) => node.id === id);

export const outcomesOf = (node: GraphNode): readonly string[] => kindDefinition(node.kind).outcomes;

export const isTerminal = (node: GraphNode): boolean => kindDefinition(node.kind).terminal;

/** A source's edges in the order they are tried: file order, `otherwise` last (SPEC §1, Edges). */
export const edgesInTryOrder = (graph: GraphFile, source: string): GraphEdge[] => {
  const outgoing = graph.edges.filter((edge) => edge.source === source);
  return [...outgoing.filter((edge) => edge.when !== 'otherwise'), ...outgoing.filter((edge) => edge.when === 'otherwise')];
};

/** Fields the runtime itself keeps in the state. */
export const RUNTIME_FIELDS = ['round', 'steps', 'tokensUsed'] as const;

/** The known inner fields of each node-owned field group, for path checks and suggestions. */
export const FIELD_SHAPES: Record<string, readonly string[]> = {
  plan: ['actions', 'signature', 'repeated'],
  evaluation: ['evidence_sufficient', 'plan_exhausted', 'reason', 'reasoning', 'records'],
  recovery: ['action', 'skill', 'reason'],
  approval: ['decision', 'skill', 'by'],
  execution_error: ['outcome', 'skill', 'message'],
  response: ['text'],
};

/** Every field path a condition may read in this graph: runtime fields, initial state, and what its nodes write. */
export const knownPaths = (graph: GraphFile): string[] => {
  const groups = new Set<string>([...RUNTIME_FIELDS, ...Object.keys(graph.state)]);
  for (const node of graph.nodes) for (const field of kindDefinition(node.kind).writes) groups.add(field);
  // Own keys only: a state field named like an Object method (`toString`) has no known shape.
  const shapeOf = (group: string) => (Object.hasOwn(FIELD_SHAPES, group) ? FIELD_SHAPES[group] : []);
  return [...groups].flatMap((group) => [group, ...shapeOf(group).map((inner) => `${group}.${inner}`)]);
};

/** Nodes reachable from the entry by following edges. */
export const reachableFrom = (graph: GraphFile, entry: string): Set<string> => {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id) || !nodeById(graph, id)) continue;
    seen.add(id);
    for (const edge of graph.edges) if (edge.source === id) queue.push(edge.target);
  }
  return seen;
};
