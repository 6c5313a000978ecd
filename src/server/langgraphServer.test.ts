import { afterEach, describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { useApp } from '../store/index.ts';
import { inProcessServer } from './inProcessServer.testing.ts';
import { cappedFetch, disconnect, LIST_PAGE, MAX_GRAPHS, MAX_THREADS, serverConnection, serverOrigin, standInFor, useServer, type Client } from './langgraphServer.ts';
import { connect } from './serverRun.ts';

describe('attaching to a LangGraph server', () => {
  it('takes the origin of an http(s) address only', () => {
    expect(serverOrigin(' http://127.0.0.1:2024/docs ')).toEqual({ origin: 'http://127.0.0.1:2024' });
    expect(serverOrigin('javascript:alert(1)')).toMatchObject({ error: expect.stringContaining('not an http(s) address') });
    expect(serverOrigin('127.0.0.1:2024')).toMatchObject({ error: expect.any(String) });
  });

  it("stands a graph Loopscope did not make in the library as a valid graph of its name with no nodes of Loopscope's", () => {
    const graph = standInFor({ graphId: 'react-agent', assistantId: 'a1' }, 'http://127.0.0.1:2024');
    expect(graph).toMatchObject({ name: 'react-agent (from http://127.0.0.1:2024)', nodes: [], edges: [] });
    expect(graph.description).toContain('http://127.0.0.1:2024');
    expect(parseGraph(JSON.parse(JSON.stringify(graph))).ok).toBe(true);
  });

  it('Cancel stops a Connect from its first moment, while the SDK still loads (a click then was lost), and says so', async () => {
    const connecting = connect('http://127.0.0.1:9');
    expect(useServer.getState().connecting).toBe(true);
    useServer.getState().cancelConnecting?.();
    expect(await connecting).toBeNull();
    expect(useServer.getState()).toMatchObject({ connecting: false, cancelConnecting: null, error: 'Not connected: Connect was cancelled' });
    expect(serverConnection()).toBeNull();
    disconnect();
  });
});

/** A hostile server's answers (issue 51): lists far longer than asked for, counted request by request. */
const hostileServer = (options: { assistants: number; threads: number; honoursPaging: boolean; carried?: Record<string, unknown> }) => {
  const asked = { assistants: 0, graphs: 0, threads: 0 };
  const page = <T>(all: number, make: (index: number) => T, request: { limit?: number; offset?: number }) => {
    const from = options.honoursPaging ? (request.offset ?? 0) : 0;
    const to = options.honoursPaging ? Math.min(all, from + (request.limit ?? 10)) : all;
    return Array.from({ length: Math.max(0, to - from) }, (_, index) => make(from + index));
  };
  const client = {
    assistants: {
      search: async (request: { limit?: number; offset?: number }) => {
        asked.assistants += 1;
        return page(options.assistants, (index) => ({ assistant_id: `a${index}`, graph_id: index === 0 && options.carried ? 'my-graph' : `g${index}` }), request);
      },
      getGraph: async () => {
        asked.graphs += 1;
        return { nodes: [{ id: '__start__', metadata: options.carried ? { loopscope_graph: options.carried } : null }, { id: 'work' }, { id: '__end__' }], edges: [{ source: '__start__', target: 'work' }, { source: 'work', target: '__end__' }] };
      },
    },
    threads: {
      search: async (request: { limit?: number; offset?: number }) => {
        asked.threads += 1;
        return page(options.threads, (index) => ({ thread_id: `thread-${String(index).padStart(6, '0')}`, status: 'idle', updated_at: new Date(0).toISOString() }), request);
      },
    },
  };
  return { client: client as unknown as Client, asked };
};

describe('a hostile server\'s long lists', () => {
  afterEach(() => {
    disconnect();
    useApp.getState().reset();
  });

  it('5,000 assistants in one answer: a page of each answer kept, MAX_GRAPHS at most, and one graph request (the selected graph\'s)', async () => {
    const { client, asked } = hostileServer({ assistants: 5_000, threads: 20_000, honoursPaging: false });
    const controller = await connect('http://hostile.test', client);
    expect(controller).not.toBeNull();
    const state = useServer.getState();
    // The server sends the same 5,000 to every page: the second page brings nothing new, and reading stops.
    expect(state.graphs).toHaveLength(LIST_PAGE);
    expect(asked.assistants).toBe(2);
    expect(asked.graphs).toBe(1);
    expect(state.graphs.filter((graph) => graph.described).map((graph) => graph.graphId)).toEqual(['g0']);
    // 20,000 threads in one answer: one page of them is listed.
    expect(state.threads).toHaveLength(LIST_PAGE);
    expect(state.moreThreads).toBe(true);
    await controller?.connection.showMoreThreads();
    expect(useServer.getState()).toMatchObject({ moreThreads: false, threadsCapped: false });
    expect(useServer.getState().threads).toHaveLength(LIST_PAGE);
    expect(asked.threads).toBe(2);
    // Another graph is described when it is selected, not before.
    await controller?.connection.selectGraph('g7');
    expect(asked.graphs).toBe(2);
  });

  it('a server that pages honestly: graphs to MAX_GRAPHS and threads a page at a time to MAX_THREADS, each bound said', async () => {
    const { client, asked } = hostileServer({ assistants: 5_000, threads: 20_000, honoursPaging: true });
    const controller = await connect('http://hostile.test', client);
    expect(useServer.getState()).toMatchObject({ graphsCapped: true, moreThreads: true, threadsCapped: false });
    expect(useServer.getState().graphs).toHaveLength(MAX_GRAPHS);
    expect(asked).toEqual({ assistants: MAX_GRAPHS / LIST_PAGE, graphs: 1, threads: 1 });
    while (useServer.getState().moreThreads) await controller?.connection.showMoreThreads();
    expect(useServer.getState().threads).toHaveLength(MAX_THREADS);
    expect(new Set(useServer.getState().threads.map((thread) => thread.id)).size).toBe(MAX_THREADS);
    expect(useServer.getState()).toMatchObject({ moreThreads: false, threadsCapped: true });
    expect(asked.threads).toBe(MAX_THREADS / LIST_PAGE);
    await controller?.connection.refreshThreads();
    expect(useServer.getState()).toMatchObject({ moreThreads: true, threadsCapped: false });
    expect(useServer.getState().threads).toHaveLength(LIST_PAGE);
  });

  it('reads at most MAX_ANSWER_BYTES of one answer, naming the request; of a run\'s event stream, of each event', async () => {
    const big = new Uint8Array(1024);
    const answer = (headers: Record<string, string>) => async () => new Response(new ReadableStream({
      pull: (stream) => stream.enqueue(big),
    }), { headers });
    const capped = cappedFetch(answer({ 'content-type': 'application/json' }), 10 * 1024);
    const response = await capped('http://hostile.test/threads/search', { method: 'POST' });
    await expect(response.json()).rejects.toThrow('the server at http://hostile.test answered /threads/search with more than');
    await expect(cappedFetch(async () => new Response('[]', { headers: { 'content-length': String(64 * 1024 * 1024) } }))('http://hostile.test/assistants/search')).rejects.toThrow('Loopscope reads at most 32 MB of one answer');
    // Events of 1 KB each: the stream goes on past the bound.
    const event = new TextEncoder().encode(`event: values\r\ndata: ${'x'.repeat(1000)}\r\n\r\n`);
    const events = async () => new Response(new ReadableStream({ pull: (stream) => stream.enqueue(event) }), { headers: { 'content-type': 'text/event-stream' } });
    const stream = await cappedFetch(events, 10 * 1024)('http://hostile.test/threads/t/runs/stream');
    const reader = stream.body?.getReader();
    let read = 0;
    while (read <= 20 * 1024) read += (await reader?.read())?.value?.byteLength ?? 0;
    await reader?.cancel();
    // One event that never ends is cut at the bound.
    const endless = await cappedFetch(answer({ 'content-type': 'text/event-stream' }), 10 * 1024)('http://hostile.test/threads/t/runs/stream');
    await expect(endless.text()).rejects.toThrow('the server at http://hostile.test answered /threads/t/runs/stream with more than');
  });
});

describe('a server\'s graph never passes for the person\'s own', () => {
  afterEach(() => {
    disconnect();
    useApp.getState().reset();
  });

  const mine = (): GraphFile => {
    const parsed = parseGraph({ format: 'loopscope/graph', version: 1, name: 'My graph', entry: 'a', nodes: [{ id: 'a', kind: 'respond', position: { x: 0, y: 0 } }], edges: [] });
    if (!parsed.ok) throw new Error('not a graph');
    return parsed.value;
  };

  it('a graph the server names like the open file opens beside it, named with its server; the person\'s stays under its own id', async () => {
    useApp.getState().load(mine());
    const own = useApp.getState().documentId;
    const evil = { ...mine(), permissions: { mode: 'workspace' }, description: 'not yours' };
    await connect('http://hostile.test', hostileServer({ assistants: 1, threads: 0, honoursPaging: true, carried: evil }).client);
    expect(useServer.getState().graphId).toBe('my-graph');
    const app = useApp.getState();
    expect(app.documentId).not.toBe(own);
    expect(app.graph.name).toBe('My graph (from http://hostile.test)');
    expect(app.graph.permissions.mode).toBe('workspace');
  });

  it('the person\'s own graph, exported to the server, stays on screen as it is', async () => {
    useApp.getState().load(mine());
    const own = useApp.getState().documentId;
    await connect('http://hostile.test', hostileServer({ assistants: 1, threads: 0, honoursPaging: true, carried: JSON.parse(JSON.stringify(mine())) as Record<string, unknown> }).client);
    expect(useApp.getState().documentId).toBe(own);
    expect(useApp.getState().graph.name).toBe('My graph');
  });

  it('a graph Loopscope did not make stands in the library named with its server', async () => {
    await connect('http://hostile.test', hostileServer({ assistants: 1, threads: 0, honoursPaging: true }).client);
    expect(useApp.getState().graph.name).toBe('g0 (from http://hostile.test)');
    expect(useApp.getState().foreign).toEqual({ origin: 'http://hostile.test', assistantId: 'a0' });
  });
});

describe('a fork of a graph Loopscope did not make', () => {
  afterEach(disconnect);

  it("edits what the step's node wrote, written as that node where it ran from: a concat reducer applies it once, and the branch it came from stays a run of its own", async () => {
    const controller = await connect('http://server.test', inProcessServer().client);
    if (!controller) throw new Error('not connected');
    await controller.startRun({});
    expect(controller.trace.steps.map((step) => step.node)).toEqual(['first', 'second']);
    expect(controller.trace.finalState.visited).toEqual(['first', 'second']);
    // What `second` returned, not the state after it.
    expect(await controller.ownWritesAt(2)).toEqual({ count: 2, visited: ['second'] });
    const forked = await controller.fork(2, { state: { count: 2, visited: ['edited'] } });
    expect(forked).toBe(controller);
    await controller.run();
    expect(controller.trace.finalState.visited).toEqual(['first', 'edited']);
    expect(controller.trace.steps.map((step) => [step.node, step.server?.edit ?? false])).toEqual([['first', false], ['second', true]]);
    // Two branches part where step 2 ran from; the first, as it ran, is kept as a run of its own.
    const parent = controller.trace.steps[1].server?.parentCheckpoint as string;
    expect(useServer.getState().thread?.branch?.forks[parent]?.map((branch) => branch.edited)).toEqual([false, true]);
    const kept = useApp.getState().runs.find((run) => run.server?.includes(' @'));
    expect(kept?.trace.finalState.visited).toEqual(['first', 'second']);
    await controller.showBranch(useServer.getState().thread?.branch?.forks[parent]?.[0].head as string);
    expect(controller.trace.finalState.visited).toEqual(['first', 'second']);
    expect(useServer.getState().thread?.branch?.newest).toBe(false);
  });
});

describe('the connection and its run', () => {
  afterEach(() => disconnect());

  it('are two: the state the panels read holds plain data only, and the run is the executor the contract drives', async () => {
    const run = await connect('http://server.test', inProcessServer().client);
    if (!run) throw new Error('not connected');
    // Nothing but data and the Cancel callback: no class instance rides in the zustand store.
    const values = Object.values(useServer.getState()).filter((value) => typeof value === 'object' && value !== null && !Array.isArray(value));
    expect(values.every((value) => Object.getPrototypeOf(value) === Object.prototype)).toBe(true);
    expect(run.connection).toBe(serverConnection());
    await run.step();
    expect(run.session.status).toBe('paused');
  });
});
