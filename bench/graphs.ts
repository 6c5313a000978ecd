/**
 * The graphs the bench opens, made from a seed so every run and every machine measures the same
 * document: a grid of nodes joined in a chain plus seeded cross edges, and a loop whose run takes
 * exactly as many steps as asked. Also the same graph as a bare React Flow page draws it: the same
 * sizes, positions and handles, no Loopscope code in the page.
 */
import { kindDefinition, outcomesOf, type GraphFile, type GraphNode } from '../src/graph/index.ts';
import { parseGraph } from '../src/graph/parse.ts';
import { handleCount, nodeHeight, nodeWidth } from '../src/editor/geometry.ts';
import { sourceHandleOf } from '../src/editor/flowAdapter.ts';

/** mulberry32: a small seeded generator, enough for placing edges. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const KINDS = ['reason', 'act', 'verify', 'collect'] as const;
const COLUMNS = 40;
const STEP_X = 260;
const STEP_Y = 240;

/** `nodes` nodes on a grid, a chain through them and cross edges to near neighbours up to `edges` in all. */
export const gridGraph = (nodes: number, edges: number, seed = 14): Record<string, unknown> => {
  const random = seeded(seed);
  const graphNodes = Array.from({ length: nodes }, (_, index) => ({
    id: `n${index}`,
    kind: KINDS[index % KINDS.length],
    label: `Node ${index}`,
    position: { x: (index % COLUMNS) * STEP_X, y: Math.floor(index / COLUMNS) * STEP_Y },
  }));
  const graphEdges: { id: string; source: string; target: string; when?: unknown }[] = [];
  for (let index = 0; index + 1 < nodes && graphEdges.length < edges; index += 1)
    graphEdges.push({ id: `e${graphEdges.length}`, source: `n${index}`, target: `n${index + 1}`, when: { outcome: kindDefinition(graphNodes[index].kind).outcomes[0] } });
  while (graphEdges.length < edges) {
    const source = Math.floor(random() * nodes);
    const target = Math.min(nodes - 1, Math.max(0, source + Math.floor(random() * 2 * COLUMNS) - COLUMNS));
    if (target === source) continue;
    const outcomes = kindDefinition(graphNodes[source].kind).outcomes;
    const when = random() < 0.5 ? 'otherwise' : { outcome: outcomes[1 + Math.floor(random() * (outcomes.length - 1))] };
    graphEdges.push({ id: `e${graphEdges.length}`, source: `n${source}`, target: `n${target}`, when });
  }
  return { format: 'loopscope/graph', version: 1, name: `Bench ${nodes} nodes`, entry: 'n0', nodes: graphNodes, edges: graphEdges };
};

/** What the bare React Flow page draws: sizes, positions and handle ids as the canvas has them. */
export interface BareGraph {
  name: string;
  nodes: { id: string; label: string; x: number; y: number; width: number; height: number; handles: string[] }[];
  edges: { id: string; source: string; target: string; sourceHandle: string | null }[];
}

export const bareGraph = (graph: GraphFile): BareGraph => {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const handlesOf = (node: GraphNode) => (handleCount(node) === 0 ? [] : [...outcomesOf(node), 'out']);
  return {
    name: graph.name,
    nodes: graph.nodes.map((node) => ({ id: node.id, label: node.label ?? node.id, x: node.position.x, y: node.position.y, width: nodeWidth(node), height: nodeHeight(node, graph.skills), handles: handlesOf(node) })),
    edges: graph.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target, sourceHandle: sourceHandleOf(edge, byId.get(edge.source)) })),
  };
};

/**
 * A loop of `perRound` nodes (plan, act, then verifies) that never has the records it wants, so a
 * run goes round until maxSteps stops it: `steps` steps exactly, with no skill but a mock.
 */
export const longRunGraph = (steps: number, perRound = 10): Record<string, unknown> => {
  const verifies = Array.from({ length: perRound - 2 }, (_, index) => `verify${index + 1}`);
  const chain = ['plan', 'act', ...verifies];
  return {
    format: 'loopscope/graph', version: 1, name: `Bench run of ${steps} steps`, entry: 'plan',
    limits: { maxSteps: steps, maxRounds: Math.min(1000, Math.ceil(steps / perRound)) },
    skills: { probe: { type: 'mock', tokens: 1, script: [{ outcome: 'ok', records: [] }] } },
    nodes: [
      { id: 'plan', kind: 'reason', config: { plans: [{ actions: [{ skill: 'probe' }] }] }, position: { x: 0, y: 0 } },
      { id: 'act', kind: 'act', position: { x: 260, y: 0 } },
      ...verifies.map((id, index) => ({ id, kind: 'verify', config: { minRecords: 2 }, position: { x: 520 + index * 260, y: 0 } })),
      { id: 'done', kind: 'respond', position: { x: 520, y: 300 } },
    ],
    edges: [
      ...chain.slice(0, -1).map((id, index) => ({ id: `c${index}`, source: id, target: chain[index + 1], ...(index >= 2 ? { when: 'otherwise' } : {}) })),
      ...verifies.map((id, index) => ({ id: `s${index}`, source: id, target: 'done', when: { outcome: 'sufficient' } })),
      { id: 'back', source: chain[chain.length - 1], target: 'plan', when: 'otherwise' },
    ],
  };
};

/** A generated document as a graph, read by the app's own parser: the canvas's sizes for the bare page. */
export const readGenerated = (document: Record<string, unknown>): GraphFile => {
  const parsed = parseGraph(document);
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
  return parsed.value;
};
