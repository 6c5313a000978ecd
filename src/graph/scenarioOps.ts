/** Pure edits of a graph's scenarios. */
import type { GraphFile, Scenario } from './schema.ts';

/** Saves a scenario: one of the same name is replaced where it stands, a new one goes last. */
export const saveScenario = (graph: GraphFile, scenario: Scenario): GraphFile => {
  const at = graph.scenarios.findIndex((candidate) => candidate.name === scenario.name);
  return { ...graph, scenarios: at === -1 ? [...graph.scenarios, scenario] : graph.scenarios.map((candidate, index) => (index === at ? scenario : candidate)) };
};

/** Removes the scenario of that name. */
export const removeScenario = (graph: GraphFile, name: string): GraphFile => ({ ...graph, scenarios: graph.scenarios.filter((scenario) => scenario.name !== name) });
