import type { GraphFile } from '../graph/schema.ts';
import type { ForkEdits, JournalEntry, PendingApproval, RunController, RunOptions, RunStatus } from '../runtime/controller.ts';
import type { Attempt, Trace, TraceStep } from '../runtime/trace.ts';
import { traceIndex, visitCounts } from '../runtime/traceIndex.ts';
import { afterDrawing, afterPaint } from './afterDrawing.ts';
import type { RunNetwork } from './hosts.ts';
import { FAILED_OUTCOMES, keepUnchanged, NO_ACTIVITY, nodeStatusesFor, type LiveActivity, type NodeRunStatus } from './nodeStatus.ts';
import type { SliceCreator } from './types.ts';

/**
 * What the canvas shows of a run: the debugger writes it, the editor's canvas draws it.
 * Both read it from the store, so neither imports the other.
 */
export interface CanvasOverlay {
  /** The node of the selected step (class `current`). */
  currentNode: string | null;
  /** The edge that fired at the selected step (class `fired`) and why. */
  firedEdge: string | null;
  firedReason: string | null;
  /** Edges tried and not taken at the selected step, with why (shown on hover). */
  triedEdges: Record<string, string>;
  /** Visits over the whole run, for the heat view. */
  nodeVisits: Record<string, number>;
  edgeVisits: Record<string, number>;
  /** Set while two runs are compared: where they part, and the edge each took there. */
  parting?: CanvasParting;
  /**
   * Set while the live run goes on at Instant speed: the canvas draws it without motion (no marching
   * dashes on the fired edge). A moving edge has the page paint every frame, which in a run that
   * keeps the page busy is a quarter of its time; the fired edge moves again once the run stops.
   */
  still?: boolean;
}

export interface CanvasParting {
  /** The node(s) of the step where the runs part (two when they reached different nodes). */
  nodes: string[];
  /** The edge the left run took there, and the right one's. */
  leftEdge: string | null;
  rightEdge: string | null;
}

/** A breakpoint on the run's numbers rather than on one node or edge. */
export type BreakCondition =
  | { type: 'tokens_percent'; percent: number }
  | { type: 'round'; round: number }
  | { type: 'attempt_failed' };

export interface Breakpoints {
  nodes: string[];
  edges: string[];
  conditions: BreakCondition[];
}

export interface RunRecord {
  id: number;
  label: string;
  /** The graph as it ran: its forks and its continuation run on exactly that. */
  graph: GraphFile;
  trace: Trace;
  /** How many steps of the trace are shown; what changes while the run goes on. */
  stepCount: number;
  /** The run and step this one was forked from: the runs form a tree. */
  forkOf?: { run: number; step: number };
  /** Shown from its trace, with no controller or journal (an imported trace, a scenario's or a server's run): it cannot be stepped or forked here. */
  imported?: boolean;
  /** A LangGraph server thread it shows (`url thread`): that thread's later reads replace it in place. */
  server?: string;
  /** A server graph that Loopscope did not make: its steps are only what the server tells (no skills, no attempts to replay). */
  foreign?: boolean;
  /** The seed and scenario it was started with, to restore it after a reload. */
  seed?: number;
  scenario?: string;
  /** The file an imported trace was read from: the session stores it as it is, with no copy of its steps made on the page. */
  file?: Blob;
}

export type { ForkEdits };

export interface RunSlice {
  overlay: CanvasOverlay | null;
  breakpoints: Breakpoints;
  toggleNodeBreakpoint: (id: string) => void;
  toggleEdgeBreakpoint: (id: string) => void;
  addCondition: (condition: BreakCondition) => void;
  removeCondition: (index: number) => void;

