/**
 * The person grants, the file only asks (issue 51): a real call runs only when both the graph's
 * `permissions.mode` and what the person granted (`RunDeps.granted`, read-only when absent) allow
 * it. An approval the file decides (`auto`, `answers`) lifts the graph's mode as before, never the
 * person's grant; a live person's approval lifts both. Mock skills simulate the graph's mode alone.
 */
import { MemorySaver } from '@langchain/langgraph/web';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GraphFile, PermissionMode } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { buildStateGraph } from './compile.ts';
import { createController, runGraph } from './index.ts';

const sent = vi.fn(async () => new Response('[{"id": 1}]'));
const fetchSpy = sent as unknown as typeof fetch;
beforeEach(() => sent.mockClear());

const POST = { type: 'http', method: 'POST', url: 'http://127.0.0.1:9/records', body: '{"q": "x"}' } as const;

/** act (the skill) → done on ok; denied → ask (an approval) → act again. */
const graphOf = (mode: PermissionMode, skill: Record<string, unknown>, approve: Record<string, unknown> = {}): GraphFile => {
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: 'writer', entry: 'act', permissions: { mode }, state: {},
    skills: { post: skill },
    nodes: [
      { id: 'act', kind: 'act', config: { skill: 'post', retry: { maxAttempts: 1 } } },
      { id: 'ask', kind: 'approve', config: approve },
      { id: 'done', kind: 'stop', config: { reason: 'done' } },
      { id: 'halt', kind: 'stop', config: { reason: 'refused' } },
    ],
    edges: [
      { id: 'e1', source: 'act', target: 'ask', when: { outcome: 'denied' } },
      { id: 'e2', source: 'act', target: 'done', when: 'otherwise' },
      { id: 'e3', source: 'ask', target: 'act', when: { outcome: 'approved' } },
      { id: 'e4', source: 'ask', target: 'halt', when: 'otherwise' },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
};

const attemptsOf = (trace: Awaited<ReturnType<typeof runGraph>>) => trace.steps.flatMap((step) => step.attempts);

describe('what runs is what the person granted', () => {
  it('a real write in a graph that asks for workspace, with no grant, is permission_denied and nothing is sent', async () => {
    const trace = await runGraph(graphOf('workspace', POST, { auto: 'deny' }), { fetch: fetchSpy });
    expect(sent).not.toHaveBeenCalled();
    const [denied] = attemptsOf(trace);
    expect(denied).toMatchObject({ skill: 'post', outcome: 'permission_denied' });
    expect(denied.error).toContain('the person granted read-only, which does not allow write access');
    expect(denied.error).toContain('loopscope run --grant workspace');
    expect(denied.retry).toContain('the person granted read-only, not workspace');
  });

  it('granted workspace, the same write is sent; granted more than the graph asks, the graph\'s mode still refuses', async () => {
    const trace = await runGraph(graphOf('workspace', POST), { fetch: fetchSpy, granted: 'workspace' });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(attemptsOf(trace)[0]).toMatchObject({ outcome: 'ok' });
    const readOnly = await runGraph(graphOf('read-only', POST, { auto: 'deny' }), { fetch: fetchSpy, granted: 'full' });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(attemptsOf(readOnly)[0]).toMatchObject({ outcome: 'permission_denied', error: 'read-only mode does not allow write access' });
  });

  it('the file\'s `auto: approve` lifts the graph\'s mode, never the person\'s grant', async () => {
    const trace = await runGraph(graphOf('read-only', POST, { auto: 'approve' }), { fetch: fetchSpy });
    expect(sent).not.toHaveBeenCalled();
    const attempts = attemptsOf(trace);
    expect(attempts.length).toBeGreaterThan(1);
    expect(attempts.every((attempt) => attempt.outcome === 'permission_denied')).toBe(true);
    // After the file's own approval, the refusal says it was the person's grant, not the graph's mode.
    expect(attempts[1].error).toContain('the person granted read-only');
    expect(attempts[1].retry).toContain('not the file\'s auto or answers');
    // With the person's grant, the file's approval lifts the graph's read-only once, as it always did.
    const granted = await runGraph(graphOf('read-only', POST, { auto: 'approve' }), { fetch: fetchSpy, granted: 'workspace' });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(granted.stopReason).toBe('done');
  });

  it('the file\'s `answers` cannot lift the person\'s grant either', async () => {
    await runGraph(graphOf('workspace', POST, { answers: ['approved', 'approved'] }), { fetch: fetchSpy });
    expect(sent).not.toHaveBeenCalled();
  });

  it('a live person\'s approval lifts it once', async () => {
    const controller = createController(graphOf('workspace', POST), { fetch: fetchSpy, compact: true });
    await controller.run();
    expect(controller.session.pending).toMatchObject({ node: 'ask', skill: 'post' });
    expect(sent).not.toHaveBeenCalled();
    controller.decide('approved');
    await controller.run();
    expect(sent).toHaveBeenCalledTimes(1);
    expect(controller.trace.stopReason).toBe('done');
  });

  it('a person\'s approval of a real call covers its in-place retries; the file\'s approval still lifts no attempt of it (issue 54, #3)', async () => {
    const flaky = vi.fn(async () => (flaky.mock.calls.length === 1 ? new Response('busy', { status: 500 }) : new Response('[{"id": 1}]')));
    const graph = graphOf('workspace', POST);
    const act = graph.nodes.find((node) => node.id === 'act');
    if (act?.kind !== 'act') throw new Error('no act node');
    act.config.retry = { maxAttempts: 3, retryOn: ['error'] };
    const controller = createController(graph, { fetch: flaky as unknown as typeof fetch, compact: true });
    await controller.run();
    controller.decide('approved');
    await controller.run();
    expect(flaky).toHaveBeenCalledTimes(2);
    expect(controller.trace.steps.at(-2)?.attempts.map((attempt) => attempt.outcome)).toEqual(['error', 'ok']);
    expect(controller.trace.stopReason).toBe('done');
    const byFile = graphOf('workspace', POST, { answers: ['approved'] });
    const fileAct = byFile.nodes.find((node) => node.id === 'act');
    if (fileAct?.kind !== 'act') throw new Error('no act node');
    fileAct.config.retry = { maxAttempts: 3, retryOn: ['error'] };
    flaky.mockClear();
    await runGraph(byFile, { fetch: flaky as unknown as typeof fetch });
    expect(flaky).not.toHaveBeenCalled();
  });

  it('mock skills simulate the graph\'s mode exactly as before, whatever is granted', async () => {
    const mock = { type: 'mock', access: 'write', script: [{ outcome: 'ok', records: [{ id: 1 }] }] };
    expect(attemptsOf(await runGraph(graphOf('workspace', mock)))[0]).toMatchObject({ outcome: 'ok' });
    expect(attemptsOf(await runGraph(graphOf('read-only', mock, { auto: 'approve' })))).toMatchObject([{ outcome: 'permission_denied' }, { outcome: 'ok' }]);
  });

  it('a served graph takes its grant from its server, not from a client\'s run config', async () => {
    const graph = graphOf('workspace', POST, { auto: 'deny' });
    const compiled = buildStateGraph(graph, { fetch: fetchSpy }, { served: true }).compile({ checkpointer: new MemorySaver() });
    await compiled.invoke({}, { configurable: { thread_id: 't', loopscope: { granted: 'full' } } });
    expect(sent).not.toHaveBeenCalled();
  });
});

describe('a served graph\'s run config from a client', () => {
  it('cannot replace the server\'s fetch, keys or MCP servers: a null fetch does not reach the global fetch', async () => {
    const global = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('[{"id": 1}]'));
    try {
      const graph = graphOf('read-only', { type: 'http', method: 'GET', url: 'http://127.0.0.1:9/records' });
      // The server's fetch, as LOOPSCOPE_HOSTS makes it: no host allowed, so nothing is sent.
      const refusing = (async () => Promise.reject(new Error('not allowed'))) as unknown as typeof fetch;
      const compiled = buildStateGraph(graph, { fetch: refusing }, { served: true }).compile({ checkpointer: new MemorySaver() });
      await compiled.invoke({}, { configurable: { thread_id: 't', loopscope: { fetch: null, keys: null, mcp: null } } });
      expect(global).not.toHaveBeenCalled();
    } finally {
      global.mockRestore();
    }
  });
});
