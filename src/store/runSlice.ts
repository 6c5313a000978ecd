import type { GraphFile, MockEntry } from '../graph/index.ts';
import type { PendingApproval, RunController, RunOptions, RunStatus } from '../runtime/controller.ts';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { networkFor } from './hosts.ts';
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
  /** The graph as it ran, so a fork re-runs exactly that (the runtime re-applies the trace's scenario). */
  graph: GraphFile;
  trace: Trace;
  /** The trace's steps array grows in place during a live run; this count is what changes. */
  stepCount: number;
  forkOf?: { run: number; step: number };
  imported?: boolean;
}

export interface ForkEdits {
  state?: Record<string, unknown>;
  nextResults?: Record<string, MockEntry[]>;
}

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
  /** The state as the selected step left it (time travel). */
  stateAfterSelected: Record<string, unknown> | null;
  runStatus: RunStatus;
  pendingApproval: PendingApproval | null;
  /** Which breakpoint paused the run, in words. */
  pausedBy: string | null;
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
  selectRun: (id: number) => void;
  /** Re-runs the active run up to `atStep`, applies the edits and continues as a new run. */
  fork: (atStep: number, edits: ForkEdits) => Promise<void>;
  /** Shows a finished trace as a run, with no skill called; on `graph`, the graph it was made on, when the trace carries it. */
  loadTrace: (trace: Trace, graph?: GraphFile) => void;
  dismissRunMessages: () => void;
}

const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]);

/** Whether the step's node ran (a guard may stop a step before it): the runtime's `nodeRan`. */
type Ran = (step: TraceStep) => boolean;

export const visitCounts = (steps: readonly TraceStep[], nodeRan: Ran) => {
  // Null prototypes: a node may be called `toString`.
  const nodeVisits: Record<string, number> = Object.create(null);
  const edgeVisits: Record<string, number> = Object.create(null);
  for (const step of steps) {
    if (nodeRan(step)) nodeVisits[step.node] = (nodeVisits[step.node] ?? 0) + 1;
    if (step.fired) edgeVisits[step.fired.id] = (edgeVisits[step.fired.id] ?? 0) + 1;
  }
  return { nodeVisits, edgeVisits };
};

export const overlayFor = (steps: readonly TraceStep[], stepNumber: number | null, nodeRan: Ran): CanvasOverlay => {
  const step = stepNumber === null ? undefined : steps[stepNumber - 1];
  const triedEdges: Record<string, string> = Object.create(null);
  for (const edge of step?.edges ?? []) if (!edge.matched && !edge.skipped) triedEdges[edge.id] = edge.explain;
  return {
    currentNode: step?.node ?? null,
    firedEdge: step?.fired?.id ?? null,
    firedReason: step?.fired?.reason ?? null,
    triedEdges,
    ...visitCounts(steps, nodeRan),
  };
};

const FAILED_OUTCOMES = new Set(['timeout', 'parse_error', 'permission_denied', 'error']);

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

type Runtime = typeof import('../runtime/index.ts');
let runtimeModule: Promise<Runtime> | null = null;
let loadedRuntime: Runtime | null = null;
// Loaded on the first run or trace, so the runtime and LangGraph stay out of the first screen's bundle.
const loadRuntime = () =>
  (runtimeModule ??= import('../runtime/index.ts').then((module) => {
    loadedRuntime = module;
    return module;
  }));

/** The state a step left, from the trace; a compact trace may not hold it. */
const stateAfter = (runtime: Runtime, trace: Trace, stepNumber: number) => {
  try {
    return runtime.stateAfterStep(trace, stepNumber);
  } catch {
    return null;
  }
};

const MAX_RUNS = 12;
const LIVE_REDRAW_MS = 60;

