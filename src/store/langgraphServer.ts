/**
 * The debugger attached to a LangGraph server (`loopscope serve`, `langgraphjs dev`, a deployment):
 * its graphs (assistants) and threads, a thread's run shown on the canvas from its checkpoints,
 * runs followed live as they stream, stepped (interruptBefore), forked (updateState on a
 * checkpoint) and approved. Connecting is the person's explicit choice of one URL: every request
 * goes to that origin only, with no key. The SDK loads when the person connects.
 */
import { create } from 'zustand';
import { type GraphFile } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import { parseGraph } from '../graph/parse.ts';
import type { CheckpointState } from '../runtime/serverTrace.ts';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { fetchOnlyTo } from './hosts.ts';
import { useApp } from './index.ts';

type Sdk = typeof import('@langchain/langgraph-sdk');
type Client = InstanceType<Sdk['Client']>;

/** Checkpoints asked for per history request: a thread is read a page at a time, newest first. */
export const HISTORY_PAGE = 50;
/** Pages read for one run at most; a longer branch shows its newest steps and says so. */
const MAX_PAGES = 20;

export interface ServerGraph {
  assistantId: string;
  graphId: string;
  /** The graph file, when the server's graph is a Loopscope export (it rides on the entry node's metadata). */
  loopscope: GraphFile | null;
  /** The server's own drawing of the graph: node ids and edges (for graphs that are not Loopscope's). */
  nodes: string[];
  edges: { source: string; target: string; conditional: boolean }[];
}

export interface ServerThread {
  id: string;
  status: string;
  updatedAt: string;
}

export interface ServerConnection {
  url: string | null;
  connecting: boolean;
  error: string | null;
  graphs: ServerGraph[];
  graphId: string | null;
  threads: ServerThread[];
  /** The thread on the canvas, with where it stands. */
  thread: { id: string; next: string[]; busy: boolean; truncated: boolean; joined?: string } | null;
}

export const useServer = create<ServerConnection>()(() => ({
  url: null, connecting: false, error: null, graphs: [], graphId: null, threads: [], thread: null,
}));

let client: Client | null = null;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs a server call, showing its failure instead of throwing. */
const attempt = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
  try {
    return await work();
  } catch (error) {
    useServer.setState({ error: messageOf(error) });
    return undefined;
  }
};

/** The origin of what the person typed, or why it is not a server address. */
export const serverOrigin = (text: string): { origin: string } | { error: string } => {
  const origin = originOf(text.trim());
  if (!origin || !/^https?:$/.test(new URL(origin).protocol)) return { error: `"${text}" is not an http(s) address, e.g. http://127.0.0.1:2024` };
  return { origin };
};

const GRAPH_KEY = 'loopscope_graph';

const describeGraph = async (api: Client, assistantId: string, graphId: string): Promise<ServerGraph> => {
  const drawn = (await api.assistants.getGraph(assistantId)) as { nodes?: { id: string | number; metadata?: Record<string, unknown> | null }[]; edges?: { source: string; target: string; conditional?: boolean }[] };
  const nodes = (drawn.nodes ?? []).map((node) => ({ id: String(node.id), metadata: node.metadata ?? {} }));
  const carried = nodes.find((node) => node.metadata[GRAPH_KEY] !== undefined)?.metadata[GRAPH_KEY];
  // The file is data from another program: parsed like an import, and dropped if it does not parse.
  const parsed = carried === undefined ? null : parseGraph(carried);
  return {
    assistantId, graphId, loopscope: parsed?.ok ? parsed.value : null,
    nodes: nodes.map((node) => node.id).filter((id) => id !== '__start__' && id !== '__end__'),
    edges: (drawn.edges ?? []).map((edge) => ({ source: String(edge.source), target: String(edge.target), conditional: edge.conditional === true })),
  };
};


