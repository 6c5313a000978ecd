/**
 * The one executor, for the debugger and the command line alike: a run is the graph compiled to a
 * LangGraph StateGraph (compile.ts), streamed on a thread of a checkpointer. Step is
 * `interruptBefore: "*"`, node breakpoints and approvals are `interruptBefore` their nodes, an
 * approval is answered with `updateState`, and Pause, edge breakpoints and conditions pause
 * between supersteps (an interrupt before the next node does any work). The trace is built from
 * the stream: each node's update carries its trace step, and each attempt comes on the `custom`
 * stream as it ends. A fork seeds a new thread with `updateState` from the values of the step it
 * forks from, so the steps before it are never run again.
 *
 * The checkpointer keeps the run's record: its checkpoints, what each step wrote (the journal) and
 * the state after any step, the newest included (checkpointer.ts): the run reads its values there
 * and keeps no copy. What is not a LangGraph call lives in pure modules: the run session
 * (session.ts), each step's record (journal.ts), and where a fork starts (fork.ts).
 */
import type { CompiledStateGraph } from '@langchain/langgraph/web';
import { nodeById, type GraphFile } from '../graph/index.ts';
import { entryProblem } from '../graph/validate.ts';
import { withNamedScenario } from './apply-scenario.ts';
import { RetainingSaver } from './checkpointer.ts';
import { buildStateGraph, nodeNames, recursionLimitOf } from './compile.ts';
import type { ForkEdits, JournalEntry, LocalRunController, RunEvent, RunOptions } from './controller.ts';
import { answeredInAdvance, approvalWaited } from './approvalWaited.ts';
import type { LoopscopeConfig } from './step.ts';
import { NO_PAUSE_RULES, pauseAfterReason, pauseBeforeByRules, type PauseRules } from './pauseRules.ts';
import { forkStart } from './fork.ts';
import { foldJournal, journalSteps, putStep, stepOf } from './journal.ts';
import { agentState, channelNames, initialValues, refusedState, type RunLedger, type RunValues, type Stop } from './state.ts';
import { startingStatus, startSession, goPastFreshThread, stopsBefore, tellEach, toldBy, transition, withDecision, type RunSession, type SessionEvent } from './session.ts';
import { traceOfValues } from './runTrace.ts';
import type { Trace, TraceStep } from './trace.ts';

/** A long run hands the event loop back after this much work, so the page keeps painting and clicks get through. */
const YIELD_AFTER_MS = 8;

/**
 * A Run goes on in a fresh LangGraph stream call after this many nodes: one stream call holds on
 * to a little of every superstep it ran until it ends (LangGraph 1.7), which over a long run is
 * memory without bound.
 */
const NODES_PER_CALL = 1000;
const NEXT_CALL = 'next stream call';

/** Who waits for a message on the one channel, in order. */
const waitingForMessage: (() => void)[] = [];
let channel: MessageChannel | null = null;

/**
 * A macrotask: setImmediate where there is one (Node), a message otherwise (browsers clamp nested
 * timers to 4 ms). One channel serves every yield: a browser makes a pair of ports at some cost.
 */
const nextTask = (): Promise<void> => {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waitingForMessage.shift()?.();
  }
  const port = channel.port2;
  return new Promise((resolve) => {
    waitingForMessage.push(resolve);
    port.postMessage(null);
  });
};

const USER_STOP: Stop = { reason: 'user_stopped', why: { is: 'user' } };

type Compiled = CompiledStateGraph<Record<string, unknown>, Record<string, unknown>, string>;

/** What the runs of one graph share: the compiled graph and its checkpointer. Each run is a thread. */
interface Shared {
  graph: GraphFile;
  readonly compiled: Compiled;
  saver: RetainingSaver;
  names: Map<string, string>;
  threads: number;
}

const createShared = (graph: GraphFile, options: RunOptions): Shared => {
  const saver = new RetainingSaver(options.retention, { channels: channelNames(graph), keepWrites: options.record !== false });
  let compiled: Compiled | undefined;
  return {
    graph, saver, names: nodeNames(graph), threads: 0,
    // Built when first driven: a graph with no entry to start from, or a state field LangGraph
    // cannot keep, never reaches LangGraph.
    get compiled() {
      return (compiled ??= buildStateGraph(graph).compile({ checkpointer: saver }) as unknown as Compiled);
    },
  };
};

