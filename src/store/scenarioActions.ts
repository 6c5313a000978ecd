/**
 * What scenarios do in the app: run them (never calling a real skill), show a failure's run at the
 * step where it parts from the scenario, save a run as a scenario through the graph's one edit path,
 * and show where two runs part. Loaded with the debugger's panels; once loaded, these actions are the store's.
 */
import { removeScenario, saveScenario } from '../graph/scenarioOps.ts';
import { overlayFor } from './runActions.ts';
import type { RunRecord } from './runSlice.ts';
import { loadRuntime } from './runtimeLoader.ts';
import type { ScenarioActionName, ScenarioRunResult, ScenarioSlice } from './scenarioSlice.ts';
import type { GetApp, SetApp } from './types.ts';

/** Why a run on screen cannot become a scenario, or null when it can. */
export const unsavableReason = (run: RunRecord): string | null =>
  run.foreign
    ? 'This run is of a LangGraph server graph that Loopscope did not make: the server tells only which node ran, so there is nothing a scenario could replay here.'
    : null;

/** Hands the page a frame between scenarios, so that the panel fills in as they finish. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export const createScenarioActions = (set: SetApp, get: GetApp): Pick<ScenarioSlice, ScenarioActionName> => ({
  runScenarios: async (names) => {
    if (get().scenariosRunning.length > 0) return;
    const { graph, documentVersion } = get();
    const chosen = graph.scenarios.filter((scenario) => !names || names.includes(scenario.name));
    set({ scenariosRunning: chosen.map((scenario) => scenario.name) });
    try {
      const runtime = await loadRuntime();
      for (const scenario of chosen) {
        const result: ScenarioRunResult = { ...(await runtime.scenarioOutcome(graph, scenario)), graph, documentVersion };
        set((state) => ({ scenarioResults: new Map(state.scenarioResults).set(scenario.name, result), scenariosRunning: state.scenariosRunning.filter((name) => name !== scenario.name) }));
        await nextTask();
      }
    } finally {
      set({ scenariosRunning: [] });
    }
  },

  openScenarioRun: async (name) => {
    const result = get().scenarioResults.get(name);
    if (!result?.trace) return null;
    const shown = result.runId !== undefined && get().runs.some((run) => run.id === result.runId);
    const id = shown ? (result.runId as number) : await get().loadTrace(result.trace, { label: `scenario "${name}" (${result.status})`, graph: result.graph });
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
