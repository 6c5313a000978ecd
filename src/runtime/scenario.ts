/** Scenarios (SPEC §4): overrides of a graph, and the expectations its trace must meet. */
import type { GraphFile, SavedRun, Scenario, TokenExpectation } from '../graph/schema.ts';
import { describeWhen } from '../graph/describe.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { own } from '../graph/common.ts';
import { changeWords, nodeOfSetting, settingChanges, settingName, settingsOf, type SettingChange, type Settings } from '../graph/settings.ts';
import { visibleText } from '../graph/visible.ts';
import { readPath } from '../skills/index.ts';
import { runGraph, type HeadlessOptions } from './run.ts';
export { applyScenario, ScenarioError } from './apply-scenario.ts';
import { applyScenario } from './apply-scenario.ts';
import { nodeRan, type Trace, type TraceStep } from './trace.ts';

export { nodeRan } from './trace.ts';

/** One expectation the run missed. */
export interface ExpectationFailure {
  /** The expectation as the file names it: `path`, `attempts.execute`, `fired`, `state recovery.skill`. */
  expectation: string;
  expected: unknown;
  actual: unknown;
  /**
   * The first step where the run parts from the expectation: where it took another edge, made
   * the extra attempt, stopped early. Null when no step can be named (a node that never ran).
   */
  step: number | null;
  /** What happened at that step, in words. */
  detail: string;
  /** The whole failure in one line, for the command line and the panel. */
  message: string;
  /** What was expected and what happened: `path: expected [...], got [...]`. */
  mismatch: string;
  /**
   * The cause first, as a test runner leads with the first failing assertion: where the run parts
   * from the scenario, which edge it took there and which the scenario took (`parts at step 3:
   * Evaluate took e4 (exhausted), the scenario took e3 (sufficient)`), or what happened there.
   */
  lead: string;
}

/** Where the run could have gone the scenario's way and went another: the node or edge the scenario wanted. */
interface Turn {
  wanted: string;
  isEdge: boolean;
}

const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const describeTokens = (expected: TokenExpectation) =>
  typeof expected === 'number' ? String(expected)
    : expected.min !== undefined && expected.max !== undefined ? `${expected.min} to ${expected.max}`
      : expected.min !== undefined ? `at least ${expected.min}` : `at most ${expected.max}`;

const tokensMatch = (expected: TokenExpectation, actual: number) =>
  typeof expected === 'number' ? expected === actual : (expected.min ?? 0) <= actual && actual <= (expected.max ?? Number.POSITIVE_INFINITY);

/** Reads a trace once for every expectation: the executed steps and the first step of each kind of event. */
class RunFacts {
  readonly ran: TraceStep[];
  readonly path: string[];
  /**
   * The step where the run stopped: the last one but a `finally` step, which runs after the stop
   * and is never where the run parted (a guard's stop before it is, as in a run with no finally).
   */
  readonly last: TraceStep | undefined;
  /** How many executed steps came before the stop: the path's length without a `finally` step. */
  readonly beforeFinally: number;

  constructor(readonly trace: Trace) {
    this.ran = trace.steps.filter(nodeRan);
    this.path = this.ran.map((step) => step.node);
    this.last = trace.steps.findLast((step) => !step.finally);
    this.beforeFinally = this.ran.filter((step) => !step.finally).length;
  }

  /** The step that chose where the run went before executed step `index`: the edge decision point. */
  decisionBefore(index: number): TraceStep | undefined {
    return this.ran[index - 1] ?? this.ran[index];
  }

  /** Where the run went after a step, in words. */
  wentOn(step: TraceStep): string {
    if (step.fired) return `${step.node} (step ${step.step}) took ${step.fired.id} to ${step.fired.target} (${storedWords(step.fired)})`;
    if (step.stop) return `the run stopped at ${step.node} (step ${step.step}): ${step.stop.reason}`;
    return `${step.node} (step ${step.step}) took no edge`;
  }

  stopped(): string {
    return this.last ? `the run stopped at step ${this.last.step} (${this.trace.stopReason ?? 'not stopped'})` : 'the run made no step';
  }

