/**
 * The compile of a graph file into a LangGraph StateGraph: one LangGraph node per graph node,
 * conditional edges routed by the engine's edge choice, `recursionLimit` from the limits.
 * LangGraph is the executor; the engine (engine.ts) makes the decisions, so a run through
 * LangGraph and a run stepped by the debugger give the same trace.
 * Only `@langchain/langgraph/web` is imported: it is the entry that runs in the browser too.
 * No checkpointer: the engine holds the state and the trace, and a MemorySaver would keep every
 * superstep's checkpoint of a long run. Pauses and approvals are the engine's own (the debugger's
 * controller steps the engine), since a dynamic `interrupt()` does not work in the browser.
 */
import { Annotation, END, START, StateGraph } from '@langchain/langgraph/web';
import { reachableFrom } from '../graph/index.ts';
import type { Engine } from './engine.ts';

const Channels = Annotation.Root({
  /** The agent state after the latest step, replaced each step. */
  agent: Annotation<Record<string, unknown>>(),
  steps: Annotation<number>(),
});

/**
 * Graph ids become `node_<index>_<id>`: a node may be called `plan` or `steps`, which LangGraph
 * would refuse as a name shared with a state channel. Only nodes reachable from the entry are
 * compiled: LangGraph refuses unreachable ones, and they can never run.
 */
export const internalNames = (engine: Engine): Map<string, string> => {
  const reachable = reachableFrom(engine.graph, engine.graph.entry);
  return new Map(engine.graph.nodes.flatMap((node, index) => (reachable.has(node.id) ? [[node.id, `node_${index}_${node.id}`] as const] : [])));
};

/** Every executed node is one superstep, plus the guard's step that may stop the run. */
export const recursionLimitOf = (engine: Engine) => engine.graph.limits.maxSteps + 2;

export const compileToStateGraph = (engine: Engine) => {
  const names = internalNames(engine);
  const route = () => (engine.next !== null && names.has(engine.next) ? (names.get(engine.next) as string) : END);
  const nodes = engine.graph.nodes.filter((node) => names.has(node.id));
  const builder = new StateGraph(Channels).addNode(
    nodes.map((node): [string, () => Promise<{ agent: Record<string, unknown>; steps: number }>] => [
      names.get(node.id) as string,
      async () => {
        if (engine.next !== node.id) throw new Error(`LangGraph routed to ${node.id} but the engine expects ${engine.next}`);
        const advance = await engine.advance();
        if (advance.type === 'approval') throw new Error('a run through LangGraph is headless: approvals take config.auto');
        return { agent: engine.state, steps: engine.steps.length };
      },
    ]),
  );
  for (const node of nodes) {
    const targets = [...new Set(engine.graph.edges.filter((edge) => edge.source === node.id && names.has(edge.target)).map((edge) => names.get(edge.target) as string))];
    builder.addConditionalEdges(names.get(node.id) as string, route, [...targets, END]);
  }
  const entry = names.get(engine.graph.entry);
  if (entry) builder.addEdge(START, entry);
  return builder.compile();
};

/** Runs the engine to its end through the compiled StateGraph. */
export const runThroughLangGraph = async (engine: Engine): Promise<void> => {
  if (!internalNames(engine).has(engine.graph.entry)) {
    await engine.advance();
    return;
  }
  try {
    await compileToStateGraph(engine).invoke({ agent: engine.state, steps: 0 }, { recursionLimit: recursionLimitOf(engine) });
  } catch (error) {
    engine.halt('error', `the LangGraph executor failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  // An edge to a node that does not exist ends LangGraph's walk; the engine records why.
  if (!engine.stopped) await engine.advance();
};