/** Connects to the server at `text` and lists its graphs. */
export const connect = async (text: string) => {
  const address = serverOrigin(text);
  if ('error' in address) {
    useServer.setState({ error: address.error });
    return;
  }
  useServer.setState({ connecting: true, error: null, graphs: [], threads: [], thread: null, graphId: null });
  const { Client } = await import('@langchain/langgraph-sdk');
  const api = new Client({ apiUrl: address.origin, apiKey: null, callerOptions: { fetch: fetchOnlyTo(new Set([address.origin])), maxRetries: 0 } });
  const graphs = await attempt(async () => {
    const assistants = await api.assistants.search({ limit: 100 });
    return Promise.all(assistants.map((assistant) => describeGraph(api, assistant.assistant_id, assistant.graph_id)));
  });
  useServer.setState({ connecting: false });
  if (!graphs) return;
  client = api;
  useServer.setState({ url: address.origin, graphs, error: null });
  // The graph on the canvas, when the server has it (the person exported it from here); else the first.
  const open = useApp.getState().graph.name;
  const first = graphs.find((graph) => graph.loopscope?.name === open) ?? graphs[0];
  if (first) await selectGraph(first.graphId);
};

export const disconnect = () => {
  client = null;
  useServer.setState({ url: null, graphs: [], threads: [], thread: null, graphId: null, error: null });
};

const selectedGraph = () => {
  const { graphs, graphId } = useServer.getState();
  return graphs.find((graph) => graph.graphId === graphId) ?? null;
};

export const refreshThreads = async () => {
  const graph = selectedGraph();
  if (!client || !graph) return;
  const api = client;
  const threads = await attempt(() => api.threads.search({ metadata: { graph_id: graph.graphId }, limit: 50, sortBy: 'updated_at', sortOrder: 'desc' }));
  if (threads) useServer.setState({ threads: threads.map((thread) => ({ id: thread.thread_id, status: thread.status, updatedAt: thread.updated_at })) });
};

/** Shows the graph on the canvas (as a new document) and lists its threads. */
export const selectGraph = async (graphId: string) => {
  useServer.setState({ graphId, threads: [], thread: null });
  const graph = selectedGraph();
  if (!graph) return;
  const app = useApp.getState();
  const file = graph.loopscope ?? drawnGraph(graph);
  // Opened as a graph of the library: the one on screen stays saved under its own id.
  if (JSON.stringify(app.graph) !== JSON.stringify(file)) app.load(file, { layout: graph.loopscope === null });
  await refreshThreads();
};

/**
 * A graph the server describes but Loopscope did not make: its nodes and edges drawn from the
 * server's description (opened with a request for the editor's Auto layout), with no configuration to run here.
 */
export const drawnGraph = (graph: ServerGraph): GraphFile => {
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: graph.graphId, entry: graph.edges.find((edge) => edge.source === '__start__')?.target ?? graph.nodes[0] ?? '',
    nodes: graph.nodes.map((id, index) => ({ id, kind: 'act', label: id, position: { x: (index % 4) * 260, y: Math.floor(index / 4) * 180 } })),
    edges: graph.edges.filter((edge) => graph.nodes.includes(edge.source) && graph.nodes.includes(edge.target)).map((edge, index) => ({ id: `e${index + 1}`, source: edge.source, target: edge.target })),
  });
  if (!parsed.ok) throw new Error(`the server's graph ${graph.graphId} cannot be drawn`);
  return parsed.value;
};

const threadKey = (threadId: string) => `${useServer.getState().url} ${threadId}`;

/**
 * Reads the thread's current branch a page of history at a time (newest first), until the run's
 * first step, and shows it as a run on the canvas.
 */
