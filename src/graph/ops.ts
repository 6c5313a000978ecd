/** Pure edits of a graph document. Each returns a new document and never mutates its input. */
import { KINDS, type NodeKind } from './kinds/index.ts';
import { idProblem, type Position } from './common.ts';
import type { GraphEdge, GraphFile, GraphNode, Scenario } from './schema.ts';
import type { When } from './when.ts';

const uniqueId = (base: string, taken: ReadonlySet<string>): string => {
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

export const createNode = (graph: GraphFile, kind: NodeKind, position: Position): GraphNode =>
  ({ id: nextNodeId(graph, kind), kind, label: KINDS[kind].title, position, config: KINDS[kind].config.parse({}) }) as GraphNode;

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

export const addNode = (graph: GraphFile, node: GraphNode): GraphFile => ({
  ...graph,
  nodes: [...graph.nodes, node],
  // The first node of an empty graph is where a run starts.
  entry: graph.entry && graph.nodes.some((existing) => existing.id === graph.entry) ? graph.entry : node.id,
});

export const updateNode = (graph: GraphFile, id: string, update: (node: GraphNode) => GraphNode): GraphFile => ({
  ...graph,
  nodes: graph.nodes.map((node) => (node.id === id ? update(node) : node)),
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

/** A node id that is free, or the reason it is not. */
export const checkNodeId = (graph: GraphFile, id: string, current?: string): string | null => {
  const problem = idProblem(id);
  if (problem) return problem;
  if (id !== current && graph.nodes.some((node) => node.id === id)) return `"${id}" is taken`;
  return null;
};

/** The record with one key renamed, keeping the order. */
export const renameKey = <T>(record: Record<string, T>, from: string, to: string) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));

/** A scenario's expectations with one node id replaced, so that a rename does not break the tests that name it. */
const renameInScenario = (scenario: Scenario, from: string, to: string): Scenario => {
  const { expect } = scenario;
  const swap = (ids: string[] | undefined) => ids?.map((id) => (id === from ? to : id));
  const renamed = { ...expect, path: swap(expect.path), pathIncludes: swap(expect.pathIncludes), attempts: expect.attempts && renameKey(expect.attempts, from, to), visits: expect.visits && renameKey(expect.visits, from, to) };
  return {
    ...scenario,
    ...(scenario.decisions ? { decisions: renameKey(scenario.decisions, from, to) } : {}),
    expect: Object.fromEntries(Object.entries(renamed).filter(([, value]) => value !== undefined)),
  };
};

/** Renames a node and everything that names it: its edges, the entry, `finally` and the scenarios' expectations. */
export const renameNode = (graph: GraphFile, from: string, to: string): GraphFile => {
  if (from === to) return graph;
  return {
    ...graph,
    entry: graph.entry === from ? to : graph.entry,
    ...(graph.finally === from ? { finally: to } : {}),
    scenarios: graph.scenarios.map((scenario) => renameInScenario(scenario, from, to)),
    nodes: graph.nodes.map((node) => (node.id === from ? { ...node, id: to } : node)),
    edges: graph.edges.map((edge) => ({
      ...edge,
      source: edge.source === from ? to : edge.source,
      target: edge.target === from ? to : edge.target,
    })),
  };
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

/** Moves an edge among its source's edges, which is the order conditions are tried in. */
export const moveEdge = (graph: GraphFile, id: string, direction: -1 | 1): GraphFile => {
  const edge = graph.edges.find((candidate) => candidate.id === id);
  if (!edge) return graph;
  const siblings = graph.edges.map((candidate, index) => ({ candidate, index })).filter(({ candidate }) => candidate.source === edge.source);
  const at = siblings.findIndex(({ candidate }) => candidate.id === id);
  const other = siblings[at + direction];
  if (!other) return graph;
  const edges = [...graph.edges];
  [edges[siblings[at].index], edges[other.index]] = [edges[other.index], edges[siblings[at].index]];
  return { ...graph, edges };
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

/** Saves a scenario: one of the same name is replaced where it stands, a new one goes last. */
export const saveScenario = (graph: GraphFile, scenario: Scenario): GraphFile => {
  const at = graph.scenarios.findIndex((candidate) => candidate.name === scenario.name);
  return { ...graph, scenarios: at === -1 ? [...graph.scenarios, scenario] : graph.scenarios.map((candidate, index) => (index === at ? scenario : candidate)) };
};

/** Removes the scenario of that name. */
export const removeScenario = (graph: GraphFile, name: string): GraphFile => ({ ...graph, scenarios: graph.scenarios.filter((scenario) => scenario.name !== name) });
