/**
 * Scenarios in the app: run them (never calling a real skill), show a failure's run at the step
 * where it parts from the scenario, save a run as a scenario through the graph's one edit path,
 * and compare two runs. The runtime is loaded lazily, as the run slice does.
 */
import { removeScenario, saveScenario, type GraphFile, type Scenario } from '../graph/index.ts';
import type { ExpectationFailure, ScenarioDraft } from '../runtime/index.ts';
import type { Trace } from '../runtime/trace.ts';
import { loadRuntime, overlayFor, type CanvasParting, type RunRecord } from './runSlice.ts';
import type { SliceCreator } from './types.ts';

export interface ScenarioRunResult {
  status: 'passed' | 'failed' | 'error';
  failures: ExpectationFailure[];
  /** The first step where the run parts from the scenario. */
  divergence: number | null;
  /** Why the scenario could not run (an override that is not a valid skill). */
  error?: string;
  trace?: Trace;
  /** The graph it ran against: when the graph has changed since, the result may be out of date. */
  graph: GraphFile;
  /** The document it belongs to: a result of another document (opened since) is not shown. */
  documentVersion: number;
  /** The run record showing it in the debugger, once opened. */
  runId?: number;
}

export interface RunPair {
  left: number;
  right: number;
}

/** By scenario name. A Map, because a name is the person's text ("constructor" included), never an object key. */
export interface ScenarioSlice {
  scenarioResults: ReadonlyMap<string, ScenarioRunResult>;
  /** The scenarios being run now, in order; empty when none. */
  scenariosRunning: string[];
  /** The run each scenario was saved from in this session: what its failure is compared with. */
  scenarioSources: ReadonlyMap<string, number>;
  comparison: RunPair | null;
  /** Runs these scenarios of the open graph (all of them when no names are given), one after another. */
  runScenarios: (names?: string[]) => Promise<void>;
  /** Shows the scenario's last run in the debugger, at the step where it parts from the scenario; returns the run's id. */
  openScenarioRun: (name: string) => number | null;
  /** What "Save as scenario" proposes for a run on screen, for the person to trim. */
  draftScenario: (runId: number) => Promise<ScenarioDraft | null>;
  /** Saves (or replaces, by name) a scenario in the graph: one undoable edit. */
  saveScenario: (scenario: Scenario, fromRun?: number) => void;
  removeScenario: (name: string) => void;
  compareRuns: (pair: RunPair) => void;
  closeComparison: () => void;
  /** Shows the right run at the step where the two part, and marks on the canvas the edge each run took there. */
  showParting: (pair: RunPair, step: number, parting: CanvasParting) => Promise<void>;
}

/** Why a run on screen cannot become a scenario, or null when it can. */
export const unsavableReason = (run: RunRecord): string | null =>
  run.foreign
    ? 'This run is of a LangGraph server graph that Loopscope did not make: the server tells only which node ran, so there is nothing a scenario could replay here.'
    : null;

type Runtime = typeof import('../runtime/index.ts');

/** Hands the page a frame between scenarios, so that the panel fills in as they finish. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const runOne = async (runtime: Runtime, graph: GraphFile, documentVersion: number, scenario: Scenario): Promise<ScenarioRunResult> => {
  try {
    const { failures, trace, divergence } = await runtime.runScenario(graph, scenario);
    return { status: failures.length === 0 ? 'passed' : 'failed', failures, divergence, trace, graph, documentVersion };
  } catch (error) {
    return { status: 'error', failures: [], divergence: null, error: error instanceof Error ? error.message : String(error), graph, documentVersion };
  }
};

export const createScenarioSlice: SliceCreator<ScenarioSlice> = (set, get) => ({
  scenarioResults: new Map(),
  scenariosRunning: [],
  scenarioSources: new Map(),
  comparison: null,

  runScenarios: async (names) => {
    if (get().scenariosRunning.length > 0) return;
    const { graph, documentVersion } = get();
    const chosen = graph.scenarios.filter((scenario) => !names || names.includes(scenario.name));
    set({ scenariosRunning: chosen.map((scenario) => scenario.name) });
    try {
      const runtime = await loadRuntime();
      for (const scenario of chosen) {
        const result = await runOne(runtime, graph, documentVersion, scenario);
        set((state) => ({ scenarioResults: new Map(state.scenarioResults).set(scenario.name, result), scenariosRunning: state.scenariosRunning.filter((name) => name !== scenario.name) }));
        await nextTask();
      }
    } finally {
      set({ scenariosRunning: [] });
    }
  },

  openScenarioRun: (name) => {
    const result = get().scenarioResults.get(name);
    if (!result?.trace) return null;
    const shown = result.runId !== undefined && get().runs.some((run) => run.id === result.runId);
    const id = shown ? (result.runId as number) : get().loadTrace(result.trace, { label: `scenario "${name}" (${result.status})`, graph: result.graph });
    if (shown) get().selectRun(id);
    set((state) => ({ scenarioResults: new Map(state.scenarioResults).set(name, { ...result, runId: id }) }));
    get().selectStep(result.divergence ?? result.trace.steps.length);
    return id;
  },

  draftScenario: async (runId) => {
    const run = get().runs.find((candidate) => candidate.id === runId);
    if (!run || unsavableReason(run)) return null;
    const runtime = await loadRuntime();
    return runtime.scenarioFromRun(run.graph, run.trace, get().graph.scenarios.map((scenario) => scenario.name));
  },

  saveScenario: (scenario, fromRun) => {
    get().edit((graph) => saveScenario(graph, scenario));
    set((state) => {
      // A result of the scenario's earlier version says nothing about this one.
      const scenarioResults = new Map(state.scenarioResults);
      scenarioResults.delete(scenario.name);
      return { scenarioResults, scenarioSources: fromRun === undefined ? state.scenarioSources : new Map(state.scenarioSources).set(scenario.name, fromRun) };
    });
  },

  removeScenario: (name) => get().edit((graph) => removeScenario(graph, name)),

  compareRuns: (pair) => set({ comparison: pair }),
  closeComparison: () => {
    set({ comparison: null });
    // The canvas goes back to the shown step alone.
    get().selectStep(get().selectedStep);
  },

  showParting: async (pair, step, parting) => {
    const right = get().runs.find((run) => run.id === pair.right);
    if (!right) return;
    get().selectRun(pair.right);
    get().selectStep(step);
    // Awaited after the run slice asked for the same module to paint the step: the parting marks go over its paint.
    await loadRuntime();
    if (get().activeRunId !== pair.right || get().selectedStep !== step) return;
    set({ overlay: { ...overlayFor(right.trace.steps, step, right.stepCount), parting } });
  },
});