const readThread = async (threadId: string) => {
  const graph = selectedGraph();
  if (!client || !graph) return;
  const api = client;
  const { branchOf, traceFromBranch } = await import('../runtime/index.ts');
  useServer.setState({ error: null });
  const read = await attempt(async () => {
    const fetched: CheckpointState[] = [];
    let page = (await api.threads.getHistory(threadId, { limit: HISTORY_PAGE })) as unknown as CheckpointState[];
    const head = page[0];
    if (!head) return null;
    fetched.push(...page);
    let branch = branchOf(head, fetched);
    let pages = 1;
    while (branch.missing && page.length === HISTORY_PAGE && pages < MAX_PAGES) {
      const before = page[page.length - 1].checkpoint;
      page = (await api.threads.getHistory(threadId, { limit: HISTORY_PAGE, before: { configurable: { checkpoint_id: before.checkpoint_id } } })) as unknown as CheckpointState[];
      fetched.push(...page);
      pages += 1;
      branch = branchOf(head, fetched);
    }
    return { head, branch };
  });
  if (!read) {
    if (read === null) useServer.setState({ error: `thread ${threadId} has no checkpoints yet` });
    return;
  }
  let trace: Trace;
  try {
    trace = traceFromBranch(graph.loopscope?.name ?? graph.graphId, read.branch.chain);
  } catch (error) {
    useServer.setState({ error: messageOf(error) });
    return;
  }
  const next = read.head.next;
  // A run in flight stays busy until its stream ends (streamRun or joinRunElsewhere says so).
  const shown = useServer.getState().thread;
  const following = shown?.id === threadId && shown.busy ? { busy: true, ...(shown.joined ? { joined: shown.joined } : {}) } : { busy: false };
  useServer.setState({ thread: { id: threadId, next, truncated: read.branch.missing !== null, ...following } });
  useApp.getState().loadTrace(trace, { label: `thread ${threadId.slice(0, 8)}`, server: { key: threadKey(threadId), status: next.length > 0 ? 'paused' : 'stopped', foreign: graph.loopscope === null } });
};

/**
 * A run on this thread that was started elsewhere (another tab, the SDK, LangGraph Studio, a
 * cron): followed live until it ends, as a run started here is. Each event re-reads the thread.
 */
const joinRunElsewhere = async (threadId: string) => {
  if (!client || useServer.getState().thread?.busy) return;
  const api = client;
  const active = await attempt(async () => {
    for (const status of ['running', 'pending'] as const) {
      const [run] = await api.runs.list(threadId, { status, limit: 1 });
      if (run) return run;
    }
    return null;
  });
  if (!active) return;
  const shown = useServer.getState().thread;
  if (shown?.id !== threadId) return;
  useServer.setState({ thread: { ...shown, busy: true, joined: active.run_id } });
  await attempt(async () => {
    for await (const chunk of api.runs.joinStream(threadId, active.run_id, { streamMode: ['updates'] })) {
      if (chunk.event === 'error') throw new Error(`the server's run failed: ${JSON.stringify(chunk.data)}`);
      if (chunk.event !== 'metadata' && useServer.getState().thread?.id === threadId) await readThread(threadId);
    }
  });
  const thread = useServer.getState().thread;
  if (thread?.id === threadId) useServer.setState({ thread: { id: thread.id, next: thread.next, truncated: thread.truncated, busy: false } });
  await readThread(threadId);
  await refreshThreads();
};

/** Shows a thread as a run; if a run started elsewhere is going on there, follows it live. */
export const openThread = async (threadId: string) => {
  await readThread(threadId);
  if (useServer.getState().thread?.id === threadId) await joinRunElsewhere(threadId);
};

/**
 * Runs the graph on a thread (a new one when none is open) and follows it live: each node's
 * update redraws the run. `interruptBefore` stops it before nodes (`"*"`: Step, one node).
 */
