/**
 * Scenarios in the app: their results, the runs they were saved from, and the two runs compared.
 * What runs, saves and shows them loads with the debugger's panels (scenarioActions.ts).
 */
import type { GraphFile, Scenario } from '../graph/index.ts';
import type { ScenarioDraft, ScenarioOutcome } from '../runtime/index.ts';
import { deferredActions } from './deferredActions.ts';
import type { CanvasParting } from './runSlice.ts';
import type { ScenarioWatch } from './scenarioWatchState.ts';
import type { SliceCreator } from './types.ts';

export interface ScenarioRunResult extends ScenarioOutcome {
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
  /** The scenarios re-run after each edit (scenarioWatch.ts); absent until it starts, after the first screen. */
  scenarioWatch?: ScenarioWatch;
  /** Runs these scenarios of the open graph (all of them when no names are given), one after another. */
  runScenarios: (names?: string[]) => Promise<void>;
  /** Shows the scenario's last run in the debugger, at the step where it parts from the scenario; returns the run's id. */
  openScenarioRun: (name: string) => Promise<number | null>;
  /** What "Save as scenario" proposes for a run on screen, for the person to trim. */
  draftScenario: (runId: number) => Promise<ScenarioDraft | null>;
  /** Saves (or replaces, by name) a scenario in the graph: one undoable edit. */
  saveScenario: (scenario: Scenario, fromRun?: number) => void;
  removeScenario: (name: string) => void;
  compareRuns: (pair: RunPair) => void;
  closeComparison: () => void;
  /** Shows the right run at the step where the two part, and marks on the canvas the edge each run took there. */
  showParting: (pair: RunPair, step: number, parting: CanvasParting) => Promise<void>;
  /** Puts the scenarios' actions (scenarioActions.ts) in the store, loading their code once. */
  loadScenarioActions: () => Promise<void>;
}

/** Their code loads with the debugger's panels, as the run's actions do (scenarioActions.ts). */
const SCENARIO_ACTIONS = ['runScenarios', 'openScenarioRun', 'draftScenario', 'saveScenario', 'removeScenario', 'showParting'] as const;
export type ScenarioActionName = (typeof SCENARIO_ACTIONS)[number];

export const createScenarioSlice: SliceCreator<ScenarioSlice> = (set, get) => {
  const { standIns, load } = deferredActions<ScenarioSlice, ScenarioActionName>(set, get, SCENARIO_ACTIONS, async () => (await import('./scenarioActions.ts')).createScenarioActions(set, get));
  return {
  scenarioResults: new Map(),
  scenariosRunning: [],
  scenarioSources: new Map(),
  comparison: null,

  compareRuns: (pair) => set({ comparison: pair }),
  closeComparison: () => {
    set({ comparison: null });
    // The canvas goes back to the shown step alone.
    get().selectStep(get().selectedStep);
  },

  ...standIns,
  loadScenarioActions: load,
  };
};
