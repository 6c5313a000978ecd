import { describeProblems, kindDefinition, own, type GraphFile, type GraphNode, type Scenario } from '../graph/index.ts';
import { Skill } from '../graph/skills.ts';
import { parseWith } from '../graph/parse.ts';
import { isScripted, STAND_IN_TYPE } from '../graph/skillTypes/index.ts';
import { visibleText } from '../graph/visible.ts';

/** Why a scenario cannot run; a message of several lines, the names it quotes made visible (src/graph/visible.ts). */
export class ScenarioError extends Error {}

/** Why a scenario run refuses a real skill: the sentence each of its attempts carries. */
export const refusedRealSkill = (scenario: string, name: string, type: string) =>
  `scenario "${scenario}" gives the ${type} skill "${name}" no mock script, and a scenario never calls a real skill: add "skills": {"${name}": {"type": "mock", "script": [...]}} to the scenario`;

/**
 * The skill as the scenario runs it. A partial override is merged over the graph's skill; one
 * that makes a real skill a mock (a `type` of its own, or just a `script`) replaces it, keeping
 * its access (what the permission check sees) and its token cost.
 */
const overriddenSkill = (scenario: Scenario, name: string, base: Skill | undefined, override: Record<string, unknown>): Skill => {
  const type = override.type ?? (base && !isScripted(base) && 'script' in override ? STAND_IN_TYPE : undefined);
  const replaces = base !== undefined && type !== undefined && type !== base.type;
  const kept = base && { access: base.access, ...(base.tokens === undefined ? {} : { tokens: base.tokens }) };
  const merged = parseWith(Skill, replaces ? { ...kept, ...override, type } : { ...base, ...override }, ['skills', name]);
  if (!merged.ok) throw new ScenarioError(`scenario "${visibleText(scenario.name)}": ${describeProblems(merged.problems)}`);
  return merged.value;
};

/** The nodes that ask a person (`interruptsBefore`) with the scenario's answers given in advance (`config.answers`), so the run asks nobody. */
const withDecisions = (nodes: GraphFile['nodes'], decisions: Scenario['decisions']): GraphFile['nodes'] =>
  decisions === undefined ? nodes : nodes.map((node) => {
    const answers = own(decisions, node.id);
    return kindDefinition(node.kind).interruptsBefore && answers ? ({ ...node, config: { ...node.config, answers } } as GraphNode) : node;
  });

/**
 * The graph as the scenario runs it: its skills overridden, its state merged, its approvals
 * answered as the scenario says. A scenario is an
 * offline test, so an http or llm skill it does not replace by a mock is refused rather than
 * called: every attempt of it is an `error` attempt that says so.
 */
export const applyScenario = (graph: GraphFile, scenario: Scenario): GraphFile => {
  const names = new Set([...Object.keys(graph.skills), ...Object.keys(scenario.skills ?? {})]);
  // Built from entries: a name is data, and an assignment by name could reach the prototype.
  const skills: GraphFile['skills'] = Object.fromEntries([...names].map((name) => {
    const base = own(graph.skills, name);
    const override = own(scenario.skills, name);
    const skill = override ? overriddenSkill(scenario, name, base, override) : (base as Skill);
    return [name, isScripted(skill) ? skill
      : { type: STAND_IN_TYPE, access: skill.access, tokens: 0, script: [{ outcome: 'error', error: refusedRealSkill(scenario.name, name, skill.type) }] }];
  }));
  return { ...graph, skills, state: { ...graph.state, ...scenario.state }, nodes: withDecisions(graph.nodes, scenario.decisions) };
};

/** The graph and seed a run uses when its options name one of the graph's scenarios. */
export const withNamedScenario = (graph: GraphFile, name: string | undefined, seed: number | undefined): { graph: GraphFile; seed: number | undefined } => {
  if (name === undefined) return { graph, seed };
  const scenario = graph.scenarios.find((candidate) => candidate.name === name);
  if (!scenario)
    throw new ScenarioError(`the graph has no scenario "${visibleText(name)}" (it has: ${graph.scenarios.map((candidate) => `"${visibleText(candidate.name)}"`).join(', ') || 'none'})`);
  return { graph: applyScenario(graph, scenario), seed: seed ?? scenario.seed };
};
