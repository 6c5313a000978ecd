import { describeProblems, own, parseWith, Skill, type GraphFile, type Scenario } from '../graph/index.ts';

export class ScenarioError extends Error {}

/** The graph as the scenario runs it: each partial skill merged over the graph's and re-validated. */
export const applyScenario = (graph: GraphFile, scenario: Scenario): GraphFile => {
  const skills = { ...graph.skills };
  for (const [name, override] of Object.entries(scenario.skills ?? {})) {
    const merged = parseWith(Skill, { ...own(graph.skills, name), ...override }, ['skills', name]);
    if (!merged.ok) throw new ScenarioError(`scenario "${scenario.name}": ${describeProblems(merged.problems)}`);
    skills[name] = merged.value;
  }
  return { ...graph, skills, state: { ...graph.state, ...scenario.state } };
};

/** The graph and seed a run uses when its options name one of the graph's scenarios. */
export const withNamedScenario = (graph: GraphFile, name: string | undefined, seed: number | undefined): { graph: GraphFile; seed: number | undefined } => {
  if (name === undefined) return { graph, seed };
  const scenario = graph.scenarios.find((candidate) => candidate.name === name);
  if (!scenario)
    throw new ScenarioError(`the graph has no scenario "${name}" (it has: ${graph.scenarios.map((candidate) => `"${candidate.name}"`).join(', ') || 'none'})`);
  return { graph: applyScenario(graph, scenario), seed: seed ?? scenario.seed };
};
