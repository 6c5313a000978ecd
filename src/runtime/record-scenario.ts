/**
 * "Save as scenario": a run turned into a test. What the run did (path, stop reason, rounds,
 * attempts) becomes the expectations, and what each skill returned, real http, llm and mcp skills
 * included, becomes a mock script, so that the test replays the run offline.
 */
import { own } from '../graph/common.ts';
import { kindDefinition } from '../graph/kinds/index.ts';
import type { GraphFile, Scenario } from '../graph/schema.ts';
import type { MockEntry } from '../graph/skills.ts';
import { isScripted, STAND_IN_TYPE, toolOfSkill } from '../graph/skillTypes/index.ts';
import { ANSWERED_BY_PERSON } from './kinds/index.ts';
import { nodeRan, savedStepOf, settingsAsRun } from './scenario.ts';
import type { Attempt, Trace } from './trace.ts';

export interface ScenarioDraft {
  scenario: Scenario;
  /** What the scenario cannot pin as the run had it, in sentences for the person saving it. */
  notes: string[];
}


/** Whether the graph's skill `name` calls an MCP tool, whose access its server tells at run time. */
const callsTool = (graph: GraphFile, name: string) => {
  const skill = own(graph.skills, name);
  return skill !== undefined && toolOfSkill(skill) !== null;
};
/** A permission refusal or an unknown skill: the attempt was recorded, the skill was never called. */
const neverCalled = (attempt: Attempt, graph: GraphFile) =>
  !(attempt.skill in graph.skills) || (attempt.outcome === 'permission_denied' && (attempt.retry ?? '').startsWith('permission check'));

/** A trace made before attempts kept their records: a call is told apart from a refusal by its words. */
const wasCalled = (attempt: Attempt, graph: GraphFile, keepsRecords: boolean) =>
  keepsRecords ? attempt.returned !== undefined : !neverCalled(attempt, graph);

/** The reply an llm gave, as JSON when it is JSON, so that the saved script reads well. */
const replyOf = (text: string): unknown => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : text;
  } catch {
    return text;
  }
};

const entryOf = (attempt: Attempt): { entry: MockEntry; placeholder: boolean } => {
  const records = attempt.returned ?? (attempt.outcome === 'ok' ? Array.from({ length: attempt.records ?? 1 }, () => ({})) : undefined);
  return {
    entry: {
      outcome: attempt.outcome,
      ...(records && records.length > 0 ? { records } : {}),
      tokens: attempt.tokens,
      ...(attempt.error ? { error: attempt.error } : {}),
      ...(attempt.text === undefined ? {} : { reply: replyOf(attempt.text) }),
    },
    placeholder: attempt.returned === undefined && records !== undefined,
  };
};

const unique = (name: string, taken: readonly string[]) => {
  if (!taken.includes(name)) return name;
  let n = 2;
  while (taken.includes(`${name} (${n})`)) n += 1;
  return `${name} (${n})`;
};

/**
 * The scenario that pins this run. `graph` is the graph the run ran on; `taken` the names the
 * open graph's scenarios already use.
 */
export const scenarioFromRun = (graph: GraphFile, trace: Trace, taken: readonly string[] = []): ScenarioDraft => {
  const notes: string[] = [];
  const attempts = trace.steps.flatMap((step) => step.attempts);
  const keepsRecords = attempts.some((attempt) => attempt.returned !== undefined);
  const scripts = new Map<string, MockEntry[]>();
  const placeholders = new Set<string>();
  for (const attempt of attempts) {
    if (!wasCalled(attempt, graph, keepsRecords)) continue;
    const { entry, placeholder } = entryOf(attempt);
    scripts.set(attempt.skill, [...(scripts.get(attempt.skill) ?? []), entry]);
    if (placeholder) placeholders.add(attempt.skill);
  }
  // An MCP tool's access is its server's to tell: the mock keeps what the run learned, so a denial replays as a denial.
  const learned = new Map(attempts.flatMap((attempt) => (attempt.access && callsTool(graph, attempt.skill) ? [[attempt.skill, attempt.access] as const] : [])));
  for (const [name] of learned)
    if (!scripts.has(name)) scripts.set(name, [{ outcome: 'error', tokens: 0, error: `${name} was never called in the run this scenario was saved from (only refused)` }]);
  if (placeholders.size > 0)
    notes.push(`This trace does not hold the records ${[...placeholders].join(', ')} returned (it was made by an older Loopscope): their scripts return empty placeholder records.`);
  for (const [name, skill] of Object.entries(graph.skills))
    if (!isScripted(skill) && !scripts.has(name))
      notes.push(`The ${skill.type} skill ${name} was not called in this run: the scenario refuses it (an error attempt) if a later version of the graph calls it.`);

  const original = trace.scenario === undefined ? undefined : graph.scenarios.find((scenario) => scenario.name === trace.scenario);
  if (trace.forkedFrom && trace.forkedFrom.edited.length > 0)
    notes.push(`This run is a fork with the state after step ${trace.forkedFrom.step} edited (${trace.forkedFrom.edited.join(', ')}): a scenario starts from the initial state, so it does not make that edit.`);
  // Every answer of a node that a person answered at least once, in order: the replay takes them by visit.
  const answered = new Map<string, ('approved' | 'denied')[]>();
  const byPerson = new Set<string>();
  for (const step of trace.steps.filter((candidate) => kindDefinition(candidate.kind).interruptsBefore && nodeRan(candidate))) {
    if (step.outcome !== 'approved' && step.outcome !== 'denied') continue;
    answered.set(step.node, [...(answered.get(step.node) ?? []), step.outcome]);
    if (ANSWERED_BY_PERSON[step.kind]?.(step.writes ?? {})) byPerson.add(step.node);
  }
  const decisions = [...answered].filter(([node]) => byPerson.has(node));
  if (trace.stopReason === null) notes.push('The run has not stopped: the scenario pins what it did so far, with no stop reason.');

  const ran = trace.steps.filter(nodeRan);
  // A Map: a trace may come from a file, and its node names are never object keys until written out.
  const attemptsByNode = new Map<string, number>();
  for (const step of ran) if (step.attempts.length > 0) attemptsByNode.set(step.node, (attemptsByNode.get(step.node) ?? 0) + step.attempts.length);
  const outcome = trace.stopReason ?? 'unfinished';
  const scenario: Scenario = {
    name: unique(`${trace.scenario ?? trace.graph}: ${outcome} in ${trace.rounds} round(s)`, taken),
    description: `Saved from a run (seed ${trace.seed}): the path, the stop and each skill's results as it ran.`,
    seed: trace.seed,
    ...(scripts.size > 0 ? { skills: Object.fromEntries([...scripts].map(([name, script]) => [name, { type: STAND_IN_TYPE, ...(learned.has(name) ? { access: learned.get(name) } : {}), script }])) } : {}),
    ...(original?.state ? { state: original.state } : {}),
    ...(decisions.length > 0 ? { decisions: Object.fromEntries(decisions) } : {}),
    expect: {
      ...(trace.stopReason === null ? {} : { stopReason: trace.stopReason }),
      rounds: trace.rounds,
      ...(attemptsByNode.size > 0 ? { attempts: Object.fromEntries(attemptsByNode) } : {}),
      path: ran.map((step) => step.node),
    },
  };
  // What the run did at each step and the graph it ran on, its skills as this scenario runs them:
  // a later failure names the step where it parts and the setting that changed.
  scenario.savedFrom = {
    steps: ran.map(savedStepOf),
    tokensUsed: trace.tokensUsed,
    rounds: trace.rounds,
    settings: settingsAsRun(graph, scenario),
  };
  return { scenario, notes };
};
