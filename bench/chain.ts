/**
 * What a step costs as a graph grows (issue 40, #14): a chain of `nodes` act nodes, each calling a
 * mock skill once, run by `loopscope run` (runGraph), against the same chain written straight on
 * LangGraph with the same checkpointer. Each step of a chain runs a node no step ran before, so
 * whatever a step pays per node of the graph shows here as it cannot in a loop of four nodes.
 */
import { Annotation, END, START, StateGraph } from '@langchain/langgraph/web';
import { MemorySaver } from '@langchain/langgraph-checkpoint';
import { type GraphFile } from '../src/graph/index.ts';
import { parseGraph } from '../src/graph/parse.ts';
import { runGraph } from '../src/runtime/index.ts';

/** A chain of `nodes` act nodes calling one mock skill, then a stop. */
export const chainGraph = (nodes: number): GraphFile => {
  const ids = Array.from({ length: nodes }, (_, index) => `a${index}`);
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: `Chain of ${nodes}`, entry: 'a0',
    limits: { maxSteps: nodes + 10, maxRounds: 1 },
    skills: { probe: { type: 'mock', tokens: 1, script: [{ outcome: 'ok', records: [{ seen: true }] }] } },
    nodes: [...ids.map((id) => ({ id, kind: 'act', config: { skill: 'probe' } })), { id: 'end', kind: 'stop', config: { reason: 'completed' } }],
    edges: ids.map((id, index) => ({ id: `e${index}`, source: id, target: ids[index + 1] ?? 'end' })),
  });
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
  return parsed.value;
};

/** The same chain on LangGraph, written straight: the act's fields, one mock call a node, a MemorySaver. */
const straightChain = (nodes: number) => {
  const State = Annotation.Root({
    round: Annotation<number>(), steps: Annotation<number>(), tokensUsed: Annotation<number>(),
    results: Annotation<unknown[]>(), execution_error: Annotation<unknown>(), served: Annotation<number>(),
  });
  const act = async (state: typeof State.State) => ({
    steps: state.steps + 1, tokensUsed: state.tokensUsed + 1, served: state.served + 1, execution_error: null,
    results: [{ skill: 'probe', args: {}, outcome: 'ok', records: [{ seen: true }], attempts: 1 }],
  });
  let builder = new StateGraph(State) as unknown as { addNode: (name: string, run: typeof act) => typeof builder; addEdge: (from: string, to: string) => typeof builder; compile: (options: unknown) => { stream: (input: unknown, options: unknown) => Promise<AsyncIterable<Record<string, unknown>>> } };
  for (let index = 0; index < nodes; index += 1) builder = builder.addNode(`a${index}`, act);
  builder = builder.addEdge(START, 'a0');
  for (let index = 0; index < nodes; index += 1) builder = builder.addEdge(`a${index}`, index + 1 < nodes ? `a${index + 1}` : END);
  return builder.compile({ checkpointer: new MemorySaver() });
};

const runStraightChain = async (nodes: number) => {
  let steps = 0;
  const stream = await straightChain(nodes).stream({ round: 1, steps: 0, tokensUsed: 0, served: 0 }, { configurable: { thread_id: 'bench' }, streamMode: 'updates', recursionLimit: nodes * 2 + 10 });
  for await (const chunk of stream) steps += Object.keys(chunk).length;
  return steps;
};

/** As `loopscope run` runs a file: headless, compact trace steps, no journal. */
const runOursChain = async (graph: GraphFile) => {
  const trace = await runGraph(graph, { compact: true });
  if (trace.stopReason !== 'completed') throw new Error(`the chain stopped with ${trace.stopReason}: ${trace.stopExplain}`);
  return trace.steps.length;
};

const msPerStep = async (once: () => Promise<number>) => {
  const started = performance.now();
  const steps = await once();
  return (performance.now() - started) / steps;
};

/**
 * Milliseconds per step, best of `repeat` alternating runs, of ours and of straight LangGraph on a
 * chain of each size (the graphs compiled inside the timing, as `loopscope run` does).
 */
export const chainSteps = async (sizes: readonly number[], repeat: number) => {
  await runOursChain(chainGraph(20));
  await runStraightChain(20);
  const graphs = sizes.map(chainGraph);
  const best = sizes.map(() => ({ ours: Number.POSITIVE_INFINITY, straight: Number.POSITIVE_INFINITY }));
  for (let n = 0; n < repeat; n += 1)
    for (const [index, nodes] of sizes.entries()) {
      best[index].straight = Math.min(best[index].straight, await msPerStep(() => runStraightChain(nodes)));
      best[index].ours = Math.min(best[index].ours, await msPerStep(() => runOursChain(graphs[index])));
    }
  return best;
};