  /**
   * The first step at or after `from` that tried an edge to `target` (or the edge `edgeId`) and did
   * not take it: where the run could have gone that way and went another.
   */
  firstMissedTurn(match: (edge: { id: string; target?: string }) => boolean, from = 1): TraceStep | undefined {
    return this.trace.steps.find((step) => step.step >= from && step.fired !== null && step.edges.some((edge) => match(edge) && step.fired?.id !== edge.id))
      ?? this.trace.steps.find((step) => step.step >= from && step.stop !== undefined && step.edges.some(match));
  }

  /** Why the step did not go the wanted way: `wanted` is a node id, or an edge id when `isEdge`. */
  missedTurnWords(step: TraceStep, wanted: string, isEdge = false): string {
    const tried = step.edges.find((edge) => (isEdge ? edge.id === wanted : edge.target === wanted));
    const why = !tried ? '' : tried.skipped ? `: ${tried.id} was not tried, an earlier edge fired` : `: ${tried.id} did not match, ${storedWords(tried)}`;
    return `${this.wentOn(step)}, not ${isEdge ? wanted : `toward ${wanted}`}${why}`;
  }
}

type Found = Omit<ExpectationFailure, 'message' | 'mismatch' | 'lead'> & { words?: { expected: string; actual: string }; turn?: Turn & { at: TraceStep } };
type Check = (facts: RunFacts) => Found[];
interface Located {
  at: TraceStep | undefined;
  detail: string;
  turn?: Turn;
}

const failure = (expectation: string, expected: unknown, actual: unknown, { at, detail, turn }: Located, words?: Found['words']): Found => ({
  expectation, expected, actual, step: at?.step ?? null, detail, ...(words ? { words } : {}), ...(turn && at ? { turn: { ...turn, at } } : {}),
});

const checkPath = (expected: string[]): Check => (facts) => {
  const { path } = facts;
  if (same(expected, path)) return [];
  const index = expected.findIndex((node, at) => path[at] !== node);
  const parts = index === -1 ? expected.length : index;
  const decision = facts.decisionBefore(parts);
  const { beforeFinally } = facts;
  const located: Located =
    parts >= beforeFinally && parts < expected.length ? { at: facts.last, detail: `${facts.stopped()} after ${beforeFinally} node(s); expected ${expected[parts]} next` }
      : parts >= beforeFinally && parts < path.length ? { at: facts.last, detail: `${facts.stopped()}, then ${path[parts]} wrote the final response (finally); expected the run to end after ${expected.at(-1) ?? 'no node'}` }
      : parts >= expected.length ? { at: decision, detail: `expected the run to end after ${expected.at(-1) ?? 'no node'}, but ${decision ? facts.wentOn(decision) : 'it went on'}` }
        : parts === 0 ? { at: decision, detail: `the run started at ${path[0]}, expected ${expected[0]}` }
          : { at: decision, detail: decision ? facts.missedTurnWords(decision, expected[parts]) : `expected ${expected[parts]}`, turn: { wanted: expected[parts], isEdge: false } };
  return [failure('path', expected, path, located)];
};

/** Where the run could have turned toward `wanted` and did not, else where it stopped. */
const missedOrStopped = (facts: RunFacts, wanted: string, { isEdge = false, from = 1, lead = '' } = {}): Located => {
  const turn = facts.firstMissedTurn((edge) => (isEdge ? edge.id === wanted : edge.target === wanted), from);
  if (turn) return { at: turn, detail: facts.missedTurnWords(turn, wanted, isEdge), turn: { wanted, isEdge } };
  return { at: facts.last, detail: `${lead}no step could take ${isEdge ? wanted : `an edge to ${wanted}`}; ${facts.stopped()}` };
};

const checkPathIncludes = (expected: string[]): Check => (facts) => {
  let matched = 0;
  let lastMatch = -1;
  facts.path.forEach((node, index) => {
    if (node === expected[matched]) {
      matched += 1;
      lastMatch = index;
    }
  });
  if (matched === expected.length) return [];
  const missing = expected[matched];
  const lead = matched > 0 ? `after ${expected[matched - 1]} (step ${facts.ran[lastMatch].step}) ` : '';
  return [failure('pathIncludes', expected, facts.path, missedOrStopped(facts, missing, { from: facts.ran[lastMatch]?.step ?? 1, lead }))];
};

