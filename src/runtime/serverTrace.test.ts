import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph/web';
import { describe, expect, it } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { buildStateGraph } from './compile.ts';
import { runGraph } from './run.ts';
import { branchOf, traceFromBranch, type CheckpointState } from './serverTrace.ts';
import type { Trace } from './trace.ts';

const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

/** A thread's history as the LangGraph server's API gives it (newest first), from an in-process checkpointer. */
const history = async (compiled: { getStateHistory: ReturnType<ReturnType<typeof buildStateGraph>['compile']>['getStateHistory'] }, thread: string): Promise<CheckpointState[]> => {
  const states: CheckpointState[] = [];
  for await (const snapshot of compiled.getStateHistory({ configurable: { thread_id: thread } }))
    states.push({
      values: snapshot.values as Record<string, unknown>, next: [...snapshot.next],
      checkpoint: { checkpoint_id: snapshot.config.configurable?.checkpoint_id as string },
      parent_checkpoint: snapshot.parentConfig ? { checkpoint_id: snapshot.parentConfig.configurable?.checkpoint_id as string } : null,
    });
  return states;
};

const withoutTimes = (trace: Trace) => trace.steps.map((step) => ({ ...step, durationMs: 0 }));

describe('a server thread read back as a trace', () => {
  it('is the trace loopscope run makes, step for step, with the stop', async () => {
    const graph = securityclaw();
    const compiled = buildStateGraph(graph).compile({ checkpointer: new MemorySaver() });
    await compiled.invoke({}, { configurable: { thread_id: 't' }, recursionLimit: 200 });
    const states = await history(compiled, 't');
    const { chain, missing } = branchOf(states[0], states);
    expect(missing).toBeNull();
    const trace = traceFromBranch(graph.name, chain);
    const local = await runGraph(graph, { compact: true });
    expect(withoutTimes(trace)).toEqual(withoutTimes(local));
    expect(trace).toMatchObject({ stopReason: local.stopReason, rounds: local.rounds, tokensUsed: local.tokensUsed, finalState: local.finalState });
  });

  it('follows the current branch after a fork, and says which checkpoint is missing from a partial page', async () => {
    const graph = securityclaw();
    const compiled = buildStateGraph(graph).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'f' }, recursionLimit: 200 };
    await compiled.invoke({}, config);
    const before = await history(compiled, 'f');
    const afterExecute = before.find((state) => (state.values._step as { step: number } | null)?.step === 2) as CheckpointState;
    const results = (afterExecute.values.results as object[]).map((result) => ({ ...result, outcome: 'ok', records: [{ ip: '10.0.0.5' }] }));
    const forked = await compiled.updateState({ configurable: { thread_id: 'f', checkpoint_id: afterExecute.checkpoint.checkpoint_id } }, { results }, 'execute');
    await compiled.invoke(null, { ...forked, recursionLimit: 200 });
    const states = await history(compiled, 'f');
    const trace = traceFromBranch(graph.name, branchOf(states[0], states).chain);
    expect(trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    expect(trace.stopReason).toBe('completed');
    const page = states.slice(0, 2);
    expect(branchOf(page[0], page).missing).toBe(states[2].checkpoint.checkpoint_id);
  });

  it('reads a graph that is not a Loopscope export from its checkpoints: which node ran, what it changed', async () => {
    const State = Annotation.Root({ n: Annotation<number>(), log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const plain = new StateGraph(State)
      .addNode('a', async (state) => ({ n: state.n + 1, log: ['a'] }))
      .addNode('b', async (state) => ({ n: state.n * 2, log: ['b'] }))
      .addEdge(START, 'a').addConditionalEdges('a', (state) => (state.n < 3 ? 'a' : 'b'), ['a', 'b']).addEdge('b', END)
      .compile({ checkpointer: new MemorySaver() });
    await plain.invoke({ n: 1 }, { configurable: { thread_id: 'p' } });
    const states = await history(plain as never, 'p');
    const trace = traceFromBranch('plain', branchOf(states[0], states).chain);
    expect(trace.steps.map((step) => step.node)).toEqual(['a', 'a', 'b']);
    expect(trace.steps[2].writes).toEqual({ n: 6, log: ['a', 'a', 'b'] });
    expect(trace).toMatchObject({ stopReason: 'completed', finalState: { n: 6 } });
  });
});
