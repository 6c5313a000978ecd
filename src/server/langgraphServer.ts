/**
 * The debugger attached to a LangGraph server (`loopscope serve`, `langgraphjs dev`, a deployment):
 * its graphs (assistants) and threads, a thread's run shown from its checkpoints, runs followed live
 * as they stream, stepped (interruptBefore), resumed after an `interrupt()`, forked (updateState on
 * a checkpoint) and approved. A graph Loopscope exported carries its graph file and opens on the
 * editor's canvas; any other graph is drawn from the server's own description (SPEC §8).
 *
 * One `ServerRunController` per connection, held in the connection's state (`useServer`): it owns the SDK client and what it
 * does on the server. The open thread's run is shown by the store's run actions (`followRun`), which
 * keep it as a plain value and drive it through the `RunController` contract, as they do a run in
 * the page: Continue, Approve, Deny and Fork are the same actions there. Connecting is the person's explicit
 * choice of one URL: every request goes to that origin only, with no key. The SDK loads when the
 * person connects.
 */
import { create } from 'zustand';
import { blankGraph, graphIdOf, kindDefinition, type GraphFile } from '../graph/index.ts';
import { boundedResponse } from '../graph/bytes.ts';
import { originOf } from '../graph/hosts.ts';
import { visibleText } from '../graph/visible.ts';
import { parseGraph } from '../graph/parse.ts';
import { type ForkEdits, type PendingApproval, type RunController, type RunEvent, type RunStatus, type Unsupported } from '../runtime/controller.ts';
import type { ServerDrawing } from '../runtime/serverGraph.ts';
import type { RunTold } from '../runtime/serverEvents.ts';
import type { Branch } from '../runtime/serverFork.ts';
import type { CheckpointState } from '../runtime/serverTrace.ts';
import { TRACE_FORMAT, TRACE_VERSION, type Trace, type TraceStep } from '../runtime/trace.ts';
import { fetchOnlyTo } from '../skills/net.ts';
import { foreignDocumentId, useApp } from '../store/index.ts';

type Sdk = typeof import('@langchain/langgraph-sdk');
/** The SDK's client; tests hand `connect` one that answers as a server would. */
export type Client = InstanceType<Sdk['Client']>;

/** Checkpoints asked for per history request: a thread is read a page at a time, newest first. */
export const HISTORY_PAGE = 50;
/** Pages read for one run at most; a longer branch shows its newest steps and says so. */
const MAX_PAGES = 20;
/** Subgraph runs read for one thread at most (a page of each). */
const MAX_SUBGRAPHS = 20;
/** Threads whose runs' event streams are remembered (what they told of tasks, attempts and routers), the newest. */
const MAX_TOLD_THREADS = 20;
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
  controller: ServerRunController | null;
  /** A server graph Loopscope did not make, drawn in place of the canvas while its document is the one open. */
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
  url: null, connecting: false, cancelConnecting: null, error: null, graphs: [], graphsCapped: false, graphId: null, assistantId: null, threads: [], moreThreads: false, threadsCapped: false, thread: null, controller: null, canvas: null, breakpoints: [], forkNote: null,
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

const threadKey = (origin: string, threadId: string) => `${origin} ${threadId}`;
/** A branch of a thread that is not its newest keeps a run of its own, so it stays beside the others (Compare runs). */
const branchKey = (origin: string, threadId: string, head: string) => `${threadKey(origin, threadId)} @${head}`;

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

/** Why a run joined from elsewhere shows no routes, attempts or Send inputs: the modes it was started with, as the server lists them. */
export const untoldWords = (runId: string, modes: unknown) => {
  const listed = (Array.isArray(modes) ? modes : [modes]).filter((mode): mode is string => typeof mode === 'string');
  const started = listed.length ? `with the stream modes ${listed.join(', ')}` : 'with stream modes the server does not list';
  return `Run ${shortId(runId)} was started elsewhere ${started}, and the server streamed no events for it when joined (it streams a joined run in the modes it was started with): its routers' return values, retry attempts and Send inputs are not shown; a run started here has them.`;
};

const NOT_FROM_HERE: Unsupported = { unsupported: 'A run on a LangGraph server goes on to its next interrupt: it cannot be paused or stopped from here' };

/**
 * What runs on one LangGraph server: connecting, reading threads as runs, starting, stepping,
 * resuming, forking and comparing them. Its state is the store's (`useServer`), where the panels read it.
 * As a `RunController` (runtime/controller.ts) it is the open thread's run: Step, Run, decide and
 * fork there are the same calls as on a run in the page.
 */
