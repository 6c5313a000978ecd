/**
 * The run on a LangGraph server: the open thread of a connection (langgraphServer.ts) as the
 * executor behind the same `RunController` contract as a run in the page (run.ts) — its steps read
 * back from the thread's checkpoints, followed live as they stream, stepped (interruptBefore),
 * resumed after an `interrupt()`, forked (updateState on a checkpoint) and approved. Where it
 * stands is a run session (runtime/session.ts), as a run in the page's is: the status, the
 * approval it waits on (in the same words) and the Step past a fresh thread's first stop are that
 * module's. The store's run actions keep it as a plain value (`followRun`) and drive it as they do
 * a run in the page. It calls into no store: the thread on screen is its connection's to keep
 * (langgraphServer.ts), and how it is shown is told to a listener (`onShown`, shownInApp.ts), as its
 * steps are told to `subscribe`'s.
 */
import type { GraphFile } from '../graph/index.ts';
import { type ForkEdits, type PendingApproval, type RunController, type RunEvent, type Unsupported } from '../runtime/controller.ts';
import { answersByStep, resumesByRun, writersOf } from '../runtime/serverAnswers.ts';
import { emptyTold, foldEvent, withTold, type RunTold } from '../runtime/serverEvents.ts';
import { branchesAt, forkRequest, ownWrites } from '../runtime/serverFork.ts';
import { branchOf, foreignStateAfter, foreignStateBefore, foreignTrace, subgraphForkRefusal, traceFromBranch, type CheckpointState } from '../runtime/serverTrace.ts';
import { agentState } from '../runtime/state.ts';
import { startSession, goPastFreshThread, stopsBefore, tellEach, toldBy, transition, withDecision, type RunSession, type SessionEvent } from '../runtime/session.ts';
import { approvalWaited } from '../runtime/approvalWaited.ts';
import { NO_PAUSE_RULES, type PauseRules } from '../runtime/pauseRules.ts';
import { traceOfValues } from '../runtime/runTrace.ts';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { LIST_PAGE, openConnection, serverConnection, shortId, standInFor, type Client, type Connection } from './langgraphServer.ts';
import { showInApp, type ShownEvent } from './shownInApp.ts';

/**
 * The runtime, for the node names of a graph made here: LangGraph with it, a megabyte of script that
 * the Server panel does not load until a run of such a graph needs it. The readers of a thread's
 * checkpoints and events come with this module: the Server panel that loads it imports them too.
 */
const loadRuntime = () => import('../runtime/index.ts');

/** Checkpoints asked for per history request: a thread is read a page at a time, newest first. */
export const HISTORY_PAGE = 50;
/** Pages read for one run at most; a longer branch shows its newest steps and says so. */
const MAX_PAGES = 20;
/** Subgraph runs read for one thread at most (a page of each). */
const MAX_SUBGRAPHS = 20;
/** Threads whose runs' event streams are remembered (what they told of tasks, attempts and routers), the newest. */
const MAX_TOLD_THREADS = 20;

const threadKey = (origin: string, threadId: string) => `${origin} ${threadId}`;
/** A branch of a thread that is not its newest keeps a run of its own, so it stays beside the others (Compare runs). */
const branchKey = (origin: string, threadId: string, head: string) => `${threadKey(origin, threadId)} @${head}`;

/** Why a run joined from elsewhere shows no routes, attempts or Send inputs: the modes it was started with, as the server lists them. */
export const untoldWords = (runId: string, modes: unknown) => {
  const listed = (Array.isArray(modes) ? modes : [modes]).filter((mode): mode is string => typeof mode === 'string');
  const started = listed.length ? `with the stream modes ${listed.join(', ')}` : 'with stream modes the server does not list';
  return `Run ${shortId(runId)} was started elsewhere ${started}, and the server streamed no events for it when joined (it streams a joined run in the modes it was started with): its routers' return values, retry attempts and Send inputs are not shown; a run started here has them.`;
};