/** `answered`: the LangGraph name of the approve node a person just answered. */
const streamRun = async (input: Record<string, unknown> | null, stepping = false, answered?: string) => {
  const graph = selectedGraph();
  if (!client || !graph) return;
  const api = client;
  const { nodeNames } = await import('../runtime/index.ts');
  // A run waits before an approve node for a person, as it does here (one just answered goes on).
  const names = graph.loopscope ? nodeNames(graph.loopscope) : new Map<string, string>();
  const approvals = (graph.loopscope?.nodes ?? []).filter((node) => node.kind === 'approve' && names.has(node.id)).map((node) => names.get(node.id) as string).filter((name) => name !== answered);
  const interruptBefore = stepping ? '*' : approvals.length ? approvals : undefined;
  const current = useServer.getState().thread;
  const threadId = current?.id ?? (await attempt(() => api.threads.create({ metadata: { created_by: 'loopscope' } })))?.thread_id;
  if (!threadId) return;
  useServer.setState({ thread: { id: threadId, next: current?.next ?? [], busy: true, truncated: current?.truncated ?? false }, error: null });
  await attempt(async () => {
    const stream = api.runs.stream(threadId, graph.assistantId, {
      input: current ? input : (input ?? {}), streamMode: ['updates'], ...(interruptBefore ? { interruptBefore } : {}),
    });
    for await (const chunk of stream) {
      if (chunk.event === 'error') throw new Error(`the server's run failed: ${JSON.stringify(chunk.data)}`);
      if (chunk.event === 'updates') await readThread(threadId);
    }
  });
  const thread = useServer.getState().thread;
  if (thread?.id === threadId) useServer.setState({ thread: { ...thread, busy: false } });
  await readThread(threadId);
  await refreshThreads();
};

/** A new run on a new thread, followed live. */
export const startRun = async () => {
  useServer.setState({ thread: null });
  await streamRun({});
};

/** Runs one node of the open thread (a new thread when none is open, or the open one has ended). */
export const stepOnServer = async () => {
  if (useServer.getState().thread?.next.length === 0) useServer.setState({ thread: null });
  const before = useServer.getState().thread;
  const steps = () => useApp.getState().runs.find((run) => run.server === threadKey(useServer.getState().thread?.id ?? ''))?.trace.steps.length ?? 0;
  const count = before ? steps() : 0;
  // A fresh thread stops before its first node once: go on past it, as the local Step does.
  for (let call = 0; call < 3; call += 1) {
    await streamRun(call === 0 && !before ? {} : null, true);
    if (steps() > count || (useServer.getState().thread?.next.length ?? 0) === 0) break;
  }
};

/** Goes on with the open thread to its end. */
export const continueOnServer = () => streamRun(null);

/** An approve node is next: the person's decision goes into the ledger, and the run goes on. */
export const decideOnServer = async (decision: 'approved' | 'denied') => {
  const thread = useServer.getState().thread;
  if (!client || !thread) return;
  const api = client;
  const state = await attempt(() => api.threads.getState<Record<string, unknown>>(thread.id));
  if (!state) return;
  const updated = await attempt(() => api.threads.updateState(thread.id, { values: { _run: { ...(state.values._run as object), decision } } }));
  if (updated === undefined) return;
  await streamRun(null, false, thread.next[0]);
};

/**
 * Forks the open thread after `step`: the state edits go into that step's checkpoint as a new
 * branch (updateState), and the run goes on from there; nothing before it runs again.
 */
export const forkOnServer = async (step: number, edits: Record<string, unknown>) => {
  const thread = useServer.getState().thread;
  const graph = selectedGraph();
  if (!client || !thread || !graph) return;
  const api = client;
  const found = await attempt(async () => {
    let before: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const page = (await api.threads.getHistory(thread.id, { limit: HISTORY_PAGE, ...(before ? { before: { configurable: { checkpoint_id: before } } } : {}) })) as unknown as CheckpointState[];
      const hit = page.find((state) => (state.values._step as TraceStep | null | undefined)?.step === step);
      if (hit || page.length < HISTORY_PAGE) return hit ?? null;
      before = page[page.length - 1].checkpoint.checkpoint_id ?? undefined;
    }
    return null;
  });
  if (!found) {
    if (found === null) useServer.setState({ error: `no checkpoint of step ${step} on thread ${thread.id}` });
    return;
  }
  const { nodeNames } = await import('../runtime/index.ts');
  const node = (found.values._step as TraceStep).node;
  const asNode = (graph.loopscope && nodeNames(graph.loopscope).get(node)) || node;
  const ok = await attempt(() => api.threads.updateState(thread.id, { values: edits, checkpointId: found.checkpoint.checkpoint_id ?? undefined, asNode }));
  if (ok === undefined) return;
  await streamRun(null);
};