  runs: RunRecord[];
  activeRunId: number | null;
  /** The live controller's run; only it can be stepped. */
  liveRunId: number | null;
  selectedStep: number | null;
  /** The state as the selected step left it, read from its checkpoint (time travel). */
  stateAfterSelected: Record<string, unknown> | null;
  /** The state before the selected step: the step before it left it. */
  stateBeforeSelected: Record<string, unknown> | null;
  runStatus: RunStatus;
  /** The node running now in the live run, with its attempts so far (they come before its step). */
  inFlight: { step: number; node: string; attempts: Attempt[] } | null;
  /**
   * Each node's status in words, for the run shown up to the selected step and what the live run does
   * now (nodeStatus.ts). An unchanged node keeps its entry, so only changed nodes are drawn again.
   */
  nodeStatus: Record<string, NodeRunStatus>;
  pendingApproval: PendingApproval | null;
  /** Which breakpoint paused the run, in words. */
  pausedBy: string | null;
  /** Pause was pressed and the node in flight is finishing: the page answers at once, the run at the next step. */
  pauseAsked: boolean;
  /**
   * The steps an Instant run has made, told every LIVE_REDRAW_MS: between the redraws of its
   * timeline, which come further apart as the run grows, it shows that the run goes on.
   */
  liveSteps: number;
  runError: string | null;
  /** E.g. an imported trace made on another graph. */
  traceWarning: string | null;
  seed: number;
  speedMs: number;
  scenario: string | null;

  setSeed: (seed: number) => void;
  setSpeed: (ms: number) => void;
  setScenario: (name: string | null) => void;
  /** Starts a fresh run to its end (or a breakpoint, an approval, Pause). */
  run: () => Promise<void>;
  /** Runs one node; starts a fresh run when none can go on. */
  step: () => Promise<void>;
  /** Runs to the start of the next round. */
  stepRound: () => Promise<void>;
  continueRun: () => Promise<void>;
  pause: () => void;
  reset: () => void;
  decide: (decision: 'approved' | 'denied') => Promise<void>;
  selectStep: (step: number | null) => void;
  /** Shows a run; one that has not stopped becomes the one Step and Continue go on with. */
  selectRun: (id: number) => void;
  /**
   * A new run from the active run's checkpoint after `atStep`, with the edits: the steps up to it
   * are kept (no skill is called again), and the new run goes on to its end.
   */
  fork: (atStep: number, edits: ForkEdits) => Promise<void>;
  /** Puts runs recorded earlier (after a reload) back on screen; the live one continues from its last checkpoint. */
  restoreRuns: (saved: SavedRuns) => Promise<void>;
  /** The state a run had after `step` (0: before its first): from its checkpoint, or replayed from an imported trace. */
  readRunState: (runId: number, step: number) => Promise<Record<string, unknown> | null>;
  /**
   * Shows a finished trace as a run, with no skill called: an imported one (on the graph it carries, else the open one), or
   * one made elsewhere, such as a scenario's, with its own label and graph. With `server`, the trace
   * of a LangGraph server thread: a later read of the same thread (it goes on, it was forked)
   * replaces that run. Returns the run's id.
   */
  loadTrace: (trace: Trace, shown?: { label?: string; graph?: GraphFile; file?: Blob; server?: { key: string; status?: RunStatus; foreign?: boolean } }) => number;
  dismissRunMessages: () => void;
}

const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]);

type Visits = ReturnType<typeof visitCounts>;
/** The visit counts of a run's first steps (as shown while it goes on), counted once for each count. */
const countedVisits = new WeakMap<readonly TraceStep[], { count: number; visits: Visits }>();

/**
 * The visits of the first `count` steps: of all of them from the run's index, made once (an imported
 * trace's by the worker that read it); selecting a step does no pass over the run.
 */
export const visitsOf = (steps: readonly TraceStep[], count: number): Visits => {
  if (count === steps.length) {
    const { nodeVisits, edgeVisits } = traceIndex(steps);
    return { nodeVisits, edgeVisits };
  }
  const counted = countedVisits.get(steps);
  if (counted?.count === count) return counted.visits;
  const visits = visitCounts(steps.slice(0, count));
  countedVisits.set(steps, { count, visits });
  return visits;
};