const checkFired = (expected: string[]): Check => (facts) => {
  const fired = [...new Set(facts.trace.steps.flatMap((step) => (step.fired ? [step.fired.id] : [])))];
  return expected.filter((edge) => !fired.includes(edge)).map((edge) =>
    failure('fired', edge, fired, missedOrStopped(facts, edge, { isEdge: true }), { expected: `${edge} to fire`, actual: `no firing (edges fired: ${fired.join(', ') || 'none'})` }));
};

const checkNotFired = (expected: string[]): Check => (facts) =>
  expected.flatMap((edge) => {
    const firing = facts.trace.steps.filter((step) => step.fired?.id === edge);
    if (firing.length === 0) return [];
    return [failure('notFired', edge, firing.length, { at: firing[0], detail: facts.wentOn(firing[0]) }, { expected: `${edge} never to fire`, actual: `${firing.length} firing(s)` })];
  });

const checkCount = (expectation: string, expected: number | undefined, actual: number, locate: (over: boolean) => Located): Check => () =>
  expected === undefined || expected === actual ? [] : [failure(expectation, expected, actual, locate(actual > expected))];

/** The step at which a running total over the steps first passes `limit`. */
const firstPassing = (steps: TraceStep[], count: (step: TraceStep) => number, limit: number) => {
  let total = 0;
  return steps.find((step) => (total += count(step)) > limit);
};

const tokensOfStep = (step: TraceStep) => step.attempts.reduce((sum, attempt) => sum + attempt.tokens, 0);

const checkTokens = (expected: TokenExpectation): Check => (facts) => {
  const { tokensUsed } = facts.trace;
  if (tokensMatch(expected, tokensUsed)) return [];
  const max = typeof expected === 'number' ? expected : expected.max;
  const over = max !== undefined && tokensUsed > max ? firstPassing(facts.trace.steps, tokensOfStep, max) : undefined;
  const located = over ? { at: over, detail: `${over.node} (step ${over.step}) brought the tokens past ${max}` } : { at: facts.last, detail: `${facts.stopped()} with ${tokensUsed} token(s)` };
  return [failure('tokensUsed', expected, tokensUsed, located, { expected: describeTokens(expected), actual: String(tokensUsed) })];
};

const checks = (scenario: Scenario, facts: RunFacts): Check[] => {
  const { expect } = scenario;
  const { trace, ran } = facts;
  const stoppedAtLast = (): Located => ({ at: facts.last, detail: facts.stopped() });
  const list: Check[] = [];
  if (expect.stopReason !== undefined && expect.stopReason !== trace.stopReason)
    list.push(() => [failure('stopReason', expect.stopReason, trace.stopReason, { at: facts.last, detail: facts.last ? facts.wentOn(facts.last) : 'the run made no step' })]);
  list.push(checkCount('rounds', expect.rounds, trace.rounds, (over) => {
    if (!over) return stoppedAtLast();
    const at = facts.decisionBefore(ran.findIndex((step) => step.round > (expect.rounds ?? 0)));
    return { at, detail: `${at ? facts.wentOn(at) : 'the run went on'}, starting round ${(expect.rounds ?? 0) + 1}` };
  }));
  list.push(checkCount('steps', expect.steps, ran.length, (over) => {
    if (!over) return stoppedAtLast();
    const at = facts.decisionBefore(expect.steps ?? 0);
    return { at, detail: at ? facts.wentOn(at) : 'the run went on' };
  }));
  if (expect.tokensUsed !== undefined) list.push(checkTokens(expect.tokensUsed));
  for (const [node, expected] of Object.entries(expect.attempts ?? {})) {
    const steps = ran.filter((step) => step.node === node);
    const actual = steps.reduce((sum, step) => sum + step.attempts.length, 0);
    list.push(checkCount(`attempts.${node}`, expected, actual, (over) => {
      if (over) {
        const at = firstPassing(steps, (step) => step.attempts.length, expected);
        return { at, detail: `${node} (step ${at?.step}) went past ${expected} attempt(s): ${at?.attempts.map((attempt) => `${attempt.skill} ${attempt.outcome}`).join(', ')}` };
      }
      const last = steps.at(-1);
      return last ? { at: last, detail: `${node} made ${actual} attempt(s) in all, the last at step ${last.step}` } : missedOrStopped(facts, node);
    }));
  }
  for (const [node, expected] of Object.entries(expect.visits ?? {})) {
    const visits = ran.flatMap((step, index) => (step.node === node ? [{ step, index }] : []));
    list.push(checkCount(`visits.${node}`, expected, visits.length, (over) => {
      if (!over) return missedOrStopped(facts, node, { from: (visits.at(-1)?.step.step ?? 0) + 1 });
      const at = facts.decisionBefore(visits[expected].index);
      return { at, detail: `${at ? facts.wentOn(at) : 'the run went on'}: visit ${expected + 1} of ${node}` };
    }));
  }
  if (expect.path) list.push(checkPath(expect.path));
  if (expect.pathIncludes) list.push(checkPathIncludes(expect.pathIncludes));
  if (expect.fired) list.push(checkFired(expect.fired));
  if (expect.notFired) list.push(checkNotFired(expect.notFired));
  for (const { path, value } of expect.state ?? []) {
    const actual = readPath(trace.finalState, path);
    if (same(value, actual)) continue;
    const field = path.split('.')[0];
    const writer = trace.steps.findLast((step) => Object.hasOwn(step.writes, field));
    list.push(() => [failure(`state ${path}`, value, actual, { at: writer, detail: writer ? `${writer.node} (step ${writer.step}) last wrote ${field}` : `no step wrote ${field}: it kept its initial value` })]);
  }
  return list;
};