interface Start {
  values: RunValues;
  steps: TraceStep[];
  /** The journal the run continues (a run restored, the steps a fork keeps), before its thread's first checkpoint. */
  journal: JournalEntry[];
  /** How the thread gets its first checkpoint: the input of a fresh run, or an update as the node that ran last. */
  seed: { input: RunValues } | { values: RunValues; asNode: string } | null;
  forkedFrom?: Trace['forkedFrom'];
  /** A fork just made: its first Run stops at a breakpoint on the edge its step now takes or on the node it leads to. */
  fresh?: boolean;
}

/** A Step or Run under way: its mode and rules, and what the hook between nodes keeps of it. */
interface Going {
  readonly mode: 'step' | 'run';
  /** Where a Run may pause, and its speed: the data its command carried. */
  readonly rules: PauseRules;
  /** Nodes run in the current stream call. */
  nodes: number;
  /** The next node is the first of a person's Run or Continue. */
  first: boolean;
  /** A person asked for a pause. */
  pauseAsked: boolean;
  /** Why a pause rule held the run, told when it comes back. */
  pausedBy?: string;
}

/** A pause, with the reason a pause rule gave. */
const pausedEvent = (by: string | undefined): SessionEvent => (by === undefined ? { type: 'paused' } : { type: 'paused', by });

const isBreakpoint = (rules: PauseRules, node: string | null) => node !== null && rules.breakpoints.nodes.includes(node);

class Controller implements LocalRunController {
  private readonly shared: Shared;
  private readonly options: RunOptions;
  private readonly threadId: string;
  private readonly scenario: string | undefined;
  /** The values the run starts from, read until its thread has a checkpoint (a run stopped before LangGraph, always). */
  private startValues: RunValues;
  /** A stop the checkpointer does not hold yet, or ever: a person's while a node is in flight, LangGraph's failure. */
  private ownStop: Stop | null = null;
  private readonly steps: TraceStep[];
  private seed: Start['seed'];
  private readonly forkedFrom: Trace['forkedFrom'];
  private readonly listeners = new Set<(event: RunEvent) => void>();
  /** Where the run stands (session.ts): its status, the approval it waits on. */
  private current: RunSession;
  /** The Step or Run going on, as one value (null when none is): what the hook between nodes reads. */
  private going: Going | null = null;
  /** A condition paused the run before the node at this step already: resuming goes past it. */
  private passedAt = -1;
  private lastYield = 0;
  /** A fork not run yet (Start.fresh). */
  private freshFork: boolean;
  /** Every LangGraph call of this run, in order: a stop or decision reaches the checkpointer after the node in flight. */
  private work: Promise<unknown> = Promise.resolve();

  constructor(shared: Shared, options: RunOptions, scenario: string | undefined, start: Start) {
    this.shared = shared;
    this.options = options;
    this.scenario = scenario;
    shared.threads += 1;
    this.threadId = `run-${shared.threads}`;
    this.startValues = start.values;
    this.steps = options.keepSteps === false ? [] : start.steps;
    this.seed = start.seed;
    // What the thread's first checkpoint writes is the run's values as a whole: the journal before it is the run's it continues.
    shared.saver.startJournal(this.threadId, start.seed ? start.journal.slice(0, -1) : start.journal);
    this.forkedFrom = start.forkedFrom;
    this.freshFork = start.fresh === true;
    const pending = this.awaitedApproval();
    this.current = startSession(startingStatus({ stopped: this.values._run.stop !== null, awaitingApproval: pending !== null, stepsRan: this.values._run.step }), pending);
  }

  get session() {
    return this.current;
  }

  /** The run's values after its newest write, as the checkpointer holds them, with a stop it does not hold yet. */
  private get values(): RunValues {
    return this.withOwnStop(this.shared.saver.latest(this.threadId) ?? this.startValues);
  }

  private withOwnStop(values: RunValues): RunValues {
    return this.ownStop && values._run.stop !== this.ownStop ? { ...values, _run: { ...values._run, stop: this.ownStop } } : values;
  }

  get state() {
    return agentState(this.values);
  }

  get next(): string | null {
    return this.nextAfter(this.values);
  }

  private nextAfter(values: RunValues): string | null {
    if (values._run.stop) return null;
    if (values._run.closing) return this.shared.graph.finally ?? null;
    return values._run.step === 0 ? this.shared.graph.entry : (values._step?.fired?.target ?? null);
  }