/** A run's `error` event, as the panel says it, for a run started here or joined alike. */
const runFailed = (data: unknown) => `the server's run failed: ${JSON.stringify(data)}`;

const NOT_FROM_HERE: Unsupported = { unsupported: 'A run on a LangGraph server goes on to its next interrupt: it cannot be paused or stopped from here' };

/** The open thread of one connection as a run: reading it, starting, stepping, resuming, forking and comparing its runs. */
export class ServerRun implements RunController {
  readonly connection: Connection;
  /** Where the open thread stands (session.ts). */
  private current: RunSession = startSession('idle');
  /** The listeners, each with the thread it follows and how many of its steps it was told. */
  private readonly listeners = new Map<(event: RunEvent) => void, { thread: string | undefined; told: number }>();
  /** Stops following the connection's state (once the connection is closed or replaced). */
  private readonly unfollowServer: () => void;
  /** The approve node whose decision was just written, on its thread: the next run there goes on past it. */
  private answered: { thread: string; node: string } | undefined;
  /** The open thread's run as last read: its key in the store, how it is shown, and its trace. */
  private shown: { key: string; thread: string; label: string; graph: GraphFile; foreign: boolean; trace: Trace } | null = null;
  /** The checkpoints of the open thread read last, any branch, newest first: a step's own writes and its branches are read from them. */
  private fetched: { thread: string; states: CheckpointState[] } | null = null;
  /** A fork from a node that routes with Command({goto}): where the next run goes, from the edit's checkpoint. */
  private gotoAfterFork: { thread: string; checkpointId: string; goto: string } | undefined;
  /** What the event streams of the runs started here told, by thread: only a run followed from its start has it. */
  private readonly told = new Map<string, RunTold>();
  /** Whoever shows the run (the app's store, through shownInApp.ts): told how, and waited for. */
  private readonly showers = new Set<(event: ShownEvent) => void | Promise<void>>();
  /** The LangGraph name of each node of a Loopscope export (compile.ts nodeNames), by id: a thread's `next` names nodes so. */
  private readonly compiledNames = new WeakMap<GraphFile, ReadonlyMap<string, string>>();

  constructor(connection: Connection) {
    this.connection = connection;
    this.unfollowServer = this.connection.onChange(() => this.changed());
    this.changed();
  }

  /** The LangGraph names of a Loopscope export's nodes, by id, as the export compiled them (with the runtime, loaded once needed). */
  private async namesOf(graph: GraphFile): Promise<ReadonlyMap<string, string>> {
    const known = this.compiledNames.get(graph);
    if (known) return known;
    const names = (await loadRuntime()).nodeNames(graph);
    this.compiledNames.set(graph, names);
    return names;
  }

  /** The node id of a LangGraph name of the selected graph (a name that is no Loopscope export's node's is its own id). */
  private idOf(name: string) {
    const graph = this.connection.selectedGraph()?.loopscope;
    const names = graph ? this.compiledNames.get(graph) : undefined;
    return (names && [...names].find(([, compiled]) => compiled === name)?.[0]) ?? name;
  }

  /** The approve node just answered on the open thread, if any (its LangGraph name). */
  private answeredHere() {
    const thread = this.connection.thread();
    return thread && this.answered?.thread === thread.id ? this.answered.node : undefined;
  }