/** How a step and an edge are named in a lead: by the graph's labels and conditions when it is at hand, else by ids and the trace's words. */
const namer = (graph: GraphFile | undefined) => ({
  node: (id: string) => graph?.nodes.find((node) => node.id === id)?.label ?? id,
  /** What an edge fires on, short: an outcome's name, else its condition in words. */
  when: (id: string) => {
    const edge = graph?.edges.find((candidate) => candidate.id === id);
    if (!edge) return '';
    return ` (${typeof edge.when === 'object' && 'outcome' in edge.when ? edge.when.outcome : describeWhen(edge.when)})`;
  },
});

/** `Evaluate took e4 (exhausted), the scenario took e3 (sufficient)`: the run's turn and the scenario's, at one step. */
const turnWords = ({ at, wanted, isEdge }: Turn & { at: TraceStep }, names: ReturnType<typeof namer>) => {
  const node = names.node(at.node);
  const took = at.fired ? `${node} took ${at.fired.id} (${at.outcome ?? storedWords(at.fired)})` : at.stop ? `${node} stopped the run (${at.stop.reason})` : `${node} took no edge`;
  const toward = at.edges.filter((edge) => (isEdge ? edge.id === wanted : edge.target === wanted));
  // Several edges lead there: which one the scenario's run took, the scenario does not say.
  const scenario = toward.length > 1 ? `the scenario went on to ${names.node(wanted)} (by ${toward.map((edge) => `${edge.id}${names.when(edge.id)}`).join(' or ')})`
    : toward.length === 1 ? `the scenario took ${toward[0].id}${names.when(toward[0].id)}` : isEdge ? `the scenario took ${wanted}` : `the scenario went on to ${names.node(wanted)}, where no edge of ${node} leads`;
  return `${took}, ${scenario}`;
};

const withMessage = ({ words, turn, ...found }: Found, names: ReturnType<typeof namer>): ExpectationFailure => {
  const where = found.step === null ? ` (${found.detail})` : ` (parts at step ${found.step}: ${found.detail})`;
  const mismatch = `${found.expectation}: expected ${words?.expected ?? show(found.expected)}, got ${words?.actual ?? show(found.actual)}`;
  const lead = found.step === null ? `${found.expectation}: ${found.detail}` : `parts at step ${found.step}: ${turn ? turnWords(turn, names) : found.detail}`;
  return { ...found, message: `${mismatch}${where}`, mismatch, lead };
};