  /** The checkpointer's record of the thread, and the values it will start from while it has no checkpoint yet. */
  get journal(): readonly JournalEntry[] {
    const recorded = this.shared.saver.journal(this.threadId);
    if (this.options.record === false) return recorded;
    const seed = this.seed && ('input' in this.seed ? this.seed.input : this.seed.values);
    return seed ? [...recorded, { step: seed._run.step, update: seed }] : recorded;
  }

  get trace(): Trace {
    return this.traceAfter(this.values);
  }

  private traceAfter(values: RunValues): Trace {
    return { ...this.traceWithout(values, agentState(values)), steps: [...this.steps] };
  }

  /** The trace but for its steps, from the values after its last step, with `finalState` their state. */
  private traceWithout(values: RunValues, finalState: Record<string, unknown>): Omit<Trace, 'steps'> {
    // The state is given: a step event's is at hand, and reading it again from the values costs each step.
    const { steps: _none, ...trace } = traceOfValues(this.shared.graph.name, values, [], finalState);
    return {
      ...trace,
      ...(this.scenario === undefined ? {} : { scenario: this.scenario }),
      ...(this.forkedFrom ? { forkedFrom: this.forkedFrom } : {}),
    };
  }

  subscribe(listener: (event: RunEvent) => void) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(event: RunEvent) {
    tellEach(this.listeners, event);
  }

  /** The one place the run's session changes (session.ts); its effects are told. */
  private transition(event: SessionEvent) {
    const { session, effects } = transition(this.current, event);
    this.current = session;
    for (const event of toldBy(effects)) this.emit(event);
  }

  /** Tells the stop once: the status is `stopped` from when it was told (or from the start, for a run made stopped). */
  private announceStopIfStopped(values = this.values) {
    const stop = values._run.stop;
    if (!stop || this.current.status === 'stopped') return;
    this.transition({ type: 'stopped' });
    this.emit({ type: 'stopped', reason: stop.reason, why: stop.why, trace: this.traceAfter(values) });
  }

  /** The next node asks a person (`interruptsBefore`), and its answer for this visit was given in advance (`config.answers`, a scenario's decisions). */
  private answeredInAdvance(): boolean {
    return this.next !== null && answeredInAdvance(nodeById(this.shared.graph, this.next), this.values._run.visits);
  }

  /** The approval the run waits on (approvalWaited.ts, as a server's run decides it), with what only this run knows: its ledger, and whether it is headless. */
  private awaitedApproval() {
    const next = this.next === null ? [] : [this.next];
    return approvalWaited(this.shared.graph, { next, state: this.state, answered: this.values._run.decision !== null ? next : [], visits: this.values._run.visits, headless: this.options.headless });
  }

  private nodeName(id: string) {
    return this.shared.names.get(id) as string;
  }

  private config(extra: Record<string, unknown> = {}) {
    return { configurable: { thread_id: this.threadId }, ...extra };
  }

  /** The node to attribute an edit to: the one that ran last (its edge is chosen again), or the start. */
  private asNode() {
    const last = this.values._step;
    return last ? this.nodeName(last.node) : '__start__';
  }

  /** Queues a LangGraph call after the ones before it. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.work.then(task);
    this.work = next.catch(() => undefined);
    return next;
  }

  async settled() {
    await this.work;
  }

  /**
   * Changes the ledger of the values the run starts from, or of the checkpoint after the LangGraph
   * calls already queued: there the change applies to the ledger the checkpoint holds when its turn
   * comes (a node in flight may have moved it on).
   */
  private editLedger(change: (run: RunLedger) => RunLedger) {
    if (this.seed) {
      this.startValues = { ...this.startValues, _run: change(this.startValues._run) };
      this.seed = 'values' in this.seed ? { ...this.seed, values: this.startValues } : { input: this.startValues };
      return;
    }
    void this.enqueue(async () => {
      const { values } = await this.shared.compiled.getState(this.config());
      return this.shared.compiled.updateState(this.config(), { _run: change((values as RunValues)._run) }, this.asNode());
    });
  }

  /**
   * What the nodes of a stream call are handed. Only a Run's nodes ask the hook between them: a Step
   * runs one node and asks no pause rule, so what it does before its node is done by the controller
   * before the stream (`drive`), and the node never calls back into it.
   */
  private hooks(going: Going): LoopscopeConfig {
    return {
      now: this.options.now, fetch: this.options.fetch, keys: this.options.keys, mcp: this.options.mcp, granted: this.options.granted,
      ...(going.mode === 'run' ? { beforeNode: (node: string, values: RunValues) => this.beforeNode(going, node, values) } : {}),
    };
  }

