import { describe, expect, it } from 'vitest';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { Checkpoint } from '@langchain/langgraph-checkpoint';
import { RetainingSaver } from './checkpointer.ts';
import { buildStateGraph, nodeNames, recursionLimitOf } from './compile.ts';
import { createController } from './run.ts';
import { channelNames, initialValues, type RunValues } from './state.ts';
import { FIXTURES } from './fixtures/index.ts';

const thread = { configurable: { thread_id: 't', checkpoint_ns: '' } };

/** Puts checkpoints at LangGraph steps 0..count-1, each the child of the one before. */
const putSteps = async (saver: RetainingSaver, count: number) => {
  let config: RunnableConfig = thread;
  for (let step = 0; step < count; step += 1) {
    const checkpoint: Checkpoint = { v: 4, id: `id-${String(step).padStart(6, '0')}`, ts: '', channel_values: { n: step }, channel_versions: {}, versions_seen: {} };
    config = await saver.put(config, checkpoint, { source: 'loop', step, parents: {} });
  }
};

const stepsKept = (saver: RetainingSaver) => saver.kept('t').map((checkpoint) => checkpoint.channel_values.n as number).reverse();

describe('the retaining checkpointer', () => {
  it('keeps the newest checkpoints and keyframes, and serves the newest as the thread’s latest', async () => {
    const saver = new RetainingSaver({ keepNewest: 3, keyframeEvery: 4, maxKeyframes: 10 });
    await putSteps(saver, 14);
    expect(stepsKept(saver)).toEqual([0, 4, 8, 11, 12, 13]);
    expect((await saver.getTuple(thread))?.checkpoint.channel_values.n).toBe(13);
    expect((await saver.getTuple({ configurable: { ...thread.configurable, checkpoint_id: 'id-000004' } }))?.parentConfig?.configurable?.checkpoint_id).toBe('id-000003');
    expect(await saver.getTuple({ configurable: { ...thread.configurable, checkpoint_id: 'id-000005' } })).toBeUndefined();
  });

  it('spaces its keyframes wider as they pile up, so a long thread holds a bounded number', async () => {
    const saver = new RetainingSaver({ keepNewest: 2, keyframeEvery: 1, maxKeyframes: 4 });
    await putSteps(saver, 40);
    expect(stepsKept(saver)).toEqual([0, 16, 32, 38, 39]);
    await putSteps(saver, 400);
    expect(saver.size).toBeLessThanOrEqual(2 + 4);
  });

  it('holds pending writes with their checkpoint, in LangGraph’s order', async () => {
    const saver = new RetainingSaver();
    await putSteps(saver, 1);
    const at = { configurable: { ...thread.configurable, checkpoint_id: 'id-000000' } };
    await saver.putWrites(at, [['b', 2]], 'task-b', 'path-2');
    await saver.putWrites(at, [['a', 1]], 'task-a', 'path-1');
    await saver.putWrites(at, [['a', 9]], 'task-a', 'path-1');
    expect((await saver.getTuple(at))?.pendingWrites).toEqual([['task-a', 'a', 1], ['task-b', 'b', 2]]);
  });

  it('a long run keeps a bounded number of checkpoints, and its latest state still reads', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 120;
    const controller = createController(graph, { headless: true, keepSteps: false, record: false, retention: { keepNewest: 8, keyframeEvery: 16, maxKeyframes: 8 } });
    await controller.run();
    expect(controller.trace.stopReason).toBe('max_steps');
    expect(await controller.stateAt(120)).toMatchObject({ steps: 120 });
    expect(await controller.stateAt(119)).toMatchObject({ steps: 119 });
    // Without a journal, a dropped checkpoint cannot be rebuilt.
    expect(await controller.stateAt(7)).toBeNull();
  }, 20_000);

  it('keeps what each checkpoint wrote of the run’s channels as the journal, and answers the state after any step from it', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 40;
    const saver = new RetainingSaver({ keepNewest: 2, keyframeEvery: 1000, maxKeyframes: 1 }, { channels: channelNames(graph), keepWrites: true });
    // A fixed clock: the two runs below record the same steps.
    const config = { configurable: { thread_id: 'run-1', loopscope: { now: () => 0 } } };
    const compiled = buildStateGraph(graph).compile({ checkpointer: saver });
    await compiled.invoke(initialValues(graph, 1) as never, { ...config, recursionLimit: recursionLimitOf(graph) });
    const journal = saver.journal('run-1');
    // The input whole, then one entry a node: its writes, and never LangGraph's trigger channels.
    expect(journal[0]).toEqual({ step: 0, update: initialValues(graph, 1) });
    const latest = (await compiled.getState(config)).values as RunValues;
    const last = latest._run.step;
    expect(last).toBeGreaterThan(39);
    expect(journal.slice(1).map((entry) => entry.step)).toEqual(Array.from({ length: last }, (_, index) => index + 1));
    expect(journal.every((entry) => Object.keys(entry.update).every((channel) => channelNames(graph).includes(channel)))).toBe(true);
    // Three checkpoints kept (the two newest, the keyframe at LangGraph's step 0): every other step is the journal replayed.
    expect(saver.size).toBe(3);
    // The same run with every checkpoint kept reads each step from its own checkpoint.
    const everything = new RetainingSaver({ keepNewest: 1000 }, { channels: channelNames(graph), keepWrites: false });
    await buildStateGraph(graph).compile({ checkpointer: everything }).invoke(initialValues(graph, 1) as never, { ...config, recursionLimit: recursionLimitOf(graph) });
    for (const step of [0, 1, 17, 39]) expect(saver.valuesAt('run-1', step, latest)).toEqual(everything.valuesAt('run-1', step, latest));
    // The newest step is the saver's own: the values its newest checkpoint holds, however the run stands.
    expect(saver.latest('run-1')).toEqual(latest);
    expect(saver.valuesAt('run-1', last, initialValues(graph, 1))).toBe(saver.latest('run-1'));
    // An edit without the ledger is recorded at the step the run is at.
    await compiled.updateState(config, { round: 99 }, nodeNames(graph).get(latest._step?.node as string));
    expect(saver.journal('run-1').at(-1)).toEqual({ step: last, update: { round: 99 } });
  }, 20_000);

  it('answers the values a step wrote before its checkpoint is put, and the step before from its checkpoint', async () => {
    // LangGraph hands the saver a node's writes, streams them, and only then puts the checkpoint after them.
    const saver = new RetainingSaver({}, { channels: ['n', '_run', '_step'], keepWrites: false });
    const ledger = (step: number) => ({ step }) as RunValues['_run'];
    const checkpoint: Checkpoint = { v: 4, id: 'id-000001', ts: '', channel_values: { n: 1, _run: ledger(1), _step: null, branch: 'x' }, channel_versions: {}, versions_seen: {} };
    const config = await saver.put(thread, checkpoint, { source: 'loop', step: 1, parents: {} });
    expect(saver.latest('t')).toEqual({ n: 1, _run: ledger(1), _step: null });
    await saver.putWrites(config, [['n', 2], ['_run', ledger(2)], ['branch:to:b', null]], 'task');
    expect(saver.latest('t')).toEqual({ n: 2, _run: ledger(2), _step: null });
    expect(saver.valuesAt('t', 2, initialValues(FIXTURES.loop(), 1))).toBe(saver.latest('t'));
    expect(saver.valuesAt('t', 1, initialValues(FIXTURES.loop(), 1))).toEqual({ n: 1, _run: ledger(1), _step: null });
    // A thread with no checkpoint yet holds no values: its run reads the values it starts from.
    expect(saver.latest('none')).toBeUndefined();
  });

  it('keeps no journal when told not to: its memory is the retention policy’s alone', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 10;
    const saver = new RetainingSaver({}, { channels: channelNames(graph), keepWrites: false });
    await buildStateGraph(graph).compile({ checkpointer: saver }).invoke(initialValues(graph, 1) as never, { configurable: { thread_id: 't' }, recursionLimit: recursionLimitOf(graph) });
    expect(saver.journal('t')).toEqual([]);
  });
});