/** What the canvas shows of the run's first `count` steps with step `stepNumber` selected. */
export const overlayFor = (steps: readonly TraceStep[], stepNumber: number | null, count = steps.length): CanvasOverlay => {
  const step = stepNumber === null || stepNumber > count ? undefined : steps[stepNumber - 1];
  const triedEdges: Record<string, string> = Object.create(null);
  for (const edge of step?.edges ?? []) if (!edge.matched && !edge.skipped) triedEdges[edge.id] = edge.explain;
  return {
    currentNode: step?.node ?? null,
    firedEdge: step?.fired?.id ?? null,
    firedReason: step?.fired?.reason ?? null,
    triedEdges,
    ...visitsOf(steps, count),
  };
};

export const describeCondition = (condition: BreakCondition): string => {
  switch (condition.type) {
    case 'tokens_percent':
      return `tokens pass ${condition.percent}% of the budget`;
    case 'round':
      return `round reaches ${condition.round}`;
    case 'attempt_failed':
      return 'an attempt fails';
  }
};

/** The round the node would run in: entering the entry again starts the next one. */
const roundOf = (graph: GraphFile, nodeId: string, state: Record<string, unknown>) => {
  const round = Number(state.round ?? 1);
  return nodeId === graph.entry && Number(state.steps ?? 0) > 0 ? round + 1 : round;
};

/** Why the run should pause before `nodeId` runs, or null. */
export const pauseBeforeReason = (breakpoints: Breakpoints, graph: GraphFile, nodeId: string, state: Record<string, unknown>): string | null => {
  if (breakpoints.nodes.includes(nodeId)) return `breakpoint on node ${nodeId}: paused before it runs`;
  for (const condition of breakpoints.conditions)
    if (condition.type === 'round' && nodeId === graph.entry && roundOf(graph, nodeId, state) === condition.round)
      return `condition "${describeCondition(condition)}": paused before round ${condition.round} starts`;
  return null;
};

/** Why the run should pause after this step, or null; `previous` is the step before it. */
export const pauseAfterReason = (breakpoints: Breakpoints, graph: GraphFile, step: TraceStep, previous: TraceStep | undefined): string | null => {
  if (step.fired && breakpoints.edges.includes(step.fired.id)) return `breakpoint on edge ${step.fired.id}: it fired (${step.fired.reason})`;
  for (const condition of breakpoints.conditions) {
    if (condition.type === 'attempt_failed') {
      const failed = step.attempts.find((attempt) => FAILED_OUTCOMES.has(attempt.outcome));
      if (failed) return `condition "${describeCondition(condition)}": attempt ${failed.n} of ${failed.skill} was ${failed.outcome}`;
    }
    if (condition.type === 'tokens_percent' && graph.limits.tokenBudget !== undefined) {
      const threshold = (graph.limits.tokenBudget * condition.percent) / 100;
      const before = previous?.tokensUsed ?? Number(step.stateBefore?.tokensUsed ?? 0);
      const after = step.tokensUsed ?? before;
      if (before < threshold && after >= threshold)
        return `condition "${describeCondition(condition)}": tokens ${after}/${graph.limits.tokenBudget}`;
    }
  }
  return null;
};

/** The longest the runtime's first load waits for the page to be idle (an imported trace's step state waits for it). */
const RUNTIME_WAITS_AT_MOST_MS = 300;

type Runtime = typeof import('../runtime/index.ts');
let runtimeModule: Promise<Runtime> | null = null;
let loadedRuntime: Runtime | null = null;
// Loaded on the first run or trace, so the runtime and LangGraph stay out of the first screen's bundle.
export const loadRuntime = () =>
  (runtimeModule ??= import('../runtime/index.ts').then((module) => {
    loadedRuntime = module;
    return module;
  }));

/**
 * The runtime's first load for a step's state (an imported trace's first screen comes before it has
 * loaded) waits for the page's first idle time: fetching and compiling LangGraph are tasks of their
 * own, and they held back the frames just after the trace's timeline by some 20 ms (harness).
 */
