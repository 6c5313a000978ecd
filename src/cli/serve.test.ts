/**
 * The LangGraph dev server on an exported SecurityClaw, driven through the official SDK: the path,
 * attempts and final state match `loopscope run`, a run stepped with interruptBefore stops where
 * asked, and a fork (updateState on a checkpoint) resumes without calling a skill again.
 * Starts a real server: SERVE_TEST_PORT chooses its port (a free one otherwise).
 */
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph, type TraceStep } from '../runtime/index.ts';
import { serveGraphs, type Served } from './serve.ts';

const securityclaw = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
let served: Served;
let client: Client;

beforeAll(async () => {
  served = await serveGraphs([securityclaw], { port: process.env.SERVE_TEST_PORT ? Number(process.env.SERVE_TEST_PORT) : undefined });
  client = new Client({ apiUrl: served.url });
}, 180_000);

afterAll(async () => {
  await served?.stop();
});

type Values = { _step: TraceStep | null; _run: { stop: { reason: string } | null; step: number; scripts: Record<string, number> } } & Record<string, unknown>;

describe('loopscope serve: SecurityClaw on the LangGraph server', () => {
  it('serves the graph under its id; a thread run through the SDK takes the path, attempts and final state of loopscope run', async () => {
    const assistants = await client.assistants.search({ graphId: 'securityclaw-triage' });
    expect(assistants).toHaveLength(1);
    const local = await runGraph(securityclaw, { seed: 1, compact: true });
    const thread = await client.threads.create();
    const path: string[] = [];
    const attempts: unknown[] = [];
    for await (const chunk of client.runs.stream(thread.thread_id, 'securityclaw-triage', { input: {}, streamMode: ['updates', 'custom'] })) {
      if (chunk.event === 'updates') path.push(...Object.keys(chunk.data as object));
      if (chunk.event === 'custom') attempts.push((chunk.data as { attempt: unknown }).attempt);
      expect(chunk.event).not.toBe('error');
    }
    expect(path).toEqual(local.steps.map((step) => step.node));
    expect(attempts).toEqual(local.steps.flatMap((step) => step.attempts));
    const state = await client.threads.getState<Values>(thread.thread_id);
    expect(state.values._run.stop?.reason).toBe(local.stopReason);
    expect(state.values.response).toEqual(local.finalState.response);
    // The checkpoints carry the trace steps, with the edges tried and why: a page of history is a page of the timeline.
    const page = await client.threads.getHistory<Values>(thread.thread_id, { limit: 3 });
    expect(page.map((checkpoint) => checkpoint.values._step?.step)).toEqual([8, 7, 6]);
    const { durationMs: _, ...evaluate } = page[1].values._step as TraceStep;
    const { durationMs: __, ...localEvaluate } = local.steps[6];
    expect(evaluate).toEqual(localEvaluate);
  });

  it('steps with interruptBefore, then forks a checkpoint with updateState: the fork runs on without calling a skill again', async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, 'securityclaw-triage', { input: {}, interruptBefore: ['evaluate'] });
    const paused = await client.threads.getState<Values>(thread.thread_id);
    expect(paused.next).toEqual(['evaluate']);
    expect(paused.values._step?.node).toBe('execute');
    // Fork: the step-2 checkpoint with evaluate's input changed, resumed on.
    const results = (paused.values.results as Record<string, unknown>[]).map((result) => ({ ...result, outcome: 'ok', records: [{ ip: '10.0.0.5' }] }));
    await client.threads.updateState(thread.thread_id, { values: { results }, checkpointId: paused.checkpoint.checkpoint_id ?? undefined, asNode: 'execute' });
    const path: string[] = [];
    for await (const chunk of client.runs.stream(thread.thread_id, 'securityclaw-triage', { input: null, streamMode: ['updates'] }))
      if (chunk.event === 'updates') path.push(...Object.keys(chunk.data as object));
    const after = await client.threads.getState<Values>(thread.thread_id);
    expect(path).toEqual(['evaluate', 'answer']);
    expect(after.values._run.stop?.reason).toBe('completed');
    expect(after.values._run).toMatchObject({ scripts: paused.values._run.scripts });
    expect((after.values._step as TraceStep).attempts).toEqual([]);
  });
});
