/**
 * The connection to a LangGraph server (`loopscope serve`, `langgraphjs dev`, a deployment): its
 * graphs (assistants) and threads, listed in the connection's state (`useServer`), where the
 * panels read them. A graph Loopscope exported carries its graph file and opens on the editor's
 * canvas; any other graph is drawn from the server's own description (SPEC §8).
 *
 * One `Connection` at a time, held here (the state keeps plain data only): it owns the SDK client.
 * The open thread's run — read from its checkpoints, followed live, stepped, resumed, forked and
 * approved — is its run (`serverRun.ts`), the executor behind the same `RunController` contract as
 * a run in the page. Connecting is the person's explicit choice of one URL: every request goes to
 * that origin only, with no key. The SDK loads when the person connects.
 */
import { create } from 'zustand';
import { blankGraph, graphIdOf, type GraphFile } from '../graph/index.ts';
import { boundedResponse } from '../graph/bytes.ts';
import { originOf } from '../graph/hosts.ts';
import { visibleText } from '../graph/visible.ts';
import { parseGraph } from '../graph/parse.ts';
import type { ServerDrawing } from '../runtime/serverGraph.ts';
import type { Branch } from '../runtime/serverFork.ts';
import { fetchOnlyTo } from '../skills/net.ts';
import { foreignDocumentId, useApp } from '../store/index.ts';

type Sdk = typeof import('@langchain/langgraph-sdk');
/** The SDK's client; tests hand `connect` one that answers as a server would. */
export type Client = InstanceType<Sdk['Client']>;

/** How long Connect waits for the server to list its graphs. */
export const CONNECT_TIMEOUT_MS = 15_000;
/**
 * Graphs (assistants) and threads asked for per request: a list is read a page at a time, and no
 * more of an answer is kept than was asked for (a hostile server answered 20,000 threads at once).
 */
export const LIST_PAGE = 50;
/** Graphs listed at most, read at Connect; the panel says when the server has more. */
export const MAX_GRAPHS = 200;
/** Threads of a graph listed at most, a page at a time as the person asks for more. */
export const MAX_THREADS = 500;
/** The most of one answer read (a run's event stream excepted): parsing a giant one would freeze the page. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface ServerGraph {
  assistantId: string;
  graphId: string;
  /** The assistant as the server names it, its version, and the config its runs get (several assistants may run one graph). */
  name: string;
  version: number | null;
  config: Record<string, unknown>;
  /** The assistant the server made for the graph itself (`metadata.created_by: "system"`): the graph's default. */
  isDefault: boolean;
  /**
   * Whether the server's description of the graph was read: only the selected graph's is (one
   * request), never one per graph listed.
   */
  described: boolean;
  /** The graph file, when the server's graph is a Loopscope export (it rides on the entry node's metadata). */
  loopscope: GraphFile | null;
  /** The server's own drawing of the graph (any graph but a Loopscope export), or why it cannot be drawn. */
  drawing: ServerDrawing | null;
  drawingError: string | null;
  /**
   * The graph's input schema (JSON Schema, from `/assistants/{id}/schemas`), read when a graph drawn
   * from the server is selected: null until the server answered, or why it gave none.
   */
  inputSchema: { schema: unknown } | { error: string } | null;
}

export interface ServerThread {
  id: string;
  status: string;
  updatedAt: string;
}

/** An `interrupt(value)` a thread waits on. */
export interface WaitingInterrupt {
  node: string;
  value: unknown;
}

export interface ServerConnection {
  url: string | null;
  connecting: boolean;
  /** Cancels the Connect under way (Cancel), from its first moment, while the SDK may still be loading. */
  cancelConnecting: (() => void) | null;
  error: string | null;
  graphs: ServerGraph[];
  /** The server lists more graphs than MAX_GRAPHS: the panel shows the first ones and says so. */
  graphsCapped: boolean;
  graphId: string | null;
  /** The assistant chosen among the graph's (the server's default one first). */
  assistantId: string | null;
  threads: ServerThread[];
  /** The last page of threads was full: the server may have more (Show more threads). */
  moreThreads: boolean;
  /** MAX_THREADS are listed and the server may have more: the panel says so. */
  threadsCapped: boolean;
  /** The thread on screen, with where it stands. */
  thread: {
    id: string; next: string[]; busy: boolean; truncated: boolean; joined?: string; interrupts: WaitingInterrupt[]; failed?: string; branch?: ShownBranch; answers?: Record<string, unknown>;
    /** A run joined from elsewhere whose `events` the server did not stream: why its routes, attempts and Send inputs are not shown. */
    untold?: string;
  } | null;
  /** What runs on this connection, while connected or connecting. */
  canvas: { origin: string; assistantId: string; graphId: string; drawing: ServerDrawing; documentId: string } | null;
  /** Nodes a run on the server pauses before (interruptBefore), for a graph drawn from the server. */
  breakpoints: string[];
  /** What the last fork of a graph drawn from the server did not do as asked (a goto a routing function overrode, a run that ends after the edit). */
  forkNote: string | null;
}