  /** Reads the pages of a thread's history (newest first) until the branch of `head` is whole, or MAX_PAGES. */
  private async readBranch(threadId: string, ns?: string, headId?: string) {
    const checkpoint = ns ? { checkpoint: { checkpoint_ns: ns } } : {};
    let page = (await this.connection.api.threads.getHistory(threadId, { limit: HISTORY_PAGE, ...checkpoint })) as unknown as CheckpointState[];
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
      page = (await this.connection.api.threads.getHistory(threadId, { limit: HISTORY_PAGE, before: { configurable: { checkpoint_id: before.checkpoint_id, ...(ns ? { checkpoint_ns: ns } : {}) } }, ...checkpoint })) as unknown as CheckpointState[];
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
    const graph = this.connection.selectedGraph();
    if (!graph) return;
    this.connection.say(null);
    const read = await this.connection.attempt(async () => {
      // Known before the thread is shown: where it waits is read from its `next`, which names nodes as LangGraph does.
      if (graph.loopscope) await this.namesOf(graph.loopscope);
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
    if (!read || !this.connection.current()) {
      if (read === null) this.connection.say(`thread ${threadId} has no checkpoints yet`);
      return;
    }
    const next = Array.isArray(read.head.next) ? read.head.next.filter((name): name is string => typeof name === 'string') : [];
    const interrupts = (Array.isArray(read.head.tasks) ? read.head.tasks : []).flatMap((task) => (Array.isArray(task?.interrupts) ? task.interrupts : []).map((interrupt: { value?: unknown } | null) => ({ node: String(task.name), value: interrupt?.value })));
    // A run in flight stays busy until its stream ends (streamRun or joinRunElsewhere says so).
    const shown = this.connection.thread();
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
    this.connection.showThread({ id: threadId, next, truncated: read.branch.missing !== null, interrupts, ...following, ...(failed === undefined ? {} : { failed }), branch: { head, newest, forks }, answers: read.answers, ...untold });
    const key = newest ? threadKey(this.connection.origin, threadId) : branchKey(this.connection.origin, threadId, head);
    this.shown = { key, thread: threadId, label: newest ? `thread ${shortId(threadId)}` : `thread ${shortId(threadId)}, branch ${shortId(head)}`, graph: graph.loopscope ?? standInFor(graph, this.connection.origin), foreign: graph.loopscope === null, trace: read.trace };
    this.changed();
    await this.follow();
  }

  /** The answer each step that waited on an interrupt() was given, by its checkpoint: from the thread's run that wrote that checkpoint, which resumed it. */
  private async answersOf(threadId: string, steps: readonly TraceStep[], states: readonly CheckpointState[]): Promise<Record<string, unknown>> {
    const runs = await this.connection.api.runs.list(threadId, { limit: LIST_PAGE });
    return Object.fromEntries(answersByStep(steps, resumesByRun(Array.isArray(runs) ? runs.slice(0, LIST_PAGE) : []), writersOf(states)));
  }

  /** Makes the open thread's run the store's live run (again, after a run in the page took its place): the debugger's actions drive it. */
  async follow() {
    if (!this.shown) return;
    const { key, label, graph, foreign } = this.shown;
    await this.show({ type: 'shown', run: this, shown: { key, label, graph, ...(foreign ? { foreign } : {}) } });
  }

  /** Tells whoever shows the run how (shownInApp.ts), as `subscribe` tells its steps; answers how to stop. */
  onShown(listener: (event: ShownEvent) => void | Promise<void>) {
    this.showers.add(listener);
    return () => {
      this.showers.delete(listener);
    };
  }

  private async show(event: ShownEvent) {
    await Promise.all([...this.showers].map((listener) => listener(event)));
  }

  /**
   * A run on this thread that was started elsewhere (another tab, the SDK, LangGraph Studio, a
   * cron): followed live until it ends, as a run started here is. Each event re-reads the thread.
   */
  private async joinRunElsewhere(threadId: string) {
    if (this.connection.thread()?.busy) return;
    const active = await this.connection.attempt(async () => {
      for (const status of ['running', 'pending'] as const) {
        const [run] = await this.connection.api.runs.list(threadId, { status, limit: 1 });
        if (run) return run;
      }
      return null;
    });
    if (!active) return;
    const shown = this.connection.thread();
    if (shown?.id !== threadId) return;
    this.connection.showThread({ ...shown, busy: true, joined: active.run_id });
    // `events` as for a run started here (each task's input, attempts, routers); a server streams a
    // joined run in the modes it was started with, which may not hold it: then that is said.
    const foreign = !this.connection.selectedGraph()?.loopscope;
    let heard = false;
    await this.connection.attempt(async () => {
      const { told, foldEvent } = await this.toldOf(threadId);
      for await (const chunk of this.connection.api.runs.joinStream(threadId, active.run_id, { streamMode: foreign ? ['updates', 'events'] : ['updates'] })) {
        if (chunk.event === 'error') throw new Error(runFailed(chunk.data));
        if (chunk.event === 'events') {
          heard = true;
          foldEvent(told, chunk.data);
        } else if (chunk.event !== 'metadata' && this.connection.thread()?.id === threadId) await this.readThread(threadId);
      }
    });
    const thread = this.connection.thread();
    const untold = foreign && !heard ? untoldWords(active.run_id, (active as { kwargs?: { stream_mode?: unknown } }).kwargs?.stream_mode) : undefined;
    if (thread?.id === threadId) this.connection.showThread({ id: thread.id, next: thread.next, truncated: thread.truncated, interrupts: thread.interrupts, busy: false, ...(untold ? { untold } : {}) });
    await this.readThread(threadId);
    await this.connection.refreshThreads();
  }

  /** What the event streams of the thread's runs told, kept as its newest (MAX_TOLD_THREADS are kept), to fold a stream's events into. */
  private async toldOf(threadId: string) {
    const told = this.told.get(threadId) ?? emptyTold();
    this.told.delete(threadId);
    this.told.set(threadId, told);
    for (const old of [...this.told.keys()].slice(0, -MAX_TOLD_THREADS)) this.told.delete(old);
    return { told, foldEvent };
  }

  /** Shows a thread as a run; if a run started elsewhere is going on there, follows it live. */
  async openThread(threadId: string) {
    await this.readThread(threadId);
    if (this.connection.thread()?.id === threadId) await this.joinRunElsewhere(threadId);
  }

  /**
   * Runs the graph on a thread (a new one when none is open) and follows it live: each node's
   * update redraws the run. `interruptBefore` stops it before nodes (`"*"`: Step, one node; a
   * drawn graph's breakpoints; a Loopscope export's node breakpoints, as set in the page, and its
   * nodes that ask a person but `answered`). `run.command` resumes an interrupt.
   */
  private async streamRun(run: { input?: unknown; command?: { resume: unknown } | { goto: string }; checkpointId?: string }, stepping = false, { answered, breakpoints }: { answered?: string; breakpoints?: readonly string[] } = {}) {
    const graph = this.connection.selectedGraph();
    if (!graph) return;
    // A Loopscope export stops where the page's run of it would: its breakpoints, and before a node that asks a person (one just answered goes on).
    const pauses = graph.loopscope ? stopsBefore(graph.loopscope, await this.namesOf(graph.loopscope), { answered, breakpoints }) : this.connection.breakpoints();
    const interruptBefore = stepping ? '*' : pauses.length ? pauses : undefined;
    const current = this.connection.thread();
    const threadId = current?.id ?? (await this.connection.attempt(() => this.connection.api.threads.create({ metadata: { created_by: 'loopscope' } })))?.thread_id;
    if (!threadId) return;
    let failure: string | null = null;
    this.connection.showThread({ id: threadId, next: current?.next ?? [], busy: true, truncated: current?.truncated ?? false, interrupts: current?.interrupts ?? [] }, null);
    await this.connection.attempt(async () => {
      const stream = this.connection.api.runs.stream(threadId, graph.assistantId, {
        ...(run.command ? { command: run.command } : { input: (current ? (run.input ?? null) : (run.input ?? {})) as Record<string, unknown> | null }),
        // `events`: each task's input, each attempt, each router's run (serverEvents.ts), which no checkpoint keeps;
        // a Loopscope export's checkpoints carry all of its steps already.
        streamMode: graph.loopscope ? ['updates'] : ['updates', 'events'], ...(interruptBefore ? { interruptBefore } : {}), ...(this.connection.runConfig ? { config: this.connection.runConfig } : {}), ...(run.checkpointId ? { checkpointId: run.checkpointId } : {}),
      });
      const { told, foldEvent } = await this.toldOf(threadId);
      for await (const chunk of stream) {
        // A node that threw is told by the thread itself (a step with its error, the run stopped there): any other failure is said here.
        if (chunk.event === 'error') failure = runFailed(chunk.data);
        if (chunk.event === 'events') foldEvent(told, chunk.data);
        if (chunk.event === 'updates') await this.readThread(threadId);
      }
    });
    const thread = this.connection.thread();
    if (thread?.id === threadId) this.connection.showThread({ ...thread, busy: false });
    await this.readThread(threadId);
    if (failure && !this.connection.thread()?.failed && this.connection.current()) this.connection.say(failure);
    await this.connection.refreshThreads();
  }

  /**
   * A new run on a new thread, followed live; `input` is the graph's input (the person's JSON, for a
   * graph drawn from the server); a Loopscope export's stops at the node `breakpoints` set in the page.
   */
  async startRun(input: unknown = {}, breakpoints: readonly string[] = []) {
    this.connection.showThread(null);
    await this.streamRun({ input }, false, { breakpoints });
  }

  /**
   * A run on the open thread with `input` (a chat box's message, which the messages reducer appends
   * to its conversation), from the branch on screen; a new thread when none is open.
   */
  async sendOnThread(input: Record<string, unknown>) {
    const thread = this.connection.thread();
    if (!thread) return this.startRun(input);
    await this.streamRun({ input, ...(thread.branch && !thread.branch.newest ? { checkpointId: thread.branch.head } : {}) });
  }

  /** Runs one node of the open thread (a new thread when none is open, or the open one has ended). */
  async stepOnServer(input: unknown = {}) {
    if (this.connection.thread()?.next.length === 0) this.connection.showThread(null);
    const before = this.connection.thread();
    const steps = () => this.trace.steps.length;
    const count = before ? steps() : 0;
    await goPastFreshThread(async (call) => {
      await this.streamRun({ input: call === 0 && !before ? input : null }, true);
      return steps() > count || (this.connection.thread()?.next.length ?? 0) === 0 ? 'done' : 'idle';
    });
  }

  /** The thread waits on an `interrupt()`: the person's answer resumes it (`Command({resume})`). */
  resumeOnServer(value: unknown) {
    return this.streamRun({ command: { resume: value } });
  }

  /** The checkpoint a Loopscope export's step `step` made, read back from the thread's history. */
  private async loopscopeCheckpointOf(threadId: string, step: number) {
    let before: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const page = (await this.connection.api.threads.getHistory(threadId, { limit: HISTORY_PAGE, ...(before ? { before: { configurable: { checkpoint_id: before } } } : {}) })) as unknown as CheckpointState[];
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
    if (!shown || !fetched || fetched.thread !== this.connection.thread()?.id) return null;
    return ownWrites(fetched.states, shown);
  }

  /**
   * The run on screen, the thread's newest branch, is kept as a run of its own (keyed by its head):
   * a fork makes a newer branch, and the one it came from stays beside it, to show and compare.
   */
  private keepShownBranch() {
    const thread = this.connection.thread();
    if (!thread?.branch?.newest) return;
    const base = threadKey(this.connection.origin, thread.id);
    const kept = branchKey(this.connection.origin, thread.id, thread.branch.head);
    void this.show({ type: 'branch_kept', base, kept: { key: kept, label: `branch ${shortId(thread.branch.head)}` } });
  }

  /**
   * A fork of a step of a graph drawn from the server, as LangGraph forks: the step's own writes,
   * edited, written into the checkpoint it ran from as its node (`updateState`), so reducers apply
   * them once in place of what it wrote; a node that routes with Command({goto}) goes to `goto`.
   */
  private async branchForeign(step: number, values: Record<string, unknown>, goto: string | null): Promise<boolean> {
    const thread = this.connection.thread();
    const shown = this.trace.steps[step - 1];
    if (!thread || !shown) return false;
    const refusal = subgraphForkRefusal(this.trace.steps, step - 1);
    const request = refusal ? { refused: refusal } : forkRequest(shown, values, goto);
    if ('refused' in request) {
      this.connection.say(request.refused);
      return false;
    }
    this.connection.noteFork(null);
    const made = await this.connection.attempt(async () => {
      const update = await this.connection.api.threads.updateState(thread.id, { values: request.values, checkpointId: request.checkpointId, asNode: request.asNode });
      this.keepShownBranch();
      const checkpointId = (update as { checkpoint?: { checkpoint_id?: string } }).checkpoint?.checkpoint_id;
      // A routing function chose again from the edited writes; a Command's goto is not in them: the run goes where the person said.
      const after = await this.connection.api.threads.getState(thread.id);
      return { checkpointId, next: after.next };
    });
    if (!made) return false;
    const { name, chose } = shown.server ?? { name: request.asNode, chose: [] };
    if (request.goto && made.checkpointId && made.next.length === 0) this.gotoAfterFork = { thread: thread.id, checkpointId: made.checkpointId, goto: request.goto };
    // Said beside the fork, so that a goto not taken, or a run that ends after the edit, is never silent.
    else if (request.goto && !made.next.includes(request.goto)) this.connection.noteFork(`${name}'s routing function chose ${made.next.join(', ')} from the edited writes: Then go to is for a node that routes with Command({goto})`);
    else if (!request.goto && made.next.length === 0 && chose.some((target) => target !== '__end__')) this.connection.noteFork(`The edited writes of ${name} route nowhere, so the run ends after them; if ${name} routes with Command({goto}), fork again choosing where it goes in Then go to`);
    return true;
  }

  /** A Loopscope export's fork: the edits written into the checkpoint of `step` as that step's node, a new branch of the thread. */
  private async branchAt(step: number, edits: Record<string, unknown>): Promise<boolean> {
    const thread = this.connection.thread();
    const loopscope = this.connection.selectedGraph()?.loopscope;
    if (!thread || !loopscope) return false;
    const found = await this.connection.attempt(() => this.loopscopeCheckpointOf(thread.id, step));
    if (found === undefined) return false;
    if (!found) {
      this.connection.say(`no checkpoint of step ${step} on thread ${thread.id}`);
      return false;
    }
    const node = (await this.namesOf(loopscope)).get(found.node) || found.node;
    const ok = await this.connection.attempt(() => this.connection.api.threads.updateState(thread.id, { values: edits, checkpointId: found.id, asNode: node }));
    return ok !== undefined;
  }

  /**
   * Shows another branch of the open thread (by its newest checkpoint) as a run of its own; with
   * `compare`, beside the branch on screen in Compare runs, their node paths aligned.
   */
  async showBranch(head: string, compare = false) {
    const thread = this.connection.thread();
    if (!thread || thread.branch?.head === head) return;
    const left = this.shown?.key;
    await this.readThread(thread.id, head);
    if (compare) await this.show({ type: 'compare', left, right: this.shown?.key });
  }

  /** Reads `otherThreadId` as a run beside the thread on screen and compares the two, their node paths aligned. */
  async compareWith(otherThreadId: string) {
    const shown = this.connection.thread();
    if (!shown || shown.id === otherThreadId) return;
    await this.readThread(otherThreadId);
    await this.show({ type: 'compare', left: threadKey(this.connection.origin, shown.id), right: threadKey(this.connection.origin, otherThreadId) });
  }

  /** The open thread's trace as last read, if it is still the open thread's. */
  private shownTrace(): Trace | undefined {
    const thread = this.connection.thread();
    return thread && this.shown?.thread === thread.id ? this.shown.trace : undefined;
  }

  /**
   * The approval the open thread of a Loopscope export waits on (approvalWaited.ts, as the page's run
   * decides it): `next` and the node just answered are LangGraph names, mapped back to node ids; the
   * ledger is on the server, so no answer given in advance is known here.
   */
  private approvalWaited(): PendingApproval | null {
    const graph = this.connection.selectedGraph()?.loopscope;
    if (!graph) return null;
    const answered = this.answeredHere();
    const next = (this.connection.thread()?.next ?? []).map((name) => this.idOf(name));
    return approvalWaited(graph, { next, state: this.trace.finalState, answered: answered === undefined ? [] : [this.idOf(answered)] });
  }

  /**
   * The one place the run's session changes (session.ts): where the open thread stands, read again
   * at each change of the connection's state and each read of the thread; its effects are told.
   */
  private changed() {
    const thread = this.connection.thread();
    const current = this.connection.current();
    const event: SessionEvent = !current
      ? { type: 'disconnected' }
      : { type: 'thread_read', thread: thread && { busy: thread.busy, ended: thread.next.length === 0 || thread.failed !== undefined, pending: this.approvalWaited() } };
    const { session, effects } = transition(this.current, event);
    this.current = session;
    if (current) for (const [listener, heard] of Array.from(this.listeners)) this.tellSteps(listener, heard);
    for (const told of toldBy(effects)) tellEach(this.listeners.keys(), told);
    if (!current) this.unfollowServer();
  }

  /** Tells a listener the steps it was not told yet of the thread it follows: what another thread does later is that thread's run's. */
  private tellSteps(listener: (event: RunEvent) => void, heard: { thread: string | undefined; told: number }) {
    const open = this.connection.thread()?.id;
    if (open === undefined || this.shown?.thread !== open) return;
    heard.thread ??= open;
    if (open !== heard.thread) return;
    const steps = this.trace.steps;
    for (; heard.told < steps.length; heard.told += 1) listener({ type: 'step', step: steps[heard.told] });
    heard.told = Math.min(heard.told, steps.length);
  }

  get session(): RunSession {
    return this.current;
  }

  /** The run of the thread read last: while another thread starts, the run on screen keeps its own steps. */
  get trace(): Trace {
    return this.shown?.trace ?? traceOfValues(this.connection.selectedGraph()?.graphId ?? '', {}, []);
  }

  get next(): string | null {
    const name = this.connection.thread()?.next[0];
    return name === undefined ? null : this.idOf(name);
  }

  /** Tells the open thread's new steps and changes of status, as the server's answers come in. */
  subscribe(listener: (event: RunEvent) => void) {
    // The thread open now (or, with none open, the first one read), and its steps so far.
    this.listeners.set(listener, { thread: this.connection.thread()?.id, told: this.trace.steps.length });
    return () => {
      this.listeners.delete(listener);
    };
  }

  async step(): Promise<TraceStep | null> {
    const before = this.connection.thread() ? this.trace.steps.length : 0;
    await this.stepOnServer();
    const steps = this.trace.steps;
    return steps.length > before ? (steps.at(-1) ?? null) : null;
  }

  /** Goes on with the open thread to its end or its next interrupt (a new thread when none is open); a Loopscope export's also stops at the node breakpoints of `rules`. */
  run(rules: PauseRules = NO_PAUSE_RULES) {
    const breakpoints = rules.breakpoints.nodes;
    const answered = this.answeredHere();
    this.answered = undefined;
    const goto = this.gotoAfterFork;
    this.gotoAfterFork = undefined;
    const thread = this.connection.thread();
    // Going on with no answer would run the waiting node again, to the same interrupt.
    if (thread?.interrupts.length && !goto) {
      this.connection.say(`${thread.interrupts.map((interrupt) => interrupt.node).join(', ')} waits on interrupt(): answer it with Resume on server`);
      return Promise.resolve();
    }
    if (goto && goto.thread === thread?.id) return this.streamRun({ command: { goto: goto.goto }, checkpointId: goto.checkpointId }, false, { breakpoints });
    // An older branch goes on from its own newest checkpoint, not the thread's.
    return this.streamRun({ input: null, ...(thread?.branch && !thread.branch.newest ? { checkpointId: thread.branch.head } : {}) }, false, { answered, breakpoints });
  }

  pause() {
    return NOT_FROM_HERE;
  }

  stop() {
    return NOT_FROM_HERE;
  }

  /** An approve node is next: the person's decision goes into the ledger; `run()` goes on past the node. */
  async decide(decision: 'approved' | 'denied') {
    const thread = this.connection.thread();
    if (!thread) return;
    const state = await this.connection.attempt(() => this.connection.api.threads.getState<Record<string, unknown>>(thread.id));
    if (!state) return;
    const updated = await this.connection.attempt(() => this.connection.api.threads.updateState(thread.id, { values: { _run: withDecision(state.values._run as object, decision) } }));
    if (updated === undefined) return;
    this.answered = { thread: thread.id, node: thread.next[0] };
    this.changed();
  }

  /** The state after a step of the open thread, as the server's checkpoints hold it. */
  async stateAt(step: number) {
    const trace = this.shownTrace();
    const thread = this.connection.thread();
    if (!trace || !thread) return null;
    if (!this.connection.selectedGraph()?.loopscope) {
      if (step === 0) return trace.steps.length > 0 ? foreignStateBefore(trace.steps, 0) : null;
      return step <= trace.steps.length ? foreignStateAfter(trace.steps, step - 1) : null;
    }
    const found = await this.connection.attempt(() => this.loopscopeCheckpointOf(thread.id, step));
    return found ? agentState(found.values) : null;
  }

  /**
   * The open thread forked after `step`: the state edits go into that step's checkpoint as a new
   * branch (updateState as the step's node); `run()` goes on from there and nothing before it runs
   * again. The server runs its own skills: scripted results and another outcome are not for it.
   */
  async fork(atStep: number, edits: ForkEdits): Promise<RunController | Unsupported> {
    const foreign = this.connection.selectedGraph()?.loopscope === null;
    if (Object.keys(edits.nextResults ?? {}).length > 0 || (edits.outcome !== undefined && !foreign)) return { unsupported: 'A run on a LangGraph server calls its own skills: a fork there takes state edits only' };
    // On a graph drawn from the server, the step's "outcome" is where a Command sends the run (its goto).
    const branched = foreign ? await this.branchForeign(atStep, edits.state ?? {}, edits.outcome ?? null) : await this.branchAt(atStep, edits.state ?? {});
    const thread = this.connection.thread();
    if (!branched || !thread) return { unsupported: this.connection.error() ?? `no checkpoint of step ${atStep} to fork from` };
    // The new branch is the run on screen, ready to go on.
    await this.readThread(thread.id);
    return this;
  }
}

/** The run of each connection, made when first asked for. */
const runs = new WeakMap<Connection, ServerRun>();
const runOf = (connection: Connection) => {
  let made = runs.get(connection);
  if (!made) {
    made = new ServerRun(connection);
    made.onShown(showInApp);
    runs.set(connection, made);
  }
  return made;
};

/** The open thread's run of the connection, when connected. */
export const serverController = () => {
  const connection = serverConnection();
  return connection && runOf(connection);
};

/** Connects to the server at `text` (langgraphServer.ts) and answers its run. */
export const connect = async (text: string, client?: Client) => {
  const connection = await openConnection(text, client);
  return connection && runOf(connection);
};