/**
 * Every expectation the trace misses, with the step where the run parts from it; empty when the
 * scenario passes. With the graph, leads name nodes by their labels and edges by what they fire on.
 */
export const checkScenario = (trace: Trace, scenario: Scenario, graph?: GraphFile): ExpectationFailure[] => {
  const facts = new RunFacts(trace);
  const names = namer(graph);
  return checks(scenario, facts).flatMap((check) => check(facts)).map((found) => withMessage(found, names));
};

type SavedStep = SavedRun['steps'][number];

/** A step as "Save as scenario" keeps it in `savedFrom`: what a later run's step is held against. */
export const savedStepOf = (step: TraceStep): SavedStep => ({
  node: step.node,
  ...(step.outcome ? { outcome: step.outcome } : {}),
  ...(step.fired ? { edge: step.fired.id } : {}),
  ...(step.attempts.length > 0 ? { attempts: step.attempts.length } : {}),
});

/** Where a run parts from the run its scenario was saved from: the first executed step that differs, and the settings changed since. */
export interface SavedParting {
  /** The run's step there; absent when the run stopped before it. */
  now?: TraceStep;
  /** The saved run's step there; absent when the saved run had stopped. */
  saved?: SavedStep;
  /** The step number the debugger opens. */
  step: number | null;
  /** The changes to the graph that bear on that step (its node's settings, the edges leaving it, the limits), else every change. */
  changes: SettingChange[];
}

/** A graph's settings as a scenario runs it: its own, and each skill as the scenario has it (the graph's, under the scenario's own). */
export const settingsAsRun = (graph: GraphFile, scenario: Scenario): Settings => settingsOf({ ...graph, skills: applyScenario(graph, scenario).skills }, { skills: true });

/**
 * Where the run parts from the saved one. `scenario` is the scenario as it is now: its skills are
 * held against the skills the saved run had, where it kept them (saved since issue 53).
 */
export const partingFromSaved = (trace: Trace, savedFrom: SavedRun, graph?: GraphFile, scenario?: Scenario): SavedParting | null => {
  const facts = new RunFacts(trace);
  const length = Math.max(facts.ran.length, savedFrom.steps.length);
  let index = 0;
  while (index < length && facts.ran[index] && same(savedStepOf(facts.ran[index]), savedFrom.steps[index])) index += 1;
  if (index === length) return null;
  const now = facts.ran[index] as TraceStep | undefined;
  const saved = savedFrom.steps[index] as SavedStep | undefined;
  const keptSkills = Object.keys(savedFrom.settings ?? {}).some((path) => path.startsWith('skills.'));
  const current = !graph ? undefined : keptSkills && scenario ? settingsAsRun(graph, scenario) : settingsOf(graph);
  const all = current && savedFrom.settings ? settingChanges(savedFrom.settings, current) : [];
  const nodes = [now?.node, saved?.node];
  // The skills its step called bear on it too.
  const called = new Set(now?.attempts.map((attempt) => `skills.${attempt.skill}.`));
  const bearing = all.filter((change) => change.path.startsWith('limits.') || nodes.includes(nodeOfSetting(change) ?? undefined) || [...called].some((prefix) => change.path.startsWith(prefix)));
  return { ...(now ? { now } : {}), ...(saved ? { saved } : {}), step: now?.step ?? facts.last?.step ?? null, changes: bearing.length > 0 ? bearing : all };
};

const attemptsWords = (count: number | undefined) => ` after ${count ?? 0} attempt(s)`;

/** What the saved run's record holds that a change may fall short of: the parting step, the whole record, the setting's node. */
interface SavedRecord {
  saved?: SavedStep;
  savedFrom: SavedRun;
  node: string | null;
}

const below = (value: unknown, needed: number | undefined): value is number => typeof value === 'number' && (needed ?? 0) > value;

/**
 * For each limit or node setting that can change a run's path and that the saved run's record can
 * speak to, what the saved run needed of it, when today's value falls short of it: `the saved run
 * needed 3`. Node settings by their field's key. A change none of these speaks to (or that does not
 * fall short) is worded by changeWords alone. (A skill's script: scriptWords.)
 */
