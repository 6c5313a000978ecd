import type { GraphFile } from '../graph/schema.ts';
import type { ForkEdits, JournalEntry, PendingApproval, RunController, RunStatus } from '../runtime/controller.ts';
import type { Attempt, Trace } from '../runtime/trace.ts';
import { deferredActions } from './deferredActions.ts';
import type { NodeRunStatus } from './nodeStatus.ts';
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

/** The breakpoints are the run's pause rules (runtime/pauseRules.ts), handed to it as data at each Run. */
import type { BreakCondition, Breakpoints } from '../runtime/pauseRules.ts';

export type { BreakCondition, Breakpoints };

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
  /**
   * Kept as its trace, with no journal (an imported trace, a scenario's run, a server's thread): it
   * is not forked from the step detail, and after a reload it is shown, not driven. A server's
   * thread is driven by its connection while it is the open thread.
   */
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
  /** The Debug layout (timeline and step detail side by side under the canvas) rather than the editing one; remembered by this browser (src/persistence/browserSettings.ts). */
  debugLayout: boolean;
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
  /** Why the last Run or Step could not start, shown beside the Run button; no run is shown then, so none looks like its result. */
  runRefused: string | null;
  /** E.g. an imported trace made on another graph. */
  traceWarning: string | null;
  seed: number;
  speedMs: number;
  /** The scenario chosen for the next run, by graph of the library (its document id): a choice made on one graph never runs another. */
  scenarioChoices: ReadonlyMap<string, string>;

  setSeed: (seed: number) => void;
  setSpeed: (ms: number) => void;
  /** Chooses the open graph's scenario for its next runs (null: the graph as drawn). */
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
   * one made elsewhere, such as a scenario's, with its own label and graph. Returns the run's id
   * (a promise while the run's code has not loaded).
   */
  loadTrace: (trace: Trace, shown?: { label?: string; graph?: GraphFile; file?: Blob }) => number | Promise<number>;
  /**
   * Shows a run that goes on elsewhere (a LangGraph server's open thread, `key` naming it) as the
   * live run: its controller's events redraw it, and Continue, Approve, Deny, Pause and Fork drive
   * it through the `RunController` contract as they drive a run in the page. A later call with the
   * same key (the thread went on, it was forked) updates that run in place. Returns the run's id.
   */
  followRun: (controller: RunController, shown: { key: string; label: string; graph: GraphFile; foreign?: boolean }) => number | Promise<number>;
  /** The run followed as `key` stays on screen as a run of its own, keyed `kept.key`, its label with `kept.label` after it (a server thread's branch a fork leaves behind). */
  keepServerBranch: (key: string, kept: { key: string; label: string }) => void | Promise<void>;
  dismissRunMessages: () => void;
  /** Puts the run's actions (runActions.ts) in the store, loading their code once. */
  loadRunActions: () => Promise<void>;
}

const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]);

// The runtime's loader is its own module, which runActions.ts (loaded from here) imports too.
export { loadRuntime, warmUpRuntime } from './runtimeLoader.ts';

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

/**
 * What drives and shows runs (runActions.ts) loads with the debugger's panels, which offer it, and
 * with the session store: the first screen draws the canvas with none of it.
 */
const RUN_ACTIONS = ['setScenario', 'dismissRunMessages', 'run', 'step', 'stepRound', 'continueRun', 'pause', 'reset', 'decide', 'selectStep', 'selectRun', 'fork', 'restoreRuns', 'readRunState', 'loadTrace', 'followRun', 'keepServerBranch'] as const;
export type RunActionName = (typeof RUN_ACTIONS)[number];

export const createRunSlice: SliceCreator<RunSlice> = (set, get) => {
  const { standIns, load } = deferredActions<RunSlice, RunActionName>(set, get, RUN_ACTIONS, async () => {
    const actions = await import('./runActions.ts');
    return actions.createRunActions(set, get, actions.runRegistry);
  });
  return {
    debugLayout: false,
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
    runRefused: null,
    traceWarning: null,
    seed: 1,
    speedMs: 0,
    scenarioChoices: new Map(),

    setSeed: (seed) => set({ seed }),
    setSpeed: (speedMs) => set({ speedMs }),
    ...standIns,
    loadRunActions: load,
  };
};