const idleThenLoadRuntime = () => new Promise<void>((resolve) => afterDrawing(resolve, RUNTIME_WAITS_AT_MOST_MS)).then(loadRuntime);

/** Loads the runtime (and LangGraph) ahead of the first Run, once the first screen is up. */
export const warmUpRuntime = () => void loadRuntime();

/** A run as a session store keeps it: the record and, unless it was imported, the journal it continues from. */
export interface SavedRun extends Omit<RunRecord, 'trace' | 'stepCount'> {
  /** Only for an imported trace; a run's trace is rebuilt from its journal. */
  trace?: Trace;
  journal?: JournalEntry[];
  forkedFrom?: Trace['forkedFrom'];
}

export interface SavedRuns {
  runs: SavedRun[];
  activeRunId: number | null;
  liveRunId: number | null;
  selectedStep: number | null;
}

const MAX_RUNS = 12;
const LIVE_REDRAW_MS = 250;
/**
 * An Instant run makes steps faster than the page can draw them. Drawing its timeline, visit counts
 * and rounds costs time in proportion to its steps, so the redraws are spaced in proportion too
 * (this many ms per step shown, LIVE_REDRAW_MS at least): their share of the run stays bounded
 * however long it goes, and a slow run (a real call a step) is still drawn as it goes.
 */
const REDRAW_MS_PER_STEP = 1;
export const liveRedrawSpacing = (stepsShown: number) => Math.max(LIVE_REDRAW_MS, stepsShown * REDRAW_MS_PER_STEP);

/** The controllers of the runs on screen (imported traces have none), by run id. */
const controllers = new Map<number, RunController>();

/** The runs on screen with their journals, for the session store. */
export const savedRuns = (state: Pick<RunSlice, 'runs' | 'activeRunId' | 'liveRunId' | 'selectedStep'>): SavedRuns => ({
  runs: state.runs.map(({ trace, stepCount: _shown, ...record }) => {
    const controller = controllers.get(record.id);
    return controller ? { ...record, journal: [...controller.journal], ...(trace.forkedFrom ? { forkedFrom: trace.forkedFrom } : {}) } : { ...record, trace };
  }),
  activeRunId: state.activeRunId,
  liveRunId: state.liveRunId,
  selectedStep: state.selectedStep,
});

/** How long a run's journal is, to store only what is new. */
export const journalLength = (runId: number) => controllers.get(runId)?.journal.length ?? 0;