export const createRunSlice: SliceCreator<RunSlice> = (set, get) => {
  let controller: RunController | null = null;
  let unsubscribe: (() => void) | null = null;
  /** Set by Step round: pause before the entry starts the next round. */
  let untilNextRound = false;

  const updateRun = (id: number, change: Partial<RunRecord>) =>
    set((state) => ({ runs: state.runs.map((run) => (run.id === id ? { ...run, ...change } : run)) }));

  const paintStep = (runtime: Runtime) => {
    const { selectedStep, runs, activeRunId } = get();
    const run = runs.find((candidate) => candidate.id === activeRunId);
    set({
      overlay: run ? overlayFor(run.trace.steps, selectedStep, runtime.nodeRan) : null,
      stateAfterSelected: run && selectedStep !== null ? stateAfter(runtime, run.trace, selectedStep) : null,
    });
  };

  const showStep = (stepNumber: number | null) => {
    set({ selectedStep: stepNumber });
    if (loadedRuntime) paintStep(loadedRuntime);
    else void loadRuntime().then(paintStep);
  };

  /** Copies the live controller's progress into its run record and follows the last step. */
  const syncLive = () => {
    if (!controller || get().liveRunId === null) return;
    const id = get().liveRunId as number;
    const trace = controller.trace;
    updateRun(id, { trace, stepCount: trace.steps.length });
    set({ runStatus: controller.status, pendingApproval: controller.pendingApproval, activeRunId: id });
    showStep(trace.steps.length > 0 ? trace.steps.length : null);
  };

  let pendingSync: ReturnType<typeof setTimeout> | null = null;
  const flushLive = () => {
    if (pendingSync !== null) clearTimeout(pendingSync);
    pendingSync = null;
    syncLive();
  };

  const detach = () => {
    if (pendingSync !== null) clearTimeout(pendingSync);
    pendingSync = null;
    unsubscribe?.();
    unsubscribe = null;
    controller?.stop();
    controller = null;
  };

  const addRun = (record: Omit<RunRecord, 'id'>) => {
    const id = (get().runs.at(-1)?.id ?? 0) + 1;
    set((state) => ({ runs: [...state.runs, { ...record, id }].slice(-MAX_RUNS), activeRunId: id }));
    return id;
  };

  /** A new live run, or null when the person did not allow the hosts it would contact. */
  const attach = async (graph: GraphFile, seed: number, extra: Partial<RunOptions>, label: (id: number) => string, forkOf?: RunRecord['forkOf']) => {
    const network = await networkFor(graph, get().documentVersion);
    if (!network) {
      set({ runError: 'Not run: it would contact hosts that were not allowed.' });
      return null;
    }
    const runtime = await loadRuntime();
    detach();
    const options: RunOptions = {
      seed,
      ...network,
      ...extra,
      get stepDelayMs() {
        return get().speedMs;
      },
      shouldPauseBefore: (nodeId, state) => {
        if (untilNextRound && nodeId === graph.entry && Number(state.steps ?? 0) > 0) {
          set({ pausedBy: `Step round: paused before round ${roundOf(graph, nodeId, state)} starts` });
          return true;
        }
        const reason = pauseBeforeReason(get().breakpoints, graph, nodeId, state);
        if (reason) set({ pausedBy: reason });
        return reason !== null;
      },
      shouldPauseAfter: (step) => {
        const steps = controller?.trace.steps ?? [];
        const reason = pauseAfterReason(get().breakpoints, graph, step, steps[step.step - 2]);
        if (reason) set({ pausedBy: reason });
        return reason !== null;
      },
    };
    const created = runtime.createController(graph, options);
    controller = created;
    const id = addRun({ label: '', graph, trace: created.trace, stepCount: 0, forkOf });
    updateRun(id, { label: label(id) });
    set({ liveRunId: id, runError: null, pausedBy: null, pendingApproval: null });
    unsubscribe = created.subscribe((event) => {
      if (controller !== created) return;
      // An instant run makes steps faster than the page can draw them: draw at most every LIVE_REDRAW_MS.
      if (event.type === 'step' && created.status === 'running' && get().speedMs === 0) {
        pendingSync ??= setTimeout(flushLive, LIVE_REDRAW_MS);
        return;
      }
      flushLive();
    });
    await created.ready;
    syncLive();
    return created;
  };

  const startFresh = async () => {
    try {
      const { graph, scenario, seed } = get();
      // The runtime applies the named scenario and records it in the trace, as the command line does.
      return await attach(graph, seed, scenario === null ? {} : { scenario }, (id) => `Run ${id}`);
    } catch (error) {
      set({ runError: error instanceof Error ? error.message : String(error) });
      return null;
    }
  };

  /** The controller that can go on, or a fresh one; an edited graph starts afresh rather than stepping a stale run. */
  const goOn = async () => {
    const live = get().runs.find((run) => run.id === get().liveRunId);
    return controller && controller.status !== 'stopped' && live?.graph === get().graph ? controller : startFresh();
  };

  const guarded = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      set({ runError: error instanceof Error ? error.message : String(error) });
    }
    syncLive();
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
    runStatus: 'idle',
    pendingApproval: null,
    pausedBy: null,
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
        await live?.step();
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
    continueRun: () =>
      guarded(async () => {
        set({ pausedBy: null });
        await controller?.run();
      }),
    pause: () => controller?.pause(),
    reset: () => {
      detach();
      set({ runs: [], activeRunId: null, liveRunId: null, selectedStep: null, stateAfterSelected: null, overlay: null, runStatus: 'idle', pendingApproval: null, pausedBy: null, runError: null, traceWarning: null });
    },
    decide: (decision) =>
      guarded(async () => {
        if (!controller) return;
        controller.decide(decision);
        set({ pausedBy: null });
        await controller.run();
      }),
    selectStep: (step) => showStep(step),
    selectRun: (id) => {
      const run = get().runs.find((candidate) => candidate.id === id);
      if (!run) return;
      set({ activeRunId: id });
      showStep(run.stepCount > 0 ? run.stepCount : null);
    },
    fork: (atStep, edits) =>
      guarded(async () => {
        const from = get().runs.find((candidate) => candidate.id === get().activeRunId);
        if (!from) return;
        const created = await attach(
          from.graph,
          from.trace.seed,
          { fork: { fromTrace: from.trace, atStep, state: edits.state, nextResults: edits.nextResults } },
          (id) => `Run ${id} (fork of run ${from.id} at step ${atStep + 1})`,
          { run: from.id, step: atStep + 1 },
        );
        await created?.run();
      }),
    loadTrace: (trace, ownGraph) => {
      detach();
      const graph = ownGraph ?? get().graph;
      addRun({ label: '', graph, trace, stepCount: trace.steps.length, imported: true });
      const id = get().activeRunId as number;
      updateRun(id, { label: `Run ${id} (imported)` });
      set({
        liveRunId: null,
        runStatus: 'stopped',
        pendingApproval: null,
        pausedBy: null,
        runError: null,
        traceWarning: ownGraph || trace.graph === graph.name ? null : `This trace was made on "${trace.graph}", but the open graph is "${graph.name}": the canvas may not match it.`,
      });
      showStep(trace.steps.length > 0 ? trace.steps.length : null);
    },
    dismissRunMessages: () => set({ runError: null, traceWarning: null }),
  };
};