const NEEDED: Record<string, (change: SettingChange, record: SavedRecord) => string | undefined> = {
  'limits.maxRounds': ({ after }, { savedFrom: { rounds } }) => (below(after, rounds) ? `the saved run ran ${rounds} round(s)` : undefined),
  'limits.maxSteps': ({ after }, { savedFrom: { steps } }) => (below(after, steps.length) ? `the saved run ran ${steps.length} step(s)` : undefined),
  'limits.tokenBudget': ({ after }, { savedFrom: { tokensUsed } }) => (below(after, tokensUsed) ? `the saved run used ${tokensUsed} token(s)` : undefined),
  // What the run does once its budget is spent matters only to a run that spent it.
  'limits.onBudget': (_, { savedFrom: { tokensUsed, settings } }) => {
    const budget = own(settings ?? {}, 'limits.tokenBudget');
    return typeof budget === 'number' && (tokensUsed ?? 0) >= budget ? `the saved run spent its budget (${tokensUsed} of ${budget} token(s))` : undefined;
  },
  'retry.maxAttempts': ({ after }, { saved, node }) => (saved?.node === node && below(after, saved?.attempts) ? `the saved run needed ${saved?.attempts}` : undefined),
};

/** What a mock script's call returns, in words: its outcome, with its records where the outcome alone does not tell two calls apart. */
const callWords = (entry: unknown, records: boolean) => {
  const { outcome, records: list } = (entry ?? {}) as { outcome?: unknown; records?: unknown };
  const said = typeof outcome === 'string' ? visibleText(outcome) : 'ok';
  return records ? `${said} with ${Array.isArray(list) ? list.length : 0} record(s)` : said;
};

/**
 * A skill's script changed: the first call that now returns otherwise than the saved run's did,
 * by outcome and records (a script's last call repeats; a call's tokens or delay do not turn a run).
 */
const scriptWords = (change: SettingChange, graph?: GraphFile): string | undefined => {
  if (!Array.isArray(change.before) || !Array.isArray(change.after) || change.before.length === 0 || change.after.length === 0) return undefined;
  const [before, after] = [change.before, change.after];
  const callOf = (script: unknown[], index: number) => script[Math.min(index, script.length - 1)];
  for (let index = 0; index < Math.max(before.length, after.length); index += 1) {
    const [was, now] = [callOf(before, index), callOf(after, index)];
    if (callWords(was, true) === callWords(now, true)) continue;
    const records = callWords(was, false) === callWords(now, false);
    return `${settingName(change.path, graph)} changed: call ${index + 1} now returns ${callWords(now, records)}; the saved run got ${callWords(was, records)}`;
  }
  return undefined;
};

/** One change that bears on where the run parts, against what the saved run needed of it where its record tells. */
const savedChangeWords = (change: SettingChange, record: SavedRecord, graph?: GraphFile): string => {
  const [part, , ...rest] = change.path.split('.');
  if (part === 'skills' && rest.join('.') === 'script') {
    const words = scriptWords(change, graph);
    if (words) return words;
  }
  const needed = own(NEEDED, part === 'nodes' ? rest.join('.') : change.path)?.(change, record);
  return changeWords(change, "the saved run's graph", graph, needed);
};

/**
 * `parts at step 2: Execute took e2 (timeout) after 2 attempt(s), the saved run took e14 (empty)
 * after 3 attempt(s). Execute's Max attempts is 2; the saved run needed 3`.
 */