  /** The page's turn, once this run has worked for a while (so it keeps painting and clicks get through); nothing to wait for otherwise (no await: a Run asks at every node). */
  private turnIfDue(): Promise<void> | null {
    if (performance.now() - this.lastYield <= YIELD_AFTER_MS) return null;
    return nextTask().then(() => {
      this.lastYield = performance.now();
    });
  }

  /** Between a Run's supersteps: yield to the page, wait out an animated run's delay, pause when asked. */
  private async beforeNode(going: Going, node: string, values: RunValues): Promise<string | null> {
    if (this.ownStop) return 'stopped';
    const turn = this.turnIfDue();
    if (turn) await turn;
    if (going.nodes >= NODES_PER_CALL) return NEXT_CALL;
    going.nodes += 1;
    const { first, rules } = going;
    going.first = false;
    if (!first && rules.stepDelayMs) await new Promise((resolve) => setTimeout(resolve, rules.stepDelayMs));
    if (this.ownStop) return 'stopped';
    if (going.pauseAsked) {
      going.pauseAsked = false;
      return 'paused';
    }
    if (values._run.step === this.passedAt) return null;
    const last = values._step;
    // The step before a Run's first node was looked at when it ran (or a person stepped past it).
    const breaks = (!first && last !== null && this.pausesAfter(rules, last)) || pauseBeforeByRules(rules, this.shared.graph, node, agentState(values));
    if (!breaks) return null;
    this.passedAt = values._run.step;
    if (typeof breaks === 'string') going.pausedBy = breaks;
    return 'breakpoint';
  }

  private async ensureThread(): Promise<Record<string, unknown> | null> {
    const seed = this.seed;
    this.seed = null;
    if (!seed) return null;
    if ('input' in seed) return seed.input;
    await this.shared.compiled.updateState(this.config(), seed.values, seed.asNode);
    return null;
  }

  /** The nodes a Run stops before: breakpoints, and nodes that ask a person (`interruptsBefore`) nobody answered yet. */
  private interruptNodes(rules: PauseRules): string[] {
    const answered = this.values._run.decision !== null || this.answeredInAdvance() ? this.next : null;
    return stopsBefore(this.shared.graph, this.shared.names, { answered: answered && this.nodeName(answered), breakpoints: rules.breakpoints.nodes, asks: !this.options.headless });
  }