export class ServerRunController implements RunController {
  private readonly api: Client;
  readonly origin: string;
  /** Aborts the requests of Connect (Cancel, or its timeout). */
  private readonly connecting: AbortController;
  /** The approve node whose decision was just written, on its thread: the next run there goes on past it. */
  private answered: { thread: string; node: string } | undefined;
  /** The open thread's run as last read: its key in the store, how it is shown, and its trace. */
  private shown: { key: string; thread: string; label: string; graph: GraphFile; foreign: boolean; trace: Trace } | null = null;
  /** The checkpoints of the open thread read last, any branch, newest first: a step's own writes and its branches are read from them. */
  private fetched: { thread: string; states: CheckpointState[] } | null = null;
  /** A fork from a node that routes with Command({goto}): where the next run goes, from the edit's checkpoint. */
  private gotoAfterFork: { thread: string; checkpointId: string; goto: string } | undefined;
  /** The config the page's runs get (the chosen assistant's, as the person edited it), when set. */
  private runConfig: Record<string, unknown> | undefined;
  /** Told when a read of the open thread changes `trace`. */
  private readonly traceListeners = new Set<() => void>();
  /** What the event streams of the runs started here told, by thread: only a run followed from its start has it. */
  private readonly told = new Map<string, RunTold>();

  /** The approve node just answered on the open thread, if any. */
  private answeredHere() {
    const thread = useServer.getState().thread;
    return thread && this.answered?.thread === thread.id ? this.answered.node : undefined;
  }

  private constructor(api: Client, origin: string, connecting: AbortController) {
    this.api = api;
    this.origin = origin;
    this.connecting = connecting;
  }