export const createRunSlice: SliceCreator<RunSlice> = (set, get) => {
  /** The run that Step, Run and Continue drive. */
  let controller: RunController | null = null;
  let unsubscribe: (() => void) | null = null;
  /** Set by Step round: pause before the entry starts the next round. */
  let untilNextRound = false;
  /** Each selection reads its states asynchronously; only the latest one is shown. */
  let selection = 0;
  /** The attempts of the node in flight, shown with the next redraw. */
  let inFlight: RunSlice['inFlight'] = null;
  /** A Step is in flight (the controller's status stays `paused` through one). */
  let stepping = false;
  /** The last step the live run told of, and whether it is yet to be told. */
  let liveStep = 0;
  let stepsToTell = false;

  const updateRun = (id: number, change: Partial<RunRecord>) =>
    set((state) => ({ runs: state.runs.map((run) => (run.id === id ? { ...run, ...change } : run)) }));

  /** The initial state of a graph, for an imported trace (its steps carry no states). */
  const initialStateOf = (graph: GraphFile) => ({ ...graph.state, round: 1, steps: 0, tokensUsed: 0 });

  const stateFromTrace = (runtime: Runtime, run: RunRecord, stepNumber: number) => {
    try {
      return runtime.stateAfterStep(run.trace, stepNumber, initialStateOf(run.graph));
    } catch {
      return null;
    }
  };

  /** A run's state after a step: from its checkpoints, or replayed from an imported trace. */
  const stateOf = async (runtime: Runtime, run: RunRecord, stepNumber: number) => {
    const source = controllers.get(run.id);
    return source ? source.stateAt(stepNumber) : stateFromTrace(runtime, run, stepNumber);
  };

  /** The states around the selected step. */
  const readStates = async (runtime: Runtime, run: RunRecord, stepNumber: number) => {
    const [after, before] = await Promise.all([stateOf(runtime, run, stepNumber), stepNumber > 0 ? stateOf(runtime, run, stepNumber - 1) : null]);
    return { after, before };
  };

  /** What the live run does now, when it is the run shown. */
  const liveActivity = (): LiveActivity => {
    const { activeRunId, liveRunId } = get();
    if (!controller || activeRunId === null || activeRunId !== liveRunId) return NO_ACTIVITY;
    if (controller.status === 'running' || stepping) {
      const running = inFlight?.node ?? controller.next;
      return { running, attempts: inFlight?.node === running ? inFlight.attempts : [], next: null };
    }
    return { ...NO_ACTIVITY, next: controller.status === 'stopped' ? null : controller.next };
  };

  const paintStep = async () => {
    const { selectedStep, runs, activeRunId } = get();
    const run = runs.find((candidate) => candidate.id === activeRunId);
    // A step picked in the timeline shows the nodes as that step left them.
    const shown = run ? Math.min(run.stepCount, selectedStep ?? run.stepCount) : 0;
    const still = controller?.status === 'running' && activeRunId === get().liveRunId && get().speedMs === 0;
    set((state) => ({
      overlay: run ? { ...overlayFor(run.trace.steps, selectedStep, run.stepCount), ...(still ? { still } : {}) } : null,
      nodeStatus: keepUnchanged(state.nodeStatus, run ? nodeStatusesFor(run.graph, run.trace.steps, liveActivity(), shown) : {}),
    }));
    const asked = (selection += 1);
    // The step's state is read after the canvas and the timeline have painted: it needs the runtime
    // (an imported trace's first screen may come before it has loaded), and rebuilding a late
    // step's state can take a while.
    await afterPaint();
    if (asked !== selection) return;
    const states = run && selectedStep !== null ? await readStates(loadedRuntime ?? (await idleThenLoadRuntime()), run, selectedStep) : { after: null, before: null };
    if (asked === selection) set({ stateAfterSelected: states.after, stateBeforeSelected: states.before });
  };

  const showStep = (stepNumber: number | null) => {
    set({ selectedStep: stepNumber });
    void paintStep();
  };

  /** Copies the live controller's progress into its run record and follows the last step. */
  const syncLive = () => {
    const id = get().liveRunId;
    if (!controller || id === null) return;
    const trace = controller.trace;
    updateRun(id, { trace, stepCount: trace.steps.length });
    const running = controller.status === 'running';
    set({ runStatus: controller.status, pendingApproval: controller.pendingApproval, activeRunId: id, inFlight: running ? inFlight : null, ...(running ? {} : { pauseAsked: false }) });
    showStep(trace.steps.length > 0 ? trace.steps.length : null);
  };

  /**
   * Tells the live run's step count soon. Not at every frame: any change on screen has the page
   * lay out and paint again, which at 60 a second cost a long run more than its count is worth.
   */
  const tellSteps = (step: number) => {
    liveStep = step;
    if (stepsToTell) return;
    stepsToTell = true;
    setTimeout(() => {
      stepsToTell = false;
      set({ liveSteps: liveStep });
    }, LIVE_REDRAW_MS);
  };

  let pendingSync: ReturnType<typeof setTimeout> | null = null;
  const flushLive = () => {
    if (pendingSync !== null) clearTimeout(pendingSync);
    pendingSync = null;
    syncLive();
  };

  /** Lets go of the live run: it stays on screen, and can be picked up again where it is. */
  const release = () => {
    if (pendingSync !== null) clearTimeout(pendingSync);
    pendingSync = null;
    unsubscribe?.();
    unsubscribe = null;
    controller?.pause();
    controller = null;
  };

  const addRun = (record: Omit<RunRecord, 'id'>, at?: number) => {
    const id = at ?? (get().runs.at(-1)?.id ?? 0) + 1;
    const runs = [...get().runs, { ...record, id }];
    for (const dropped of runs.slice(0, -MAX_RUNS)) controllers.delete(dropped.id);
    set({ runs: runs.slice(-MAX_RUNS), activeRunId: id });
    return id;
  };

  /** What every controller of this store is told: breakpoints, speed, and the hosts and keys it may use. */
  const controlOptions = (graph: GraphFile, network: RunNetwork): RunOptions => ({
    ...network,
    compact: true,
    get stepDelayMs() {
      return get().speedMs;
    },
    breakpointNodes: () => get().breakpoints.nodes,
    shouldPauseBefore: (nodeId, state) => {
      if (untilNextRound && nodeId === graph.entry && Number(state.steps ?? 0) > 0) {
        set({ pausedBy: `Step round: paused before round ${roundOf(graph, nodeId, state)} starts` });
        return true;
      }
      // Node breakpoints are LangGraph interrupts before the node: here only the conditions.
      const reason = pauseBeforeReason({ ...get().breakpoints, nodes: [] }, graph, nodeId, state);
      if (reason) set({ pausedBy: reason });
      return reason !== null;
    },
    shouldPauseAfter: (step, previous) => {
      const reason = pauseAfterReason(get().breakpoints, graph, step, previous);
      if (reason) set({ pausedBy: reason });
      return reason !== null;
    },
  });

  /** Makes `created` the live run: its events redraw the screen. */
  const attach = (id: number, created: RunController) => {
    release();
    controller = created;
    controllers.set(id, created);
    set({ liveRunId: id, runError: null, pausedBy: null, pendingApproval: created.pendingApproval, runStatus: created.status, liveSteps: created.trace.steps.length });
    inFlight = null;
    unsubscribe = created.subscribe((event) => {
      if (controller !== created) return;
      const instant = created.status === 'running' && get().speedMs === 0;
      const shown = () => get().runs.find((run) => run.id === id)?.stepCount ?? 0;
      if (event.type === 'attempt') {
        inFlight = inFlight?.step === event.step ? { ...inFlight, attempts: [...inFlight.attempts, event.attempt] } : { step: event.step, node: event.node, attempts: [event.attempt] };
        pendingSync ??= setTimeout(flushLive, instant ? liveRedrawSpacing(shown()) : LIVE_REDRAW_MS);
        return;
      }
      if (event.type === 'step' && inFlight?.step === event.step.step) inFlight = null;
      if (event.type === 'step' && instant) {
        tellSteps(event.step.step);
        pendingSync ??= setTimeout(flushLive, liveRedrawSpacing(shown()));
        return;
      }
      flushLive();
    });
    syncLive();
    return created;
  };

  const startFresh = async () => {
    try {
      const { graph, scenario, seed } = get();
      // What a run may contact loads with the first run, as the runtime does.
      const { networkFor } = await import('./hosts.ts');
      const network = await networkFor(graph, get().documentVersion);
      if (!network) {
        set({ runError: 'Not run: it would contact hosts that were not allowed.' });
        return null;
      }
      const runtime = await loadRuntime();
      // The runtime applies the named scenario and records it in the trace, as the command line does.
      const created = runtime.createController(graph, { ...controlOptions(graph, network), seed, ...(scenario === null ? {} : { scenario }) });
      const id = addRun({ label: '', graph, trace: created.trace, stepCount: 0, seed, ...(scenario === null ? {} : { scenario }) });
      updateRun(id, { label: `Run ${id}` });
      return attach(id, created);
    } catch (error) {
      set({ runError: error instanceof Error ? error.message : String(error) });
      return null;
    }
  };

  /** The live run if it can go on; an edited graph starts afresh rather than stepping a stale run. */
  const goOn = async () => {
    const live = get().runs.find((run) => run.id === get().liveRunId);
    return controller && controller.status !== 'stopped' && live?.graph === get().graph ? controller : startFresh();
  };

  /** Says which node breakpoint a Run stopped at (LangGraph interrupted before the node). */
  const noteBreakpoint = () => {
    if (!controller || controller.status !== 'paused' || get().pausedBy || controller.next === null) return;
    const live = get().runs.find((run) => run.id === get().liveRunId);
    if (!live) return;
    const reason = pauseBeforeReason({ ...get().breakpoints, conditions: [] }, live.graph, controller.next, controller.state);
    if (reason) set({ pausedBy: reason });
  };

  const guarded = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      set({ runError: error instanceof Error ? error.message : String(error) });
    }
    flushLive();
    noteBreakpoint();
  };

  const continueLive = async () => {
    set({ pausedBy: null });
    await controller?.run();
  };

  return {
    overlay: null,
    breakpoints: { nodes: [], edges: [], conditions: [] },
    toggleNodeBreakpoint: (id) => set((state) => ({ breakpoints: { ...state.breakpoints, nodes: toggle(state.breakpoints.nodes, id) } })),
    toggleEdgeBreakpoint: (id) => set((state) => ({ breakpoints: { ...state.breakpoints, edges: toggle(state.breakpoints.edges, id) } })),
    addCondition: (condition) =>
      set((state) => ({ breakpoints: { ...state.breakpoints, conditions: [...state.breakpoints.conditions, condition] } })),
    removeCondition: (index) =>
      set((state) => ({ breakpoints: { ...state.breakpoints, conditions: state.breakpoints.conditions.filter((_, at) => at !== index) } })),

    runs: [],
    activeRunId: null,
    liveRunId: null,
    selectedStep: null,
    stateAfterSelected: null,
    stateBeforeSelected: null,
    runStatus: 'idle',
    inFlight: null,
    nodeStatus: {},
    pendingApproval: null,
    pausedBy: null,
    pauseAsked: false,
    liveSteps: 0,
    runError: null,
    traceWarning: null,
    seed: 1,
    speedMs: 0,
    scenario: null,

    setSeed: (seed) => set({ seed }),
    setSpeed: (speedMs) => set({ speedMs }),
    setScenario: (scenario) => set({ scenario }),
    run: () =>
      guarded(async () => {
        const created = await startFresh();
        set({ pausedBy: null });
        await created?.run();
      }),
    step: () =>
      guarded(async () => {
        const live = await goOn();
        set({ pausedBy: null });
        stepping = live !== null;
        // Drawn before the node runs, so a slow node shows that it is running.
        flushLive();
        try {
          await live?.step();
        } finally {
          stepping = false;
        }
      }),
    stepRound: () =>
      guarded(async () => {
        const live = await goOn();
        set({ pausedBy: null });
        untilNextRound = true;
        try {
          await live?.run();
        } finally {
          untilNextRound = false;
        }
      }),
    continueRun: () => guarded(continueLive),
    pause: () => {
      if (!controller || get().runStatus !== 'running') return;
      controller.pause();
      set({ pauseAsked: true });
    },
    reset: () => {
      release();
      controllers.clear();
      set({ runs: [], activeRunId: null, liveRunId: null, selectedStep: null, stateAfterSelected: null, stateBeforeSelected: null, overlay: null, nodeStatus: {}, runStatus: 'idle', pendingApproval: null, pausedBy: null, runError: null, traceWarning: null });
    },
    decide: (decision) =>
      guarded(async () => {
        if (!controller) return;
        controller.decide(decision);
        await continueLive();
      }),
    selectStep: (step) => showStep(step),
    selectRun: (id) => {
      const run = get().runs.find((candidate) => candidate.id === id);
      if (!run) return;
      set({ activeRunId: id });
      const picked = controllers.get(id);
      if (picked && picked !== controller && picked.status !== 'stopped') attach(id, picked);
      showStep(run.stepCount > 0 ? run.stepCount : null);
    },
    fork: (atStep, edits) =>
      guarded(async () => {
        const from = get().runs.find((candidate) => candidate.id === get().activeRunId);
        const source = from && controllers.get(from.id);
        if (!from || !source) return;
        const created = await source.fork(atStep, edits);
        const id = addRun({ label: '', graph: from.graph, trace: created.trace, stepCount: created.trace.steps.length, forkOf: { run: from.id, step: atStep }, seed: from.seed, scenario: from.scenario });
        updateRun(id, { label: `Run ${id} (fork of run ${from.id} at step ${atStep})` });
        attach(id, created);
        await continueLive();
      }),
    restoreRuns: async (saved) => {
      const [runtime, { networkAskedOnFirstRequest }] = await Promise.all([loadRuntime(), import('./hosts.ts')]);
      release();
      controllers.clear();
      const { graph } = get();
      const sameGraph = (other: GraphFile) => JSON.stringify(other) === JSON.stringify(graph);
      const runs: RunRecord[] = [];
      for (const { journal, forkedFrom, trace, ...record } of saved.runs) {
        // The graph on screen is the one the run ran on: keep them one object, so Step goes on with the run.
        const ranOn = sameGraph(record.graph) ? graph : record.graph;
        if (journal) {
          const restored = runtime.createController(ranOn, { ...controlOptions(ranOn, networkAskedOnFirstRequest(ranOn, get().documentVersion)), seed: record.seed, scenario: record.scenario, journal, forkedFrom });
          controllers.set(record.id, restored);
          const shown = restored.trace;
          runs.push({ ...record, graph: ranOn, trace: shown, stepCount: shown.steps.length });
        } else if (trace) runs.push({ ...record, graph: ranOn, trace, stepCount: trace.steps.length });
      }
      set({ runs, activeRunId: saved.activeRunId, liveRunId: null, runStatus: 'idle', pendingApproval: null });
      const live = saved.liveRunId === null ? undefined : controllers.get(saved.liveRunId);
      if (live && saved.liveRunId !== null) attach(saved.liveRunId, live);
      else set({ runStatus: runs.some((run) => run.id === saved.activeRunId) ? 'stopped' : 'idle' });
      showStep(saved.selectedStep);
    },
    loadTrace: (trace, shown) => {
      release();
      const graph = shown?.graph ?? get().graph;
      const server = shown?.server;
      const replaced = server && get().runs.find((run) => run.server === server.key);
      let id: number;
      if (replaced) {
        id = replaced.id;
        updateRun(id, { trace, stepCount: trace.steps.length, graph });
        set({ activeRunId: id });
      } else {
        addRun({ label: '', graph, trace, stepCount: trace.steps.length, imported: true, ...(shown?.file ? { file: shown.file } : {}), ...(server ? { server: server.key } : {}), ...(server?.foreign ? { foreign: true } : {}) });
        id = get().activeRunId as number;
        updateRun(id, { label: shown?.label ? `Run ${id}: ${shown.label}` : `Run ${id} (imported)` });
      }
      set({
        liveRunId: null,
        runStatus: server?.status ?? 'stopped',
        pendingApproval: null,
        pausedBy: null,
        runError: null,
        // Only a file read without its own graph may not match the canvas: a scenario's and a server's runs come with theirs.
        traceWarning: shown?.graph || shown?.server || trace.graph === graph.name ? null : `This trace was made on "${trace.graph}", but the open graph is "${graph.name}": the canvas may not match it.`,
      });
      // A server thread read again with nothing new keeps the step the person is looking at.
      const kept = replaced && replaced.trace.steps.length === trace.steps.length ? get().selectedStep : null;
      showStep(kept ?? (trace.steps.length > 0 ? trace.steps.length : null));
      return id;
    },
    readRunState: async (runId, step) => {
      const run = get().runs.find((candidate) => candidate.id === runId);
      return run ? stateOf(await loadRuntime(), run, step) : null;
    },
    dismissRunMessages: () => set({ runError: null, traceWarning: null }),
  };
};
