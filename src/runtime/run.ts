import type { GraphFile } from '../graph/index.ts';
import { withNamedScenario } from './apply-scenario.ts';
import { Engine, type EngineOptions } from './engine.ts';
import type { ForkOptions, PendingApproval, RunController, RunEvent, RunOptions, RunStatus } from './controller.ts';
import type { Trace, TraceStep } from './trace.ts';

/** A long run hands the event loop back after this much work, so the page keeps painting and clicks get through. */
const YIELD_AFTER_MS = 12;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The engine for these options: a named scenario applied, the scenario's seed unless one is given. */
const createEngine = (graph: GraphFile, options: RunOptions, headless: boolean): Engine => {
  // A fork re-runs the original as it ran: its seed and its scenario, unless the options say otherwise.
  const scenario = options.scenario ?? options.fork?.fromTrace.scenario;
  const chosen = withNamedScenario(graph, scenario, options.seed ?? options.fork?.fromTrace.seed);
  const engineOptions: EngineOptions = {
    seed: chosen.seed, keys: options.keys, now: options.now, fetch: options.fetch,
    compact: options.compact, scenario, headless,
  };
  return new Engine(chosen.graph, engineOptions);
};

/** Re-runs the original steps with the same seed, then applies the fork's edits. */
const replayFork = async (engine: Engine, fork: ForkOptions) => {
  const original = fork.fromTrace.steps;
  const atStep = Math.max(0, Math.min(fork.atStep, original.length));
  while (engine.steps.length < atStep && !engine.stopped) {
    const advance = await engine.advance();
    if (advance.type === 'approval') {
      const answered = original[engine.steps.length]?.outcome;
      engine.decide(answered === 'approved' ? 'approved' : 'denied');
      continue;
    }
    if (advance.type === 'stopped') break;
    const expected = original[advance.step.step - 1];
    if (expected && expected.node !== advance.step.node) {
      engine.halt('error', `the fork's re-run went to ${advance.step.node} at step ${advance.step.step}, the trace went to ${expected.node}: the graph changed since that run`, true);
      return;
    }
  }
  if (fork.state) engine.editState(fork.state);
  for (const [skill, entries] of Object.entries(fork.nextResults ?? {})) engine.overrideNext(skill, entries);
};

class Controller implements RunController {
  readonly ready: Promise<void>;
  private readonly engine: Engine;
  private readonly options: RunOptions;
  private readonly listeners = new Set<(event: RunEvent) => void>();
  private currentStatus: RunStatus = 'idle';
  private pending: PendingApproval | null = null;
  private pauseRequested = false;
  private running = false;
  private announcedStop = false;
  /** A breakpoint before the next node already paused the run once; Run continues past it. */
  private breakpointPassedAt = -1;

  constructor(graph: GraphFile, options: RunOptions) {
    this.options = options;
    this.engine = createEngine(graph, options, false);
    this.ready = options.fork ? this.forkFrom(options.fork) : Promise.resolve();
  }

  private async forkFrom(fork: ForkOptions) {
    await replayFork(this.engine, fork);
    if (!this.engine.stopped) this.currentStatus = 'paused';
    this.announceStopIfStopped();
  }

  get status() {
    return this.currentStatus;
  }

  get trace(): Trace {
    const trace = this.engine.trace();
    const fork = this.options.fork;
    if (!fork) return trace;
    return { ...trace, forkedFrom: { step: Math.min(fork.atStep, fork.fromTrace.steps.length), edited: Object.keys(fork.state ?? {}), overridden: Object.keys(fork.nextResults ?? {}) } };
  }

  get state() {
    return this.engine.state;
  }

  get pendingApproval() {
    return this.pending;
  }

  subscribe(listener: (event: RunEvent) => void) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(event: RunEvent) {
    // A copy, so that a listener may unsubscribe while being told.
    for (const listener of Array.from(this.listeners)) listener(event);
  }

  private setStatus(status: RunStatus) {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.emit({ type: 'status', status });
  }

  private announceStopIfStopped() {
    const stop = this.engine.stop;
    if (!stop || this.announcedStop) return;
    this.announcedStop = true;
    this.setStatus('stopped');
    this.emit({ type: 'stopped', reason: stop.reason, explain: stop.explain, trace: this.trace });
  }

  private async advanceOnce(): Promise<TraceStep | null> {
    const advance = await this.engine.advance();
    if (advance.type === 'approval') {
      this.pending = advance.pending;
      this.setStatus('awaiting_approval');
      this.emit({ type: 'approval', pending: advance.pending });
      return null;
    }
    if (advance.type === 'stopped') {
      this.announceStopIfStopped();
      return null;
    }
    this.emit({ type: 'step', step: advance.step });
    this.announceStopIfStopped();
    return advance.step;
  }

  async step() {
    await this.ready;
    // One node at a time: a second Step pressed while one is in flight does nothing.
    if (this.engine.stopped || this.pending || this.running) return null;
    this.running = true;
    try {
      const step = await this.advanceOnce();
      if (!this.engine.stopped && !this.pending) this.setStatus('paused');
      return step;
    } finally {
      this.running = false;
    }
  }

  async run() {
    await this.ready;
    if (this.running || this.engine.stopped || this.pending) return;
    this.running = true;
    this.pauseRequested = false;
    this.setStatus('running');
    let lastYield = performance.now();
    try {
      while (!this.engine.stopped) {
        if (this.pauseRequested) break;
        const next = this.engine.next;
        const at = this.engine.steps.length;
        if (next && at !== this.breakpointPassedAt && this.options.shouldPauseBefore?.(next, this.engine.state)) {
          this.breakpointPassedAt = at;
          break;
        }
        const step = await this.advanceOnce();
        if (!step) break;
        if (this.options.shouldPauseAfter?.(step)) break;
        if (this.options.stepDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.stepDelayMs));
        else if (performance.now() - lastYield > YIELD_AFTER_MS) {
          await nextTask();
          lastYield = performance.now();
        }
      }
    } finally {
      this.running = false;
    }
    if (!this.engine.stopped && !this.pending) this.setStatus('paused');
  }

  pause() {
    this.pauseRequested = true;
  }

  stop() {
    this.pending = null;
    this.engine.halt('user_stopped', 'stopped by a person');
    this.announceStopIfStopped();
  }

  decide(decision: 'approved' | 'denied') {
    if (!this.pending) return;
    this.engine.decide(decision);
    this.pending = null;
    this.setStatus('paused');
  }
}

/**
 * A run the debugger drives step by step (see controller.ts for the contract and forks).
 * Throws ScenarioError when `options.scenario` names no scenario of the graph.
 */
export const createController = (graph: GraphFile, options: RunOptions = {}): RunController => new Controller(graph, options);

export interface HeadlessOptions extends RunOptions {
  /** `langgraph` (default) runs the compiled StateGraph; `engine` steps the engine directly. */
  executor?: 'langgraph' | 'engine';
}

/** A run to its end with no person: approvals take `config.auto` (none: denied). */
export const runGraph = async (graph: GraphFile, options: HeadlessOptions = {}): Promise<Trace> => {
  const engine = createEngine(graph, options, true);
  if ((options.executor ?? 'langgraph') === 'langgraph') {
    const { runThroughLangGraph } = await import('./compile.ts');
    await runThroughLangGraph(engine);
  } else {
    while (!engine.stopped) await engine.advance();
  }
  return engine.trace();
};