  /** One LangGraph stream call; resolves with how many nodes ran and why it stopped short (a hook's reason), if it did. */
  private async drive(going: Going): Promise<{ ran: number; pausedFor: string | null }> {
    going.nodes = 0;
    let ran = 0;
    let pausedFor: string | null = null;
    await this.enqueue(async () => {
      if (going.mode === 'step') {
        // What a Run's nodes ask the hook first, a Step's controller does before its one stream call: a stopped run makes none, and the page gets its turn.
        if (this.values._run.stop) return;
        await this.turnIfDue();
      }
      const input = await this.ensureThread();
      const stream = await this.shared.compiled.stream(input, this.config({
        configurable: { thread_id: this.threadId, loopscope: this.hooks(going) },
        // Nobody watches a headless run's attempts as they end (each step keeps its own), and each would cost a chunk on the custom stream.
        streamMode: this.options.headless ? ['updates'] : ['updates', 'custom'],
        recursionLimit: recursionLimitOf(this.shared.graph),
        interruptBefore: going.mode === 'step' ? '*' : this.interruptNodes(going.rules),
      }) as never);
      for await (const [kind, chunk] of stream as unknown as AsyncIterable<[string, Record<string, unknown>]>) {
        if (kind === 'custom') {
          const event = chunk as { type?: string } & Omit<Extract<RunEvent, { type: 'attempt' }>, 'type'>;
          if (event.type === 'attempt') this.emit({ type: 'attempt', node: event.node, step: event.step, attempt: event.attempt });
          continue;
        }
        for (const [name, update] of Object.entries(chunk)) {
          if (name === '__interrupt__') {
            const reason = Array.isArray(update) ? (update[0] as { value?: unknown } | undefined)?.value : undefined;
            if (typeof reason === 'string') pausedFor = reason;
            continue;
          }
          ran += 1;
          this.takeStep(update as Record<string, unknown>);
        }
      }
    }).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.ownStop = { reason: 'error', why: { is: 'executor_failed', message } };
    });
    return { ran, pausedFor };
  }

  /**
   * A node's update, as the stream hands it: its step goes into the run's steps and is told. The
   * checkpointer holds what the update wrote already (LangGraph keeps a node's writes before it
   * streams them), and the values before it, its checkpoint or the writes of the step before.
   */
  private takeStep(update: Record<string, unknown>) {
    const at = (update._run as RunLedger).step;
    const told = !this.options.headless && this.listeners.size > 0;
    // The values before the step, when anyone reads them: a compact step keeps no state before it.
    const before = told || !this.options.compact ? (this.valuesAt(at - 1) ?? this.startValues) : this.startValues;
    const stoppedByPerson = this.ownStop;
    if (stoppedByPerson) {
      // Stop came while the node ran: it finished, and the person's stop stands.
      const step = update._step as TraceStep;
      const stopped = { _run: { ...(update._run as RunValues['_run']), stop: stoppedByPerson }, _step: { ...step, stop: stoppedByPerson } };
      update = { ...update, ...stopped };
      void this.enqueue(() => this.shared.compiled.updateState(this.config(), stopped, this.asNode()));
    }
    const step = stepOf(before, update, this.options.compact);
    if (this.options.keepSteps !== false) putStep(this.steps, step);
    const values = this.withOwnStop(this.valuesAt(at) ?? this.values);
    // The states and where the run stands go with the step, so the debugger shows them without asking the run again; nobody looks at a headless run's.
    if (!told) this.emit({ type: 'step', step });
    else {
      const after = agentState(values);
      this.emit({ type: 'step', step, states: { before: agentState(before), after }, run: { trace: this.traceWithout(values, after), next: this.nextAfter(values) } });
    }
    this.announceStopIfStopped(values);
  }

  /** Where a Step or Run left the run, told once: stopped, asking a person, or paused (with the reason a pause rule gave). */
  private afterDrive(pausedBy?: string) {
    if (this.values._run.stop) {
      this.announceStopIfStopped();
      return;
    }
    const pending = this.awaitedApproval();
    this.transition(pending ? { type: 'approval_asked', pending } : pausedEvent(pausedBy));
  }

  async step() {
    // One node at a time: a second Step pressed while one is in flight does nothing.
    if (this.values._run.stop || this.current.pending || this.going) return null;
    const going: Going = (this.going = { mode: 'step', rules: NO_PAUSE_RULES, nodes: 0, first: false, pauseAsked: false });
    let ran = 0;
    try {
      await goPastFreshThread(async () => ((ran = (await this.drive(going)).ran) > 0 || this.values._run.stop !== null || this.awaitedApproval() !== null ? 'done' : 'idle'));
    } finally {
      this.going = null;
    }
    this.afterDrive();
    return ran > 0 ? (this.steps.at(-1) ?? this.values._step) : null;
  }

  /**
   * A fork's first Run stops at once where a breakpoint holds before anything runs: LangGraph goes
   * past an interrupt before the first node of a thread seeded by an update, and the fork's own step
   * (its edge chosen again from the edited state or outcome) was never looked at by the pause rules.
   */
  private breaksBeforeForkRuns(rules: PauseRules): string | boolean {
    if (!this.freshFork) return false;
    this.freshFork = false;
    const step = this.values._step;
    const next = this.next;
    const breaks = isBreakpoint(rules, next) || (step !== null && this.pausesAfter(rules, step)) || (next !== null && pauseBeforeByRules(rules, this.shared.graph, next, this.state));
    if (breaks) this.passedAt = this.values._run.step;
    return breaks || false;
  }

  async run(rules: PauseRules = NO_PAUSE_RULES) {
    if (this.going || this.values._run.stop || this.current.pending) return;
    const held = this.breaksBeforeForkRuns(rules);
    if (held) {
      this.transition(pausedEvent(typeof held === 'string' ? held : undefined));
      return;
    }
    const going: Going = (this.going = { mode: 'run', rules, nodes: 0, first: true, pauseAsked: false });
    this.transition({ type: 'run_started' });
    try {
      await goPastFreshThread(async () => {
        const { ran, pausedFor } = await this.drive(going);
        if (this.values._run.stop) return 'done';
        // Stopped before an approve node answered in advance: it asks nobody, so go on.
        if (pausedFor === NEXT_CALL || (pausedFor === null && this.answeredInAdvance() && !isBreakpoint(rules, this.next))) return 'more';
        return ran > 0 || pausedFor || this.awaitedApproval() || isBreakpoint(rules, this.next) ? 'done' : 'idle';
      });
    } finally {
      this.going = null;
    }
    this.afterDrive(going.pausedBy);
  }

  /** Why the rules pause the run after `step`, before the next node (an edge breakpoint, a condition); `previous` is the step before it, when the run keeps its steps. */
  private pausesAfter(rules: PauseRules, step: TraceStep) {
    return pauseAfterReason(rules.breakpoints, this.shared.graph, step, this.steps[step.step - 2]);
  }

  pause() {
    if (this.going) this.going.pauseAsked = true;
  }

  /** Ends the run; a node in flight finishes first, and its step carries the person's stop. */
  stop() {
    if (this.values._run.stop) return;
    if (!this.seed) this.ownStop = USER_STOP;
    this.editLedger((run) => ({ ...run, stop: USER_STOP }));
    this.announceStopIfStopped();
  }

  decide(decision: 'approved' | 'denied') {
    if (!this.current.pending) return;
    this.editLedger((run) => withDecision(run, decision));
    this.transition({ type: 'decided' });
  }

  /** The channel values after `step`, as the checkpointer answers them (checkpointer.ts). */
  private valuesAt(step: number): RunValues | null {
    return this.shared.saver.valuesAt(this.threadId, step, this.values);
  }

  async stateAt(step: number) {
    const values = this.valuesAt(step);
    return values && agentState(values);
  }

  async fork(atStep: number, edits: ForkEdits): Promise<LocalRunController> {
    const start = forkStart({ graph: this.shared.graph, steps: this.steps, journal: this.journal, compact: this.options.compact, base: this.valuesAt(atStep) }, atStep, edits);
    const seed = start.seedNode === null ? { input: start.values } : { values: start.values, asNode: this.nodeName(start.seedNode) };
    return new Controller(this.shared, { ...this.options, journal: undefined, forkedFrom: undefined }, this.scenario, { ...start, seed, fresh: true });
  }
}

