/**
 * One run session as a value: where a run stands (its status, the approval it waits on, why it
 * paused), changed only by `transition(session, event) → { session, effects }` (XState's shape),
 * pure. Each executor — a run in the page (run.ts) and a LangGraph server's open thread
 * (src/server/serverRun.ts) — applies the events of what it did and carries out the effects: they
 * are what its listeners are told. Beside it, what both executors share of a run that is not a
 * LangGraph call: the nodes a run asks a person before and the words of the question, the answer
 * written into the ledger, how listeners are told, and the Step that goes on past a fresh thread's
 * first stop.
 */
import { kindDefinition, type AskedConfig, type GraphFile } from '../graph/index.ts';
import { isUnsupported, type PendingApproval, type RunController, type RunEvent, type RunStatus, type Unsupported } from './controller.ts';
import type { PauseRules } from './pauseRules.ts';
import { deniedAction } from './kinds/approve.ts';

export interface RunSession {
  readonly status: RunStatus;
  /** The approval the run waits on; null when it waits on none. */
  readonly pending: PendingApproval | null;
  /** Why the run paused last, when a breakpoint or a condition paused it (the store shows it beside the run). */
  readonly pausedBy: string | null;
}

/** What happened to a run, as far as its session goes. */
export type SessionEvent =
  /** A Run or Continue began. */
  | { type: 'run_started' }
  /** A Step or Run came back with the run going on; `by` says which breakpoint or condition held it. */
  | { type: 'paused'; by?: string }
  /** The next node asks a person, and nobody answered yet. */
  | { type: 'approval_asked'; pending: PendingApproval }
  /** A person answered the approval: the run goes on with `step()` or `run()`. */
  | { type: 'decided' }
  /** The run ended: its end, a guard, no route, a failure, or a person's stop. */
  | { type: 'stopped' }
  /**
   * A server's thread read again: the server holds the run, so the session stands where the thread
   * does (a fork or a new thread goes on after an end); `thread` is null when none is open.
   */
  | { type: 'thread_read'; thread: { busy: boolean; ended: boolean; pending: PendingApproval | null } | null }
  /** The connection to the server the run is on was closed or replaced: nothing goes on from here. */
  | { type: 'disconnected' }
  /** A person asks the run for something (the store's run actions): what the executor is to do is the effects. */
  | { type: 'asked'; command: Command };

/**
 * What a person asks of a run through its session: a Run or Continue, a Pause, an answer to its
 * approval (which goes on as a Run). A Run takes where it may pause and its speed as data (`rules`),
 * read between nodes. A Step is no command here: it is always the one call `step()`, made directly.
 */
export type Command = { type: 'run'; rules?: PauseRules } | { type: 'pause' } | { type: 'decide'; decision: 'approved' | 'denied'; rules?: PauseRules };

/** What is done after a transition: an event told to the run's listeners (by its executor), or a call of the executor (by whoever asked). */
export type SessionEffect = { type: 'tell'; event: RunEvent } | { type: 'call'; command: Command };

export interface Transition {
  session: RunSession;
  effects: SessionEffect[];
}

/** What happened to a run, as far as its status goes. */
export type RunStatusEvent = Extract<SessionEvent, { type: 'run_started' | 'paused' | 'approval_asked' | 'decided' | 'stopped' }>;

/** Where a run stands when its executor is made: fresh, restored from a journal, forked or unable to start. */
export const startingStatus = (run: { stopped: boolean; awaitingApproval: boolean; stepsRan: number }): RunStatus =>
  run.stopped ? 'stopped' : run.awaitingApproval ? 'awaiting_approval' : run.stepsRan > 0 ? 'paused' : 'idle';

/** The status chart: the status after `event`. A stopped run stays stopped (a fork is a new run); only a pending approval is answered. */
export const nextStatus = (status: RunStatus, event: Pick<RunStatusEvent, 'type'>): RunStatus => {
  if (status === 'stopped') return status;
  switch (event.type) {
    case 'run_started':
      return 'running';
    case 'paused':
      return 'paused';
    case 'approval_asked':
      return 'awaiting_approval';
    case 'decided':
      return status === 'awaiting_approval' ? 'paused' : status;
    case 'stopped':
      return 'stopped';
  }
};

/** A session made where a run stands when its executor is made. */
export const startSession = (status: RunStatus, pending: PendingApproval | null = null): RunSession => ({ status, pending: status === 'awaiting_approval' ? pending : null, pausedBy: null });

const tell = (event: RunEvent): SessionEffect => ({ type: 'tell', event });

/** The status a server thread stands at (no thread open: idle). */
const threadStatus = (thread: Extract<SessionEvent, { type: 'thread_read' }>['thread']): RunStatus =>
  !thread ? 'idle' : thread.busy ? 'running' : thread.ended ? 'stopped' : thread.pending ? 'awaiting_approval' : 'paused';

/**
 * A command's calls: an answer goes on at once (decide, then a Run with the answer's rules); a Pause
 * is for a run that is running. The session stays as it is: the executor moves it as it does the
 * calls (the reason of the last pause goes when the run starts or pauses again), so whoever asks
 * reads the run's own session and keeps no copy of it.
 */
const asked = (session: RunSession, command: Command): Transition => {
  const calls: Command[] = command.type === 'decide' ? [{ type: 'decide', decision: command.decision }, { type: 'run', rules: command.rules }] : command.type === 'pause' && session.status !== 'running' ? [] : [command];
  return { session, effects: calls.map((call) => ({ type: 'call', command: call })) };
};

