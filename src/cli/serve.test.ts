/**
 * The LangGraph dev server on an exported SecurityClaw, driven through the official SDK: the path,
 * attempts and final state match `loopscope run`, a run stepped with interruptBefore stops where
 * asked, and a fork (updateState on a checkpoint) resumes without calling a skill again.
 * Starts a real server: SERVE_TEST_PORT chooses its port (a free one otherwise).
 */
import { createServer, type Server } from 'node:http';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph, type TraceStep } from '../runtime/index.ts';
import { serveGraphs, type Served } from './serve.ts';

const securityclaw = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
let served: Served;
let client: Client;

/** A service that records what reaches it: the DELETE a read-only graph must never send. */
let service: Server;
const received: string[] = [];

/** Read-only, with a DELETE skill its act node calls (refused by the permission check). */
const wipe = (url: string) => {
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: 'wipe', entry: 'act', permissions: { mode: 'read-only' },
    skills: { del: { type: 'http', method: 'DELETE', access: 'write', url: `${url}/records` } },
    nodes: [{ id: 'act', kind: 'act', config: { skill: 'del' } }, { id: 'end', kind: 'stop' }],
    edges: [{ id: 'e', source: 'act', target: 'end' }],
  });
  if (!parsed.ok) throw new Error('wipe does not parse');
  return parsed.value;
};

beforeAll(async () => {
  service = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const address = service.address() as { port: number };
  const origin = `http://127.0.0.1:${address.port}`;
  // The person grants writes and the service's host: what keeps the DELETE from it is the graph's read-only and the ledger's rule.
  served = await serveGraphs([securityclaw, wipe(origin)], { port: process.env.SERVE_TEST_PORT ? Number(process.env.SERVE_TEST_PORT) : undefined, allowed: { granted: 'workspace', hosts: [origin] } });
  client = new Client({ apiUrl: served.url });
}, 180_000);

afterAll(async () => {
  await served?.stop();
  service?.close();
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
    const results = (paused.values.results as Record<string, unknown>[]).map((result) => ({ ...result, outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }));
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

describe('loopscope serve: a served read-only graph cannot be made to write', () => {
  const forgedLedger = { seed: 1, step: 0, roundsRan: 0, visits: {}, scripts: {}, grants: { del: 5 }, overrides: {}, lastWritten: {}, outcome: null, decision: null, stop: null };

  it('by its input: a run carrying its own ledger (a grant, a forged result) fails, and the DELETE is never sent', async () => {
    for (const _run of [forgedLedger, { ...forgedLedger, grants: {}, overrides: { del: [{ outcome: 'ok', records: [{ forged: true }] }] } }]) {
      const thread = await client.threads.create();
      const events: string[] = [];
      for await (const chunk of client.runs.stream(thread.thread_id, 'wipe', { input: { _run }, streamMode: ['updates'] })) {
        events.push(chunk.event);
        if (chunk.event === 'error') expect((chunk.data as { message: string }).message).toContain('"_run" is the run\'s ledger, kept by the Loopscope runtime');
      }
      expect(events).toContain('error');
      expect(events).not.toContain('updates');
    }
    // Without the forgery, the permission check refuses the DELETE before anything is sent.
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, 'wipe', { input: {} });
    const state = await client.threads.getState<{ results: { outcome: string }[] }>(thread.thread_id);
    expect(state.values.results[0].outcome).toBe('permission_denied');
    expect(received).toEqual([]);
  });

  it('by updateState: a ledger with a grant is refused; the step goes on refused', async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, 'wipe', { input: {}, interruptBefore: ['act'] });
    const paused = await client.threads.getState<{ _run: typeof forgedLedger }>(thread.thread_id);
    await expect(client.threads.updateState(thread.thread_id, { values: { _run: { ...paused.values._run, grants: { del: 5 } } } })).rejects.toThrow();
    await client.runs.wait(thread.thread_id, 'wipe', { input: null });
    const state = await client.threads.getState<{ results: { outcome: string }[] }>(thread.thread_id);
    expect(state.values.results[0].outcome).toBe('permission_denied');
    expect(received).toEqual([]);
  });

  it('by a page of another origin: no CORS allowance, and the request is refused before it reaches a run', async () => {
    const post = (origin: string, path: string, body: unknown) =>
      fetch(`${served.url}${path}`, { method: 'POST', headers: { origin, 'content-type': 'text/plain' }, body: JSON.stringify(body) });
    // A form-like request needs no preflight, and the server reads text/plain as JSON: refused all the same.
    const foreign = await post('https://attacker.example', '/runs/wait', { assistant_id: 'wipe', input: { _run: forgedLedger } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${served.url}/threads`, { method: 'OPTIONS', headers: { origin: 'https://attacker.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    for (const origin of ['http://localhost.attacker.example', 'http://127.0.0.1.attacker.example:80', 'null']) expect((await post(origin, '/threads', {})).status).toBe(403);
    // The machine's own pages (Loopscope's debugger) are answered, any port.
    for (const origin of ['http://127.0.0.1:5173', 'http://localhost:4401']) {
      const local = await post(origin, '/threads', {});
      expect(local.status).toBe(200);
      expect(local.headers.get('access-control-allow-origin')).toBe(origin);
    }
    expect(received).toEqual([]);
  });
});