/**
 * The branch of the open thread on screen: its newest checkpoint (`head`), whether it is the
 * thread's newest branch, and the branches that part where its steps ran from (by that checkpoint).
 */
export interface ShownBranch {
  head: string;
  newest: boolean;
  forks: Record<string, Branch[]>;
}

/** What a new connection, or none, starts from. */
const NOT_CONNECTED = {
  url: null, connecting: false, cancelConnecting: null, error: null, graphs: [], graphsCapped: false, graphId: null, assistantId: null, threads: [], moreThreads: false, threadsCapped: false, thread: null, canvas: null, breakpoints: [], forkNote: null,
} satisfies ServerConnection;

export const useServer = create<ServerConnection>()(() => NOT_CONNECTED);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The origin of what the person typed, or why it is not a server address. */
export const serverOrigin = (text: string): { origin: string } | { error: string } => {
  const origin = originOf(text.trim());
  if (!origin || !/^https?:$/.test(new URL(origin).protocol)) return { error: `"${text}" is not an http(s) address, e.g. http://127.0.0.1:2024` };
  return { origin };
};

const GRAPH_KEY = 'loopscope_graph';

/**
 * A name the server gave, as the page shows it: with the server it came from, so that no graph of
 * a server can pass for the person's own (one named like the open file included).
 */
const fromServer = (name: string, origin: string) => `${name} (from ${origin})`;

/**
 * A server graph Loopscope did not make stands in the library as a graph with no nodes of its own,
 * named after it and its server: the canvas draws the server's description in its place while attached.
 */
export const standInFor = (graph: Pick<ServerGraph, 'graphId' | 'assistantId'>, origin: string): GraphFile => ({
  ...blankGraph(),
  name: fromServer(graph.graphId, origin),
  description: `A graph on the LangGraph server at ${origin} (assistant ${graph.assistantId}). Loopscope draws it from the server's description while connected; it has no Loopscope nodes.`,
});

/**
 * A Loopscope export the server carries, as it opens in the page: a graph of its own in the library,
 * named with its server, never in place of the person's (the server's file may say any name).
 */
export const serverCopy = (graph: GraphFile, origin: string): GraphFile => ({ ...graph, name: fromServer(graph.name, origin) });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** An assistant of the server's answer as a graph not yet described, or null when it is not one. */
const graphOf = (item: unknown): ServerGraph | null =>
  isObject(item) && typeof item.assistant_id === 'string' && typeof item.graph_id === 'string'
    ? {
        assistantId: item.assistant_id, graphId: item.graph_id, name: typeof item.name === 'string' ? item.name : item.graph_id,
        version: typeof item.version === 'number' ? item.version : null, config: isObject(item.config) ? item.config : {},
        isDefault: isObject(item.metadata) && item.metadata.created_by === 'system',
        described: false, loopscope: null, drawing: null, drawingError: null, inputSchema: null,
      }
    : null;

/** A thread of the server's answer, or null when it is not one. */
const threadOf = (item: unknown): ServerThread | null =>
  isObject(item) && typeof item.thread_id === 'string' ? { id: item.thread_id, status: String(item.status), updatedAt: String(item.updated_at) } : null;

/**
 * One page of a list the server answers from `offset`: at most LIST_PAGE of its items (a server may
 * ignore the limit), each one not `seen` before (one that ignores the offset sends the same page
 * again). `full` says whether a next page may hold more.
 */
export const readListPage = async <T>(ask: (offset: number) => Promise<unknown>, offset: number, read: (item: unknown) => T | null, keyOf: (item: T) => string, seen: Set<string>) => {
  const answer = await ask(offset);
  const page = (Array.isArray(answer) ? answer : []).slice(0, LIST_PAGE);
  const items: T[] = [];
  for (const item of page) {
    const value = read(item);
    if (value === null || seen.has(keyOf(value))) continue;
    seen.add(keyOf(value));
    items.push(value);
  }
  return { items, full: page.length === LIST_PAGE && items.length > 0 };
};

