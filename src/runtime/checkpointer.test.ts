import { describe, expect, it } from 'vitest';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { Checkpoint } from '@langchain/langgraph-checkpoint';
import { RetainingSaver } from './checkpointer.ts';
import { createController } from './run.ts';
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
});