export const savedPartingWords = ({ now, saved, step, changes }: SavedParting, trace: Trace, savedFrom: SavedRun, graph?: GraphFile): string => {
  const names = namer(graph);
  const attemptsDiffer = (now?.attempts.length ?? 0) !== (saved?.attempts ?? 0);
  let turn: string;
  if (now && saved && now.node === saved.node) {
    const took = now.fired ? `took ${now.fired.id} (${now.outcome ?? storedWords(now.fired)})` : now.stop ? `stopped the run (${now.stop.reason})` : 'took no edge';
    const savedTook = saved.edge ? `took ${saved.edge}${saved.outcome ? ` (${saved.outcome})` : ''}` : 'stopped there';
    turn = `${names.node(now.node)} ${took}${attemptsDiffer ? attemptsWords(now.attempts.length) : ''}, the saved run ${savedTook}${attemptsDiffer ? attemptsWords(saved.attempts) : ''}`;
  } else if (now && saved) turn = `the run went on to ${names.node(now.node)}, the saved run to ${names.node(saved.node)}`;
  else if (now) turn = `the run went on to ${names.node(now.node)}; the saved run had stopped`;
  else turn = `the run stopped (${trace.stopReason ?? 'not stopped'}); the saved run went on to ${names.node(saved?.node ?? '')}`;
  const causes = changes.slice(0, 3).map((change) => savedChangeWords(change, { ...(saved ? { saved } : {}), savedFrom, node: nodeOfSetting(change) }, graph));
  const more = changes.length > 3 ? ` (and ${changes.length - 3} more change(s))` : '';
  const sentences = causes.map((cause) => cause.charAt(0).toUpperCase() + cause.slice(1));
  return `parts at step ${step ?? 1}: ${turn}${sentences.length > 0 ? `. ${sentences.join('. ')}${more}` : ''}`;
};

/** The earliest step any failure names: where the debugger opens a failed scenario's run. */
export const firstDivergence = (failures: readonly ExpectationFailure[]): number | null =>
  failures.reduce<number | null>((first, { step }) => (step !== null && (first === null || step < first) ? step : first), null);

/** The expectations whose failure names the turn the run took: at one step, they say more than a count. */
const TURNS = ['path', 'pathIncludes', 'fired'];

/** The cause of a failed scenario, in one line: the lead of the failure at the first step where the run parts from it, a turn before a count. */
export const causeOf = (failures: readonly ExpectationFailure[], divergence: number | null): string | null => {
  const there = failures.filter((failure) => failure.step === divergence);
  return (there.find((failure) => TURNS.includes(failure.expectation)) ?? there[0] ?? failures[0])?.lead ?? null;
};

export interface ScenarioResult {
  scenario: Scenario;
  trace: Trace;
  failures: ExpectationFailure[];
  /** The first step where the run parts from the scenario, or null when it passes (or no step can be named). */
  divergence: number | null;
  /** What to read first when it fails (causeOf); null when it passes. */
  cause: string | null;
}

export const runScenario = async (graph: GraphFile, scenario: Scenario, options: HeadlessOptions = {}): Promise<ScenarioResult> => {
  const trace = await runGraph(applyScenario(graph, scenario), { ...options, seed: scenario.seed ?? options.seed, scenario: undefined });
  const named = { ...trace, scenario: scenario.name };
  const failures = checkScenario(named, scenario, graph);
  // A saved run's scenario is held against that run step by step: the cause is where they part, and the change that made it.
  const parting = failures.length > 0 && scenario.savedFrom ? partingFromSaved(named, scenario.savedFrom, graph, scenario) : null;
  if (parting && scenario.savedFrom) return { scenario, trace: named, failures, divergence: parting.step, cause: savedPartingWords(parting, named, scenario.savedFrom, graph) };
  const divergence = firstDivergence(failures);
  return { scenario, trace: named, failures, divergence, cause: causeOf(failures, divergence) };
};

/** A scenario's run as the app and the watch keep it: passed, failed, or could not run (an override that is not a valid skill), and why. */
export interface ScenarioOutcome {
  status: 'passed' | 'failed' | 'error';
  failures: ExpectationFailure[];
  /** The first step where the run parts from the scenario. */
  divergence: number | null;
  /** The cause, in one line, to read first (causeOf); null when it passed or could not run. */
  cause: string | null;
  /** Why the scenario could not run. */
  error?: string;
  trace?: Trace;
}

export const scenarioOutcome = async (graph: GraphFile, scenario: Scenario): Promise<ScenarioOutcome> => {
  try {
    const { failures, trace, divergence, cause } = await runScenario(graph, scenario);
    return { status: failures.length === 0 ? 'passed' : 'failed', failures, divergence, cause, trace };
  } catch (error) {
    return { status: 'error', failures: [], divergence: null, cause: null, error: error instanceof Error ? error.message : String(error) };
  }
};