/**
 * A fetch that reads at most `limit` bytes of one answer and fails past it, naming the request: a
 * server's answer is parsed in the page, and a giant one froze it. A run's event stream goes on as
 * long as its run, so there each event is bounded instead (a blank line ends one): an event that
 * never ended was kept whole in the page's memory until the tab died.
 */
export const cappedFetch = (fetchImpl: typeof fetch, limit = MAX_ANSWER_BYTES): typeof fetch => async (input, init) => {
  const response = await fetchImpl(input, init);
  if (!response.body) return response;
  const events = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const url = new URL(input instanceof Request ? input.url : String(input));
  const refusal = () => new Error(`the server at ${url.origin} answered ${url.pathname} with more than ${limit / 1024 / 1024} MB: Loopscope reads at most ${limit / 1024 / 1024} MB of one answer`);
  if (Number(response.headers.get('content-length')) > limit) {
    await response.body.cancel();
    throw refusal();
  }
  /** Bytes of the answer, or of an event stream's event, so far. */
  let read = 0;
  /** The last byte of an event stream was a line's end (`\r` aside): one more makes a blank line. */
  let lineEnded = false;
  const countEvents = (chunk: Uint8Array) => {
    for (const byte of chunk) {
      read += 1;
      if (byte === 0x0a) {
        if (lineEnded) read = 0;
        lineEnded = true;
      } else if (byte !== 0x0d) lineEnded = false;
    }
  };
  return boundedResponse(response, (chunk) => {
    if (events) countEvents(chunk);
    else read += chunk.byteLength;
    return read > limit;
  }, refusal);
};

/**
 * A thread's or run's id as the page shows it: its end. Servers make UUIDv7 ids, whose first
 * characters are the time they were made, the same for threads made within a minute.
 */
export const shortId = (id: string) => visibleText(id.slice(-8));

/**
 * One connection to a LangGraph server: connecting, listing its graphs and their threads, the graph
 * selected and the config its runs get. Its state is `useServer`'s; its run is serverRun.ts's.
 */
/** The connection open now (or being opened): a Disconnect or another Connect replaces it. */
let live: Connection | null = null;

export class Connection {
  readonly api: Client;
  readonly origin: string;
  /** Aborts the requests of Connect (Cancel, or its timeout). */
  private readonly connecting: AbortController;
  /** The config the page's runs get (the chosen assistant's, as the person edited it), when set. */
  runConfig: Record<string, unknown> | undefined;
  private constructor(api: Client, origin: string, connecting: AbortController) {
    this.api = api;
    this.origin = origin;
    this.connecting = connecting;
  }

