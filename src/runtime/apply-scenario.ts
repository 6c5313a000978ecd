import { describeProblems, parseWith, Skill, type GraphFile, type Scenario } from '../graph/index.ts';

export class ScenarioError extends Error {}

/** Why a scenario run refuses a real skill: the sentence each of its attempts carries. */
export const refusedRealSkill = (scenario: string, name: string, type: string) =>
  `scenario "${scenario}" gives the ${type} skill "${name}" no mock script, and a scenario never calls a real skill: add "skills": {"${name}": {"type": "mock", "script": [...]}} to the scenario`;

/**
 * The skill as the scenario runs it. A partial override is merged over the graph's skill; one
 * that changes the type (an http skill pinned as a mock) replaces it, keeping its access, so that
 * the permission check still sees what the real skill would need.
 */
const overriddenSkill = (scenario: Scenario, name: string, base: Skill | undefined, override: Record<string, unknown>): Skill => {
  const replaces = base !== undefined && override.type !== undefined && override.type !== base.type;
  const merged = parseWith(Skill, replaces ? { access: base.access, ...override } : { ...base, ...override }, ['skills', name]);
  if (!merged.ok) throw new ScenarioError(`scenario "${scenario.name}": ${describeProblems(merged.problems)}`);
  return merged.value;
};

/**
 * The graph as the scenario runs it: its skills overridden, its state merged. A scenario is an
 * offline test, so an http or llm skill it does not replace by a mock is refused rather than
 * called: every attempt of it is an `error` attempt that says so.
 */
export const applyScenario = (graph: GraphFile, scenario: Scenario): GraphFile => {
  const skills: GraphFile['skills'] = {};
  for (const name of new Set([...Object.keys(graph.skills), ...Object.keys(scenario.skills ?? {})])) {
    const base = graph.skills[name] as Skill | undefined;
    const override = scenario.skills?.[name];
    const skill = override ? overriddenSkill(scenario, name, base, override) : (base as Skill);
    skills[name] = skill.type === 'mock' ? skill
      : { type: 'mock', access: skill.access, tokens: 0, script: [{ outcome: 'error', error: refusedRealSkill(scenario.name, name, skill.type) }] };
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