/** The steps of a recorded journal and where its run stands, for a run restored after a reload. */
const restoredStart = (shared: Shared, journal: readonly JournalEntry[], forkedFrom: Trace['forkedFrom']): Start => {
  const values = foldJournal(journal) as RunValues;
  const steps = journalSteps(journal);
  const last = values._step;
  const seed = values._run.stop ? null : last ? { values, asNode: shared.names.get(last.node) as string } : { input: values };
  return { values, steps, journal: [...journal], seed, forkedFrom };
};

/** A run that stops at once, before LangGraph is involved: the graph has no entry node to start from. */
const cannotStart = (graph: GraphFile, seed: number, stop: Stop): Start => {
  const values = initialValues(graph, seed);
  const stopped = { ...values, _run: { ...values._run, stop } };
  return { values: stopped, steps: [], journal: [{ step: 0, update: stopped }], seed: null };
};

/**
 * A run the debugger drives step by step, or the command line to its end (see controller.ts for
 * the contract and forks). Throws ScenarioError when `options.scenario` names no scenario of the graph.
 */
export const createController = (graph: GraphFile, options: RunOptions = {}): LocalRunController => {
  const chosen = withNamedScenario(graph, options.scenario, options.seed);
  const seed = chosen.seed ?? 1;
  const refused = refusedState(chosen.graph);
  const shared = createShared(chosen.graph, options);
  const noEntry = entryProblem(chosen.graph, shared.names);
  let start: Start;
  if (refused) start = cannotStart(chosen.graph, seed, { reason: 'error', why: { is: 'cannot_start', problem: refused, rename: true } });
  else if (noEntry) start = cannotStart(chosen.graph, seed, { reason: 'error', why: { is: 'cannot_start', problem: noEntry } });
  else if (options.journal?.length) start = restoredStart(shared, options.journal, options.forkedFrom);
  else {
    const values = initialValues(chosen.graph, seed);
    start = { values, steps: [], journal: [{ step: 0, update: values }], seed: { input: values } };
  }
  return new Controller(shared, options, options.scenario, start);
};

export type HeadlessOptions = RunOptions;

/** A run to its end with no person: approvals take `config.auto` (none: denied). */
export const runGraph = async (graph: GraphFile, options: HeadlessOptions = {}): Promise<Trace> => {
  const controller = createController(graph, { record: false, ...options, headless: true });
  await controller.run();
  return controller.trace;
};