  /** Connects to the server at `text` and lists its graphs; Cancel (`cancelConnect`) or a stalled server end it with a message. */
  static async open(text: string, client?: Client): Promise<Connection | null> {
    const address = serverOrigin(text);
    if ('error' in address) {
      useServer.setState({ error: address.error });
      return null;
    }
    const cancelBefore = useServer.getState().cancelConnecting;
    live?.cancelConnect();
    // The connection before is closed from now: its run stops.
    live = null;
    cancelBefore?.();
    // Cancel works before the SDK has loaded (on a busy machine that takes seconds): a click then is not lost.
    const connecting = new AbortController();
    // Also this Connect's mark: a later Connect (or Disconnect) replaces it, and this one then says nothing more.
    const cancel = () => connecting.abort(new Error('Connect was cancelled'));
    const current = () => useServer.getState().cancelConnecting === cancel;
    useServer.setState({ ...NOT_CONNECTED, connecting: true, cancelConnecting: cancel });
    const api = client ?? new (await import('@langchain/langgraph-sdk')).Client({ apiUrl: address.origin, apiKey: null, callerOptions: { fetch: cappedFetch(fetchOnlyTo(new Set([address.origin]))), maxRetries: 0 } });
    const connection = new Connection(api, address.origin, connecting);
    const signal = connecting.signal;
    if (current()) live = connection;
    const timer = setTimeout(() => connecting.abort(new Error(`the server at ${address.origin} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    const graphs: ServerGraph[] = [];
    let more = true;
    try {
      const stopped = signal.aborted
        ? Promise.reject<never>(signal.reason)
        : new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      const seen = new Set<string>();
      // A page at a time, to MAX_GRAPHS: nothing is asked of each graph until it is selected.
      while (more && graphs.length < MAX_GRAPHS) {
        const page = await Promise.race([stopped, readListPage((offset) => api.assistants.search({ limit: LIST_PAGE, offset, signal }), graphs.length, graphOf, (graph) => graph.assistantId, seen)]);
        graphs.push(...page.items.slice(0, MAX_GRAPHS - graphs.length));
        more = page.full;
      }
    } catch (error) {
      if (current()) live = null;
      if (current()) useServer.setState({ connecting: false, cancelConnecting: null, error: `Not connected: ${messageOf(signal.aborted ? signal.reason : error)}` });
      return null;
    } finally {
      clearTimeout(timer);
    }
    if (!current()) return null;
    useServer.setState({ connecting: false, cancelConnecting: null, url: address.origin, graphs, graphsCapped: more, error: null });
    // The graph on the canvas, when the server may have it (the id an export of it gets); else the first.
    const open = graphIdOf(useApp.getState().graph);
    const first = graphs.find((graph) => graph.graphId === open) ?? graphs[0];
    if (first) await connection.selectGraph(first.graphId);
    return connection;
  }

  /** Stops connecting: what was asked is dropped, and the panel says so. */
  cancelConnect() {
    this.connecting.abort(new Error('Connect was cancelled'));
  }

  /** Runs a server call, showing its failure instead of throwing. */
  async attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (this.current()) useServer.setState({ error: messageOf(error) });
      return undefined;
    }
  }

  /** Whether this is still the store's connection (a Disconnect or another Connect replaces it). */
  current() {
    return live === this;
  }

  // The connection's state, as its run (serverRun.ts) reads and changes it: the run keeps no store of its own and calls none.

  /** The thread on screen, with where it stands. */
  thread() {
    return useServer.getState().thread;
  }

  /** Shows `thread` (null: none) as the thread on screen; with `error`, says it too (null: clears what was said). */
  showThread(thread: ServerConnection['thread'], error?: string | null) {
    useServer.setState({ thread, ...(error === undefined ? {} : { error }) });
  }

  /** What the panel says went wrong (null: nothing). */
  error() {
    return useServer.getState().error;
  }

  say(error: string | null) {
    useServer.setState({ error });
  }

  /** Says what the last fork did not do as asked (null: nothing). */
  noteFork(forkNote: string | null) {
    useServer.setState({ forkNote });
  }

  /** The nodes a run of a graph drawn from the server pauses before. */
  breakpoints() {
    return useServer.getState().breakpoints;
  }

  /** Calls `listener` at each change of the connection's state; answers how to stop. */
  onChange(listener: () => void) {
    return useServer.subscribe(listener);
  }

  private async describeGraph(listed: ServerGraph): Promise<ServerGraph> {
    const { assistantId } = listed;
    const described: unknown = await this.api.assistants.getGraph(assistantId, { xray: true });
    const nodes = (Array.isArray((described as { nodes?: unknown })?.nodes) ? (described as { nodes: unknown[] }).nodes : []) as { metadata?: Record<string, unknown> | null }[];
    const carried = nodes.find((node) => node?.metadata?.[GRAPH_KEY] !== undefined)?.metadata?.[GRAPH_KEY];
    // The file is data from another program: parsed like an import, and dropped if it does not parse.
    const parsed = carried === undefined ? null : parseGraph(carried);
    if (parsed?.ok) return { ...listed, described: true, loopscope: parsed.value, drawing: null, drawingError: null };
    const { drawingOf } = await import('../runtime/serverGraph.ts');
    const drawn = drawingOf(described);
    return { ...listed, described: true, loopscope: null, drawing: drawn.ok ? drawn.drawing : null, drawingError: drawn.ok ? null : drawn.error };
  }

  selectedGraph() {
    const { graphs, graphId, assistantId } = useServer.getState();
    return graphs.find((graph) => graph.assistantId === assistantId) ?? graphs.find((graph) => graph.graphId === graphId) ?? null;
  }

  /** Lists the selected graph's threads again from the newest, one page. */
  refreshThreads() {
    return this.readThreads(false);
  }

  /** Lists the next page of the selected graph's threads, to MAX_THREADS. */
  showMoreThreads() {
    return this.readThreads(true);
  }

  private async readThreads(more: boolean) {
    const graph = this.selectedGraph();
    if (!graph) return;
    const kept = more ? useServer.getState().threads : [];
    const ask = (offset: number) => this.api.threads.search({ metadata: { graph_id: graph.graphId }, limit: LIST_PAGE, offset, sortBy: 'updated_at', sortOrder: 'desc' });
    const page = await this.attempt(() => readListPage(ask, kept.length, threadOf, (thread) => thread.id, new Set(kept.map((thread) => thread.id))));
    if (!page || !this.current() || this.selectedGraph()?.assistantId !== graph.assistantId) return;
    const threads = [...kept, ...page.items].slice(0, MAX_THREADS);
    useServer.setState({ threads, moreThreads: page.full && threads.length < MAX_THREADS, threadsCapped: page.full && threads.length >= MAX_THREADS });
  }

  /**
   * Shows the graph (describing it first, once) and lists its threads: a Loopscope export on the
   * editor's canvas (as a new document named with its server, unless it is the graph open); any
   * other graph drawn from the server's description, standing in the library as a graph of its
   * name and server (one per server and assistant).
   */
  async selectGraph(graphId: string, assistant?: string) {
    const ofGraph = useServer.getState().graphs.filter((graph) => graph.graphId === graphId);
    const assistantId = assistant ?? (ofGraph.find((graph) => graph.isDefault) ?? ofGraph[0])?.assistantId ?? null;
    this.runConfig = undefined;
    useServer.setState({ graphId, assistantId, threads: [], moreThreads: false, threadsCapped: false, thread: null, canvas: null, breakpoints: [], forkNote: null, error: null });
    let graph = this.selectedGraph();
    if (!graph) return;
    if (!graph.described) {
      const listed = graph;
      const described = await this.attempt(() => this.describeGraph(listed));
      if (!described || !this.current() || useServer.getState().assistantId !== assistantId) return;
      useServer.setState((state) => ({ graphs: state.graphs.map((candidate) => (candidate === listed ? described : candidate)) }));
      graph = described;
    }
    const app = useApp.getState();
    if (graph.loopscope) {
      // The person's own graph (exported from here) stays on screen as it is; any other opens as a
      // graph of the library named with its server, the one on screen staying saved under its own id.
      const copy = serverCopy(graph.loopscope, this.origin);
      const open = JSON.stringify(app.graph);
      if (open !== JSON.stringify(graph.loopscope) && open !== JSON.stringify(copy)) app.load(copy);
    } else if (graph.drawing) {
      const documentId = foreignDocumentId({ origin: this.origin, assistantId: graph.assistantId });
      if (app.documentId !== documentId) app.openDocument(standInFor(graph, this.origin), documentId);
      useServer.setState({ canvas: { origin: this.origin, assistantId: graph.assistantId, graphId: graph.graphId, drawing: graph.drawing, documentId } });
    } else {
      useServer.setState({ error: `The server's graph ${graph.graphId} cannot be drawn: ${graph.drawingError}` });
    }
    await Promise.all([this.refreshThreads(), graph.loopscope ? null : this.readInputSchema(graph)]);
  }

  /** Reads the selected graph's input schema once (for its run input form), or why the server gave none. */
  private async readInputSchema(graph: ServerGraph) {
    if (graph.inputSchema) return;
    let inputSchema: ServerGraph['inputSchema'];
    try {
      const schemas = await this.api.assistants.getSchemas(graph.assistantId);
      inputSchema = isObject(schemas) && isObject(schemas.input_schema) ? { schema: schemas.input_schema } : { error: 'it answered no input_schema' };
    } catch (error) {
      inputSchema = { error: messageOf(error) };
    }
    if (!this.current()) return;
    useServer.setState((state) => ({ graphs: state.graphs.map((candidate) => (candidate.assistantId === graph.assistantId ? { ...candidate, inputSchema } : candidate)) }));
  }

  /** The config the page's runs of the chosen assistant get from now on (its own, edited), e.g. `{"configurable": {"model": "…"}}`. */
  setRunConfig(config: Record<string, unknown> | undefined) {
    this.runConfig = config;
  }

}

/** The connection, when connected. */
export const serverConnection = () => live;

/** Connects to the server at `text` and lists its graphs (`client`: tests hand one that answers as a server would). */
export const openConnection = (text: string, client?: Client) => Connection.open(text, client);

export const disconnect = () => {
  live?.cancelConnect();
  live = null;
  useServer.getState().cancelConnecting?.();
  useServer.setState(NOT_CONNECTED);
};