/** The session after `event`, and what to do: tell a changed status, an approval asked, a pause's reason; call the executor for a command. */
export const transition = (session: RunSession, event: SessionEvent): Transition => {
  if (event.type === 'asked') return asked(session, event.command);
  let status: RunStatus;
  let pending = session.pending;
  let pausedBy = session.pausedBy;
  const effects: SessionEffect[] = [];
  switch (event.type) {
    case 'thread_read':
      status = threadStatus(event.thread);
      pending = status === 'awaiting_approval' ? (event.thread?.pending ?? null) : null;
      break;
    case 'disconnected':
      status = 'stopped';
      pending = null;
      break;
    default:
      // The status chart (nextStatus): a stopped run stays stopped, only a pending approval is answered.
      status = nextStatus(session.status, event);
      if (session.status === 'stopped') return { session, effects };
      if (event.type === 'run_started') pausedBy = null;
      if (event.type === 'paused') {
        pending = null;
        pausedBy = event.by ?? null;
      }
      if (event.type === 'approval_asked') pending = event.pending;
      if (event.type === 'decided' || event.type === 'stopped') pending = null;
  }
  if (status !== session.status) effects.push(tell({ type: 'status', status }));
  // Said however the status went: a fork held at once was paused already.
  if (event.type === 'paused' && event.by) effects.push(tell({ type: 'paused', reason: event.by }));
  if (event.type === 'approval_asked' || (event.type === 'thread_read' && pending && status !== session.status)) effects.push(tell({ type: 'approval', pending: pending as PendingApproval }));
  return { session: { status, pending, pausedBy }, effects };
};

/** The calls of the executor `command` makes of the run as it stands: its own session's effects for an `asked` event. */
export const callsOf = (run: RunController, command: Command): Command[] =>
  transition(run.session, { type: 'asked', command }).effects.flatMap((effect) => (effect.type === 'call' ? [effect.command] : []));

/** One call of the executor a session's effect names. */
const call = (run: RunController, command: Command) =>
  command.type === 'decide' ? run.decide(command.decision) : command.type === 'pause' ? run.pause() : run.run(command.rules);

/** Asks the run for `command`, carrying out the calls its session names, in order; answers what the run refused to do here, if it did. */
export const ask = async (run: RunController, command: Command): Promise<Unsupported | undefined> => {
  for (const made of callsOf(run, command)) {
    const answer = await call(run, made);
    if (isUnsupported(answer)) return answer;
  }
  return undefined;
};

/** The events a transition's effects tell, in order: what an executor tells its listeners. */
export const toldBy = (effects: readonly SessionEffect[]): RunEvent[] => effects.flatMap((effect) => (effect.type === 'tell' ? [effect.event] : []));

/** Tells each listener of a run `event`, on either executor: from a copy of the list, so that a listener may unsubscribe while being told. */
export const tellEach = (listeners: Iterable<(event: RunEvent) => void>, event: RunEvent) => {
  for (const listener of Array.from(listeners)) listener(event);
};

/** A run's ledger with a person's answer to its approval, as either executor writes it (into its checkpoint): the approve node reads it when it runs. */
export const withDecision = <Ledger extends object>(run: Ledger, decision: 'approved' | 'denied'): Ledger & { decision: 'approved' | 'denied' } => ({ ...run, decision });

/** The nodes of `graph` a run stops before to ask a person (`interruptsBefore`), of those compiled (`names`, by id) when given. */
export const approvalNodes = (graph: GraphFile, names?: ReadonlyMap<string, string>): string[] =>
  graph.nodes.filter((node) => kindDefinition(node.kind).interruptsBefore && (!names || names.has(node.id))).map((node) => node.id);

/**
 * The LangGraph names of the nodes a Run stops before (`interruptBefore`), on either executor: the
 * `breakpoints` (ids) and, unless nobody is asked (a headless run), the nodes that ask a person —
 * all but `answered` (a name: the node whose answer was just given, which the run goes on past).
 */
export const stopsBefore = (graph: GraphFile, names: ReadonlyMap<string, string>, { answered, breakpoints = [], asks = true }: { answered?: string | null; breakpoints?: readonly string[]; asks?: boolean }): string[] =>
  [...new Set([...breakpoints, ...(asks ? approvalNodes(graph, names) : [])].filter((id) => names.has(id)).map((id) => names.get(id) as string))].filter((name) => name !== answered);

/** The question a node that asks a person puts, in the one wording of both executors, about the action refused in `state`. */
export const approvalAt = (graph: GraphFile, nodeId: string, state: Readonly<Record<string, unknown>>): PendingApproval => {
  const node = graph.nodes.find((candidate) => candidate.id === nodeId);
  const denied = deniedAction(state);
  return {
    node: nodeId, prompt: (node?.config as AskedConfig | undefined)?.prompt ?? `Allow ${denied.skill ?? 'the action'} to run?`, ...denied,
    reason: denied.skill ? `${denied.skill} was refused by the permission check (${graph.permissions.mode})` : undefined,
  };
};

/** Stream calls that run no node a Step or Run makes at most before it gives up. */
export const STEP_CALLS = 3;

/**
 * What one stream call of a Step or Run came to: `done` (a node ran, or the run cannot go on),
 * `idle` (it stopped before any node) or `more` (cut short to go on in a fresh call; not counted).
 */
export type StreamCall = 'done' | 'idle' | 'more';

/**
 * A Step or Run on either executor: a fresh thread, or one whose state was just edited, stops
 * before its first node once, so it streams again until a call is `done`, at most STEP_CALLS idle
 * calls; `call` counts the idle calls so far (0: the first, which carries a new thread's input).
 */
export const goPastFreshThread = async (stream: (call: number) => Promise<StreamCall>) => {
  for (let idle = 0; idle < STEP_CALLS; ) {
    const came = await stream(idle);
    if (came === 'done') return;
    if (came === 'idle') idle += 1;
  }
};