  /** Connects to the server at `text` and lists its graphs; Cancel (`cancelConnect`) or a stalled server end it with a message. */
  static async connect(text: string, client?: Client): Promise<ServerRunController | null> {
    const address = serverOrigin(text);
    if ('error' in address) {
      useServer.setState({ error: address.error });
      return null;
    }
    const { controller: before, cancelConnecting: cancelBefore } = useServer.getState();
    before?.cancelConnect();
    cancelBefore?.();
    // Cancel works before the SDK has loaded (on a busy machine that takes seconds): a click then is not lost.
    const connecting = new AbortController();
    // Also this Connect's mark: a later Connect (or Disconnect) replaces it, and this one then says nothing more.
    const cancel = () => connecting.abort(new Error('Connect was cancelled'));
    const current = () => useServer.getState().cancelConnecting === cancel;
    useServer.setState({ ...NOT_CONNECTED, connecting: true, cancelConnecting: cancel });
    const api = client ?? new (await import('@langchain/langgraph-sdk')).Client({ apiUrl: address.origin, apiKey: null, callerOptions: { fetch: cappedFetch(fetchOnlyTo(new Set([address.origin]))), maxRetries: 0 } });
    const controller = new ServerRunController(api, address.origin, connecting);
    const signal = connecting.signal;
    if (current()) useServer.setState({ controller });
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
      if (current()) useServer.setState({ connecting: false, cancelConnecting: null, controller: null, error: `Not connected: ${messageOf(signal.aborted ? signal.reason : error)}` });
      return null;
    } finally {
      clearTimeout(timer);
    }
    if (!current()) return null;
    useServer.setState({ connecting: false, cancelConnecting: null, url: address.origin, graphs, graphsCapped: more, error: null });
    // The graph on the canvas, when the server may have it (the id an export of it gets); else the first.
    const open = graphIdOf(useApp.getState().graph);
    const first = graphs.find((graph) => graph.graphId === open) ?? graphs[0];
    if (first) await controller.selectGraph(first.graphId);
    return controller;
  }

  /** Stops connecting: what was asked is dropped, and the panel says so. */
  cancelConnect() {
    this.connecting.abort(new Error('Connect was cancelled'));
  }

  /** Runs a server call, showing its failure instead of throwing. */
  private async attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (this.current()) useServer.setState({ error: messageOf(error) });
      return undefined;
    }
  }

  /** Whether this is still the store's connection (a Disconnect or another Connect replaces it). */
  private current() {
    return useServer.getState().controller === this;
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

  /** Reads the pages of a thread's history (newest first) until the branch of `head` is whole, or MAX_PAGES. */
  private async readBranch(threadId: string, ns?: string, headId?: string) {
    const { branchOf } = await import('../runtime/serverTrace.ts');
    const checkpoint = ns ? { checkpoint: { checkpoint_ns: ns } } : {};
    let page = (await this.api.threads.getHistory(threadId, { limit: HISTORY_PAGE, ...checkpoint })) as unknown as CheckpointState[];
    const newest = page[0];
    if (!newest) return null;
    const fetched: CheckpointState[] = [...page];
    // Another branch than the newest: its head is read first (older checkpoints come on later pages).
    const headOf = () => (headId ? fetched.find((state) => state.checkpoint.checkpoint_id === headId) : newest);
    const branchNow = () => {
      const head = headOf();
      return head ? branchOf(head, fetched) : { chain: [], missing: headId ?? null };
    };
    let branch = branchNow();
    for (let pages = 1; branch.missing && page.length === HISTORY_PAGE && pages < MAX_PAGES; pages += 1) {
      const before = page[page.length - 1].checkpoint;
      page = (await this.api.threads.getHistory(threadId, { limit: HISTORY_PAGE, before: { configurable: { checkpoint_id: before.checkpoint_id, ...(ns ? { checkpoint_ns: ns } : {}) } }, ...checkpoint })) as unknown as CheckpointState[];
      fetched.push(...page);
      branch = branchNow();
    }
    const head = headOf();
    if (!head) throw new Error(`thread ${threadId} has no checkpoint ${headId}`);
    return { head, branch, newest, fetched };
  }

  /** The branches of the subgraphs the thread's tasks ran, by namespace (at most MAX_SUBGRAPHS). */
  private async readSubgraphs(threadId: string, chain: readonly CheckpointState[]) {
    const namespaces = [...new Set(chain.flatMap((state) => (Array.isArray(state.tasks) ? state.tasks : []).map((task) => task?.checkpoint?.checkpoint_ns)).filter((ns): ns is string => typeof ns === 'string' && ns.length > 0))];
    const chains = new Map<string, CheckpointState[]>();
    for (const ns of namespaces.slice(0, MAX_SUBGRAPHS)) {
      const read = await this.readBranch(threadId, ns).catch(() => null);
      if (read) chains.set(ns, read.branch.chain);
    }
    return chains;
  }

  /**
   * Reads a branch of the thread (its newest unless `headId` names another branch's newest
   * checkpoint) and shows it as a run (on the canvas, the timeline, the step detail).
   */
  async readThread(threadId: string, headId?: string) {
    const graph = this.selectedGraph();
    if (!graph) return;
    const [{ foreignTrace, traceFromBranch }, { withTold }, { branchesAt }] = await Promise.all([import('../runtime/serverTrace.ts'), import('../runtime/serverEvents.ts'), import('../runtime/serverFork.ts')]);
    useServer.setState({ error: null });
    const read = await this.attempt(async () => {
      const found = await this.readBranch(threadId, undefined, headId);
      if (!found) return null;
      const subgraphs = graph.loopscope ? new Map() : await this.readSubgraphs(threadId, found.branch.chain);
      const told = this.told.get(threadId);
      const foreign = graph.loopscope ? null : foreignTrace(graph.graphId, found.branch.chain, graph.drawing, subgraphs);
      const trace: Trace = foreign
        ? told ? { ...foreign, steps: withTold(foreign.steps, told) } : foreign
        : traceFromBranch((graph.loopscope as GraphFile).name, found.branch.chain);
      // The answers the interrupts were given, kept by the server in the runs that resumed them.
      const waited = !graph.loopscope && trace.steps.some((step) => step.server?.interrupts?.length);
      const answers = waited ? await this.answersOf(threadId, trace.steps, found.fetched) : {};
      return { ...found, trace, answers };
    });
    if (!read || !this.current()) {
      if (read === null) useServer.setState({ error: `thread ${threadId} has no checkpoints yet` });
      return;
    }
    const next = Array.isArray(read.head.next) ? read.head.next.filter((name): name is string => typeof name === 'string') : [];
    const interrupts = (Array.isArray(read.head.tasks) ? read.head.tasks : []).flatMap((task) => (Array.isArray(task?.interrupts) ? task.interrupts : []).map((interrupt: { value?: unknown } | null) => ({ node: String(task.name), value: interrupt?.value })));
    // A run in flight stays busy until its stream ends (streamRun or joinRunElsewhere says so).
    const shown = useServer.getState().thread;
    const following = shown?.id === threadId && shown.busy ? { busy: true, ...(shown.joined ? { joined: shown.joined } : {}) } : { busy: false };
    // What a joined run's stream did not tell stays said while its thread is on screen (a run started here clears it).
    const untold = shown?.id === threadId && shown.untold ? { untold: shown.untold } : {};
    // A task that threw stopped the run there: its node stays `next`, but nothing waits on it.
    const failed = (Array.isArray(read.head.tasks) ? read.head.tasks : []).find((task) => typeof task?.error === 'string')?.name;
    const head = String(read.head.checkpoint.checkpoint_id);
    const newest = read.head === read.newest;
    const forks = Object.fromEntries(read.branch.chain.flatMap((state) => {
      const parent = state.parent_checkpoint?.checkpoint_id;
      const branches = parent ? branchesAt(read.fetched, parent) : [];
      return branches.length > 0 ? [[parent as string, branches]] : [];
    }));
    this.fetched = { thread: threadId, states: read.fetched };
    useServer.setState({ thread: { id: threadId, next, truncated: read.branch.missing !== null, interrupts, ...following, ...(failed === undefined ? {} : { failed }), branch: { head, newest, forks }, answers: read.answers, ...untold } });
    const key = newest ? threadKey(this.origin, threadId) : branchKey(this.origin, threadId, head);
    this.shown = { key, thread: threadId, label: newest ? `thread ${shortId(threadId)}` : `thread ${shortId(threadId)}, branch ${shortId(head)}`, graph: graph.loopscope ?? standInFor(graph, this.origin), foreign: graph.loopscope === null, trace: read.trace };
    for (const listener of this.traceListeners) listener();
    await this.follow();
  }

  /** The answer each step that waited on an interrupt() was given, by its checkpoint: from the thread's run that wrote that checkpoint, which resumed it. */
  private async answersOf(threadId: string, steps: readonly TraceStep[], states: readonly CheckpointState[]): Promise<Record<string, unknown>> {
    const [runs, { answersByStep, resumesByRun, writersOf }] = await Promise.all([this.api.runs.list(threadId, { limit: LIST_PAGE }), import('../runtime/serverAnswers.ts')]);
    return Object.fromEntries(answersByStep(steps, resumesByRun(Array.isArray(runs) ? runs.slice(0, LIST_PAGE) : []), writersOf(states)));
  }

  /** Makes the open thread's run the store's live run (again, after a run in the page took its place): the debugger's actions drive it. */
  async follow() {
    if (!this.shown) return;
    const { key, label, graph, foreign } = this.shown;
    await useApp.getState().followRun(this, { key, label, graph, ...(foreign ? { foreign } : {}) });
  }

  /**
   * A run on this thread that was started elsewhere (another tab, the SDK, LangGraph Studio, a
   * cron): followed live until it ends, as a run started here is. Each event re-reads the thread.
   */
  private async joinRunElsewhere(threadId: string) {
    if (useServer.getState().thread?.busy) return;
    const active = await this.attempt(async () => {
      for (const status of ['running', 'pending'] as const) {
        const [run] = await this.api.runs.list(threadId, { status, limit: 1 });
        if (run) return run;
      }
      return null;
    });
    if (!active) return;
    const shown = useServer.getState().thread;
    if (shown?.id !== threadId) return;
    useServer.setState({ thread: { ...shown, busy: true, joined: active.run_id } });
    // `events` as for a run started here (each task's input, attempts, routers); a server streams a
    // joined run in the modes it was started with, which may not hold it: then that is said.
    const foreign = !this.selectedGraph()?.loopscope;
    let heard = false;
    await this.attempt(async () => {
      const { told, foldEvent } = await this.toldOf(threadId);
      for await (const chunk of this.api.runs.joinStream(threadId, active.run_id, { streamMode: foreign ? ['updates', 'events'] : ['updates'] })) {
        if (chunk.event === 'error') throw new Error(`the server's run failed: ${JSON.stringify(chunk.data)}`);
        if (chunk.event === 'events') {
          heard = true;
          foldEvent(told, chunk.data);
        } else if (chunk.event !== 'metadata' && useServer.getState().thread?.id === threadId) await this.readThread(threadId);
      }
    });
    const thread = useServer.getState().thread;
    const untold = foreign && !heard ? untoldWords(active.run_id, (active as { kwargs?: { stream_mode?: unknown } }).kwargs?.stream_mode) : undefined;
    if (thread?.id === threadId) useServer.setState({ thread: { id: thread.id, next: thread.next, truncated: thread.truncated, interrupts: thread.interrupts, busy: false, ...(untold ? { untold } : {}) } });
    await this.readThread(threadId);
    await this.refreshThreads();
  }

  /** What the event streams of the thread's runs told, kept as its newest (MAX_TOLD_THREADS are kept), to fold a stream's events into. */
  private async toldOf(threadId: string) {
    const { emptyTold, foldEvent } = await import('../runtime/serverEvents.ts');
    const told = this.told.get(threadId) ?? emptyTold();
    this.told.delete(threadId);
    this.told.set(threadId, told);
    for (const old of [...this.told.keys()].slice(0, -MAX_TOLD_THREADS)) this.told.delete(old);
    return { told, foldEvent };
  }

  /** Shows a thread as a run; if a run started elsewhere is going on there, follows it live. */
  async openThread(threadId: string) {
    await this.readThread(threadId);
    if (useServer.getState().thread?.id === threadId) await this.joinRunElsewhere(threadId);
  }

  /**
   * Runs the graph on a thread (a new one when none is open) and follows it live: each node's
   * update redraws the run. `interruptBefore` stops it before nodes (`"*"`: Step, one node; a
   * drawn graph's breakpoints; a Loopscope export's nodes that ask a person). `run.command` resumes an interrupt.
   */
  private async streamRun(run: { input?: unknown; command?: { resume: unknown } | { goto: string }; checkpointId?: string }, stepping = false, answered?: string) {
    const graph = this.selectedGraph();
    if (!graph) return;
    const { nodeNames } = await import('../runtime/index.ts');
    // A run waits for a person before a node that asks one (`interruptsBefore`), as it does here (one just answered goes on).
    const names = graph.loopscope ? nodeNames(graph.loopscope) : new Map<string, string>();
    const approvals = (graph.loopscope?.nodes ?? []).filter((node) => kindDefinition(node.kind).interruptsBefore && names.has(node.id)).map((node) => names.get(node.id) as string).filter((name) => name !== answered);
    const pauses = graph.loopscope ? approvals : useServer.getState().breakpoints;
    const interruptBefore = stepping ? '*' : pauses.length ? pauses : undefined;
    const current = useServer.getState().thread;
    const threadId = current?.id ?? (await this.attempt(() => this.api.threads.create({ metadata: { created_by: 'loopscope' } })))?.thread_id;
    if (!threadId) return;
    let failure: string | null = null;
    useServer.setState({ thread: { id: threadId, next: current?.next ?? [], busy: true, truncated: current?.truncated ?? false, interrupts: current?.interrupts ?? [] }, error: null });
    await this.attempt(async () => {
      const stream = this.api.runs.stream(threadId, graph.assistantId, {
        ...(run.command ? { command: run.command } : { input: (current ? (run.input ?? null) : (run.input ?? {})) as Record<string, unknown> | null }),
        // `events`: each task's input, each attempt, each router's run (serverEvents.ts), which no checkpoint keeps;
        // a Loopscope export's checkpoints carry all of its steps already.
        streamMode: graph.loopscope ? ['updates'] : ['updates', 'events'], ...(interruptBefore ? { interruptBefore } : {}), ...(this.runConfig ? { config: this.runConfig } : {}), ...(run.checkpointId ? { checkpointId: run.checkpointId } : {}),
      });
      const { told, foldEvent } = await this.toldOf(threadId);
      for await (const chunk of stream) {
        // A node that threw is told by the thread itself (a step with its error, the run stopped there): any other failure is said here.
        if (chunk.event === 'error') failure = `the server's run failed: ${JSON.stringify(chunk.data)}`;
        if (chunk.event === 'events') foldEvent(told, chunk.data);
        if (chunk.event === 'updates') await this.readThread(threadId);
      }
    });
    const thread = useServer.getState().thread;
    if (thread?.id === threadId) useServer.setState({ thread: { ...thread, busy: false } });
    await this.readThread(threadId);
    if (failure && !useServer.getState().thread?.failed && this.current()) useServer.setState({ error: failure });
    await this.refreshThreads();
  }

  /** The config the page's runs of the chosen assistant get from now on (its own, edited), e.g. `{"configurable": {"model": "…"}}`. */
  setRunConfig(config: Record<string, unknown> | undefined) {
    this.runConfig = config;
  }

  /** A new run on a new thread, followed live; `input` is the graph's input (the person's JSON, for a graph drawn from the server). */
  async startRun(input: unknown = {}) {
    useServer.setState({ thread: null });
    await this.streamRun({ input });
  }

  /**
   * A run on the open thread with `input` (a chat box's message, which the messages reducer appends
   * to its conversation), from the branch on screen; a new thread when none is open.
   */
  async sendOnThread(input: Record<string, unknown>) {
    const thread = useServer.getState().thread;
    if (!thread) return this.startRun(input);
    await this.streamRun({ input, ...(thread.branch && !thread.branch.newest ? { checkpointId: thread.branch.head } : {}) });
  }

  /** Runs one node of the open thread (a new thread when none is open, or the open one has ended). */
  async stepOnServer(input: unknown = {}) {
    if (useServer.getState().thread?.next.length === 0) useServer.setState({ thread: null });
    const before = useServer.getState().thread;
    const steps = () => this.trace.steps.length;
    const count = before ? steps() : 0;
    // A fresh thread stops before its first node once: go on past it, as the local Step does.
    for (let call = 0; call < 3; call += 1) {
      await this.streamRun({ input: call === 0 && !before ? input : null }, true);
      if (steps() > count || (useServer.getState().thread?.next.length ?? 0) === 0) break;
    }
  }

  /** The thread waits on an `interrupt()`: the person's answer resumes it (`Command({resume})`). */
  resumeOnServer(value: unknown) {
    return this.streamRun({ command: { resume: value } });
  }

  /** The checkpoint a Loopscope export's step `step` made, read back from the thread's history. */
  private async loopscopeCheckpointOf(threadId: string, step: number) {
    let before: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const page = (await this.api.threads.getHistory(threadId, { limit: HISTORY_PAGE, ...(before ? { before: { configurable: { checkpoint_id: before } } } : {}) })) as unknown as CheckpointState[];
      const hit = page.find((state) => (state.values._step as TraceStep | null | undefined)?.step === step);
      if (hit || page.length < HISTORY_PAGE) return hit ? { id: hit.checkpoint.checkpoint_id ?? undefined, node: (hit.values._step as TraceStep).node, values: hit.values } : null;
      before = page[page.length - 1].checkpoint.checkpoint_id ?? undefined;
    }
    return null;
  }

  /**
   * A step's own writes (what its node returned), to edit for a fork; null when the server kept
   * none (then the fork's edits are written whole, as typed).
   */
  async ownWritesAt(step: number): Promise<Record<string, unknown> | null> {
    const shown = this.shownTrace()?.steps[step - 1];
    const fetched = this.fetched;
    if (!shown || !fetched || fetched.thread !== useServer.getState().thread?.id) return null;
    const { ownWrites } = await import('../runtime/serverFork.ts');
    return ownWrites(fetched.states, shown);
  }

  /**
   * The run on screen, the thread's newest branch, is kept as a run of its own (keyed by its head):
   * a fork makes a newer branch, and the one it came from stays beside it, to show and compare.
   */
  private keepShownBranch() {
    const thread = useServer.getState().thread;
    if (!thread?.branch?.newest) return;
    const base = threadKey(this.origin, thread.id);
    const kept = branchKey(this.origin, thread.id, thread.branch.head);
    useApp.setState((state) => ({ runs: state.runs.map((run) => (run.server === base ? { ...run, server: kept, label: `${run.label}, branch ${shortId(thread.branch?.head ?? '')}` } : run)) }));
  }

  /**
   * A fork of a step of a graph drawn from the server, as LangGraph forks: the step's own writes,
   * edited, written into the checkpoint it ran from as its node (`updateState`), so reducers apply
   * them once in place of what it wrote; a node that routes with Command({goto}) goes to `goto`.
   */
  private async branchForeign(step: number, values: Record<string, unknown>, goto: string | null): Promise<boolean> {
    const thread = useServer.getState().thread;
    const shown = this.trace.steps[step - 1];
    if (!thread || !shown) return false;
    const [{ subgraphForkRefusal }, { forkRequest }] = await Promise.all([import('../runtime/serverTrace.ts'), import('../runtime/serverFork.ts')]);
    const refusal = subgraphForkRefusal(this.trace.steps, step - 1);
    const request = refusal ? { refused: refusal } : forkRequest(shown, values, goto);
    if ('refused' in request) {
      useServer.setState({ error: request.refused });
      return false;
    }
    useServer.setState({ forkNote: null });
    const made = await this.attempt(async () => {
      const update = await this.api.threads.updateState(thread.id, { values: request.values, checkpointId: request.checkpointId, asNode: request.asNode });
      this.keepShownBranch();
      const checkpointId = (update as { checkpoint?: { checkpoint_id?: string } }).checkpoint?.checkpoint_id;
      // A routing function chose again from the edited writes; a Command's goto is not in them: the run goes where the person said.
      const after = await this.api.threads.getState(thread.id);
      return { checkpointId, next: after.next };
    });
    if (!made) return false;
    const { name, chose } = shown.server ?? { name: request.asNode, chose: [] };
    if (request.goto && made.checkpointId && made.next.length === 0) this.gotoAfterFork = { thread: thread.id, checkpointId: made.checkpointId, goto: request.goto };
    // Said beside the fork, so that a goto not taken, or a run that ends after the edit, is never silent.
    else if (request.goto && !made.next.includes(request.goto)) useServer.setState({ forkNote: `${name}'s routing function chose ${made.next.join(', ')} from the edited writes: Then go to is for a node that routes with Command({goto})` });
    else if (!request.goto && made.next.length === 0 && chose.some((target) => target !== '__end__')) useServer.setState({ forkNote: `The edited writes of ${name} route nowhere, so the run ends after them; if ${name} routes with Command({goto}), fork again choosing where it goes in Then go to` });
    return true;
  }

  /** A Loopscope export's fork: the edits written into the checkpoint of `step` as that step's node, a new branch of the thread. */
  private async branchAt(step: number, edits: Record<string, unknown>): Promise<boolean> {
    const thread = useServer.getState().thread;
    const loopscope = this.selectedGraph()?.loopscope;
    if (!thread || !loopscope) return false;
    const found = await this.attempt(() => this.loopscopeCheckpointOf(thread.id, step));
    if (found === undefined) return false;
    if (!found) {
      useServer.setState({ error: `no checkpoint of step ${step} on thread ${thread.id}` });
      return false;
    }
    const { nodeNames } = await import('../runtime/index.ts');
    const node = nodeNames(loopscope).get(found.node) || found.node;
    const ok = await this.attempt(() => this.api.threads.updateState(thread.id, { values: edits, checkpointId: found.id, asNode: node }));
    return ok !== undefined;
  }

  /**
   * Shows another branch of the open thread (by its newest checkpoint) as a run of its own; with
   * `compare`, beside the branch on screen in Compare runs, their node paths aligned.
   */
  async showBranch(head: string, compare = false) {
    const thread = useServer.getState().thread;
    if (!thread || thread.branch?.head === head) return;
    const left = this.shown?.key;
    await this.readThread(thread.id, head);
    const runOf = (key: string | undefined) => useApp.getState().runs.find((run) => run.server === key)?.id;
    const [leftRun, rightRun] = [runOf(left), runOf(this.shown?.key)];
    if (compare && leftRun !== undefined && rightRun !== undefined && leftRun !== rightRun) useApp.getState().compareRuns({ left: leftRun, right: rightRun });
  }

  /** Reads `otherThreadId` as a run beside the thread on screen and compares the two, their node paths aligned. */
  async compareWith(otherThreadId: string) {
    const shown = useServer.getState().thread;
    const runOf = (threadId: string) => useApp.getState().runs.find((run) => run.server === threadKey(this.origin, threadId))?.id;
    if (!shown || shown.id === otherThreadId) return;
    await this.readThread(otherThreadId);
    const left = runOf(shown.id);
    const right = runOf(otherThreadId);
    if (left !== undefined && right !== undefined) useApp.getState().compareRuns({ left, right });
  }

  /** The open thread's trace as last read, if it is still the open thread's. */
  private shownTrace(): Trace | undefined {
    const thread = useServer.getState().thread;
    return thread && this.shown?.thread === thread.id ? this.shown.trace : undefined;
  }

  /** The approve node of a Loopscope export the open thread waits before, unless just answered. */
  private approvalNext() {
    const next = useServer.getState().thread?.next ?? [];
    return this.selectedGraph()?.loopscope?.nodes.find((node) => kindDefinition(node.kind).interruptsBefore && next.includes(node.id) && node.id !== this.answeredHere()) ?? null;
  }

  get status(): RunStatus {
    // Disconnected (or replaced by another connection): nothing goes on from here.
    if (!this.current()) return 'stopped';
    const thread = useServer.getState().thread;
    if (!thread) return 'idle';
    if (thread.busy) return 'running';
    if (thread.next.length === 0 || thread.failed !== undefined) return 'stopped';
    return this.approvalNext() ? 'awaiting_approval' : 'paused';
  }

  /** The run of the thread read last: while another thread starts, the run on screen keeps its own steps. */
  get trace(): Trace {
    return this.shown?.trace ?? { format: TRACE_FORMAT, version: TRACE_VERSION, graph: this.selectedGraph()?.graphId ?? '', seed: 1, stopReason: null, rounds: 0, tokensUsed: 0, finalState: {}, steps: [] };
  }

  get next(): string | null {
    return useServer.getState().thread?.next[0] ?? null;
  }

  get pendingApproval(): PendingApproval | null {
    const node = this.approvalNext();
    return node && { node: node.id, prompt: (node.config as { prompt?: string }).prompt ?? `Approve ${node.id}?` };
  }

  /** Tells the open thread's new steps and changes of status, as the server's answers come in. */
  subscribe(listener: (event: RunEvent) => void) {
    let status = this.status;
    let told = this.trace.steps.length;
    // The thread open now (or, with none open, the first one read): what another thread does later is that thread's run's, not this listener's.
    let thread = useServer.getState().thread?.id;
    const tell = () => {
      if (this.current()) {
        const open = useServer.getState().thread?.id;
        if (open === undefined || this.shown?.thread !== open) return;
        thread ??= open;
        if (open !== thread) return;
        const steps = this.trace.steps;
        for (; told < steps.length; told += 1) listener({ type: 'step', step: steps[told] });
        told = Math.min(told, steps.length);
      }
      if (this.status === status) return;
      status = this.status;
      listener({ type: 'status', status });
      const pending = this.pendingApproval;
      if (pending) listener({ type: 'approval', pending });
    };
    const unsubscribeServer = useServer.subscribe(tell);
    this.traceListeners.add(tell);
    return () => {
      unsubscribeServer();
      this.traceListeners.delete(tell);
    };
  }

  async step(): Promise<TraceStep | null> {
    const before = useServer.getState().thread ? this.trace.steps.length : 0;
    await this.stepOnServer();
    const steps = this.trace.steps;
    return steps.length > before ? (steps.at(-1) ?? null) : null;
  }

  /** Goes on with the open thread to its end or its next interrupt (a new thread when none is open). */
  run() {
    const answered = this.answeredHere();
    this.answered = undefined;
    const goto = this.gotoAfterFork;
    this.gotoAfterFork = undefined;
    const thread = useServer.getState().thread;
    // Going on with no answer would run the waiting node again, to the same interrupt.
    if (thread?.interrupts.length && !goto) {
      useServer.setState({ error: `${thread.interrupts.map((interrupt) => interrupt.node).join(', ')} waits on interrupt(): answer it with Resume on server` });
      return Promise.resolve();
    }
    if (goto && goto.thread === thread?.id) return this.streamRun({ command: { goto: goto.goto }, checkpointId: goto.checkpointId });
    // An older branch goes on from its own newest checkpoint, not the thread's.
    return this.streamRun({ input: null, ...(thread?.branch && !thread.branch.newest ? { checkpointId: thread.branch.head } : {}) }, false, answered);
  }

  pause() {
    return NOT_FROM_HERE;
  }

  stop() {
    return NOT_FROM_HERE;
  }

  /** An approve node is next: the person's decision goes into the ledger; `run()` goes on past the node. */
  async decide(decision: 'approved' | 'denied') {
    const thread = useServer.getState().thread;
    if (!thread) return;
    const state = await this.attempt(() => this.api.threads.getState<Record<string, unknown>>(thread.id));
    if (!state) return;
    const updated = await this.attempt(() => this.api.threads.updateState(thread.id, { values: { _run: { ...(state.values._run as object), decision } } }));
    if (updated !== undefined) this.answered = { thread: thread.id, node: thread.next[0] };
  }

  /** The state after a step of the open thread, as the server's checkpoints hold it. */
  async stateAt(step: number) {
    const trace = this.shownTrace();
    const thread = useServer.getState().thread;
    if (!trace || !thread) return null;
    if (!this.selectedGraph()?.loopscope) {
      const { foreignStateAfter, foreignStateBefore } = await import('../runtime/serverTrace.ts');
      if (step === 0) return trace.steps.length > 0 ? foreignStateBefore(trace.steps, 0) : null;
      return step <= trace.steps.length ? foreignStateAfter(trace.steps, step - 1) : null;
    }
    const [found, { agentState }] = await Promise.all([this.attempt(() => this.loopscopeCheckpointOf(thread.id, step)), import('../runtime/state.ts')]);
    return found ? agentState(found.values) : null;
  }

  /**
   * The open thread forked after `step`: the state edits go into that step's checkpoint as a new
   * branch (updateState as the step's node); `run()` goes on from there and nothing before it runs
   * again. The server runs its own skills: scripted results and another outcome are not for it.
   */
  async fork(atStep: number, edits: ForkEdits): Promise<RunController | Unsupported> {
    const foreign = this.selectedGraph()?.loopscope === null;
    if (Object.keys(edits.nextResults ?? {}).length > 0 || (edits.outcome !== undefined && !foreign)) return { unsupported: 'A run on a LangGraph server calls its own skills: a fork there takes state edits only' };
    // On a graph drawn from the server, the step's "outcome" is where a Command sends the run (its goto).
    const branched = foreign ? await this.branchForeign(atStep, edits.state ?? {}, edits.outcome ?? null) : await this.branchAt(atStep, edits.state ?? {});
    const thread = useServer.getState().thread;
    if (!branched || !thread) return { unsupported: useServer.getState().error ?? `no checkpoint of step ${atStep} to fork from` };
    // The new branch is the run on screen, ready to go on.
    await this.readThread(thread.id);
    return this;
  }

  setBreakpoints(nodes: string[]) {
    useServer.setState({ breakpoints: nodes });
  }
}

/** The connection's controller, when connected. */
export const serverController = () => useServer.getState().controller;

export const connect = (text: string, client?: Client) => ServerRunController.connect(text, client);

export const disconnect = () => {
  useServer.getState().controller?.cancelConnect();
  useServer.getState().cancelConnecting?.();
  useServer.setState(NOT_CONNECTED);
};
