import { describe, expect, it } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { RetainingSaver } from './checkpointer.ts';
import { buildStateGraph, nodeNames } from './compile.ts';
import { presentValues } from './step.ts';
import { createController } from './run.ts';
import { FIXTURES } from './fixtures/index.ts';
import { initialValues, type RunValues } from './state.ts';
import type { TraceStep } from './trace.ts';
import { stopWords } from './stepWords.ts';

const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

/** Streams a compiled graph, collecting each node's update under its LangGraph name. */
const streamUpdates = async (graph: GraphFile, thread: string, saver: RetainingSaver, input: unknown, asNode?: string) => {
  const compiled = buildStateGraph(graph).compile({ checkpointer: saver });
  const config = { configurable: { thread_id: thread } };
  if (asNode) await compiled.updateState(config, input as Record<string, unknown>, asNode);
  const updates: [string, Record<string, unknown>][] = [];
  const stream = await compiled.stream((asNode ? null : input) as never, { ...config, streamMode: 'updates', recursionLimit: 100 });
  for await (const chunk of stream) for (const [name, update] of Object.entries(chunk as Record<string, Record<string, unknown>>)) updates.push([name, update]);
  return updates;
};

describe('the compiled LangGraph StateGraph', () => {
  it('names its nodes by the graph ids, prefixing n_ only where an id is a state channel', () => {
    const graph = FIXTURES.twoActions();
    expect([...nodeNames(graph).entries()]).toEqual([['plan', 'n_plan'], ['act', 'act'], ['check', 'check'], ['fix', 'fix'], ['done', 'done'], ['halt', 'halt']]);
    graph.nodes.push({ id: 'n_plan', kind: 'stop', position: { x: 0, y: 0 }, config: { reason: 'stopped' } });
    graph.edges.push({ id: 'e9', source: 'fix', target: 'n_plan', when: { outcome: 'no_path' } });
    expect(nodeNames(graph).get('plan')).toBe('n_n_plan');
    expect(nodeNames(graph).get('n_plan')).toBe('n_plan');
  });

  it('has one conditional edge per source with its targets listed, so LangGraph draws the graph right', () => {
    const compiled = buildStateGraph(securityclaw()).compile();
    const drawn = compiled.getGraph();
    const out = (source: string) => drawn.edges.filter((edge) => edge.source === source).map((edge) => edge.target).sort();
    expect(Object.keys(compiled.nodes).sort()).toEqual(['__start__', 'answer', 'confirm', 'decide', 'evaluate', 'execute', 'final', 'halt', 'recover']);
    // A run on a thread that has stopped ends at once.
    expect(out('__start__')).toEqual(['__end__', 'decide']);
    expect(out('evaluate')).toEqual(['__end__', 'answer', 'decide', 'final', 'recover']);
    // Every node may lead to the finally node (final): a stop that gets a final response goes there.
    expect(out('recover')).toEqual(['__end__', 'confirm', 'decide', 'final', 'halt']);
  });

  it('checkpoints a node\'s untriggered channel as undefined instead of throwing, and reads it back empty', async () => {
    const saver = new RetainingSaver();
    const compiled = buildStateGraph(FIXTURES.twoActions()).compile({ checkpointer: saver });
    const triggers = Object.entries(compiled.channels).filter(([name]) => name.startsWith('branch:to:'));
    expect(triggers.length).toBeGreaterThan(0);
    for (const [, channel] of triggers) {
      expect(channel.checkpoint()).toBeUndefined();
      expect(channel.fromCheckpoint(undefined).isAvailable()).toBe(false);
      expect(channel.fromCheckpoint('act').get()).toBe('act');
    }
    await compiled.invoke(initialValues(FIXTURES.twoActions(), 1) as never, { configurable: { thread_id: 't' }, recursionLimit: 100 });
    const [last] = saver.kept('t');
    expect(Object.entries(last.channel_values).filter(([name, value]) => name.startsWith('branch:to:') && value === undefined).length).toBeGreaterThan(0);
  });

  it('does the work: each node streams its writes, the runtime fields that changed, the ledger and its trace step', async () => {
    const updates = await streamUpdates(FIXTURES.twoActions(), 't', new RetainingSaver(), initialValues(FIXTURES.twoActions(), 1));
    expect(updates.map(([name]) => name)).toEqual(['n_plan', 'act', 'check', 'done']);
    const [, act] = updates[1];
    expect(Object.keys(act).sort()).toEqual(['_run', '_step', 'execution_error', 'results', 'steps', 'tokensUsed']);
    expect(Object.keys(updates[2][1]).sort()).toEqual(['_run', '_step', 'evaluation', 'steps']);
    expect((act._step as TraceStep).attempts.map((attempt) => attempt.outcome)).toEqual(['timeout', 'ok', 'ok']);
    expect(act._run).toMatchObject({ step: 2, scripts: { flaky: 2, steady: 1 }, visits: { plan: 1, act: 1 }, outcome: 'ok', stop: null });
    expect(updates[3][1]._run).toMatchObject({ stop: { reason: 'completed' } });
  });

  it('a checkpoint is the whole run: its values, through JSON, continue the run exactly in a new thread', async () => {
    const graph = securityclaw();
    const saver = new RetainingSaver();
    const whole = await streamUpdates(graph, 'whole', saver, initialValues(graph, 1));
    let values: Record<string, unknown> = initialValues(graph, 1);
    for (const [, update] of whole.slice(0, 3)) values = { ...values, ...update };
    const copied = JSON.parse(JSON.stringify(values)) as RunValues;
    expect(copied).toEqual(values);
    const rest = await streamUpdates(graph, 'resumed', saver, copied, 'evaluate');
    const withoutTimes = (updates: typeof whole) => updates.map(([name, update]) => [name, { ...update, _step: { ...(update._step as TraceStep), durationMs: 0 } }]);
    expect(withoutTimes(rest)).toEqual(withoutTimes(whole.slice(3)));
  });

  it('a field nothing has written yet is absent from what nodes, routes and checkpoints give back, not undefined', async () => {
    // The loop's respond node has not run: its response field's channel is empty.
    const controller = createController(FIXTURES.loop(), { compact: true });
    const seen: Record<string, unknown>[] = [];
    await controller.step();
    await controller.step();
    for (const step of [0, 1, 2]) seen.push((await controller.stateAt(step)) as Record<string, unknown>);
    seen.push(controller.state);
    for (const state of seen) {
      expect(Object.keys(state)).not.toContain('response');
      expect(Object.values(state)).not.toContain(undefined);
    }
    expect(presentValues({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
    const whole = { a: 1 };
    expect(presentValues(whole)).toBe(whole);
  });

  it('a guard stop routes to END with the reason in state', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 4;
    const updates = await streamUpdates(graph, 't', new RetainingSaver(), initialValues(graph, 1));
    const last = updates.at(-1)?.[1] as { _run: RunValues['_run']; _step: TraceStep };
    expect(updates).toHaveLength(5);
    expect(last._run.stop).toEqual({ reason: 'max_steps', why: { is: 'guard', hit: { reason: 'max_steps', value: 4, limit: 4 } } });
    expect(stopWords(last._run.stop!)).toBe('steps 4 reached maxSteps 4');
    expect(last._step.guard?.reason).toBe('max_steps');
  });

  it('a new run on a thread that has stopped does not run past the stop', async () => {
    const graph = securityclaw();
    const saver = new RetainingSaver();
    const first = await streamUpdates(graph, 'done', saver, initialValues(graph, 1));
    expect((first.at(-1)?.[1]._run as RunValues['_run'] | undefined)?.stop?.reason).toBe('completed');
    // What a LangGraph server does for `runs.create(thread, …, { input })` on that thread.
    expect(await streamUpdates(graph, 'done', saver, { question: 'and again?' })).toEqual([]);
  });
});
