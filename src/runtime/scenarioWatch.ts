/**
 * Scenarios as the graph is edited (issue 56): which of them a run on each edit may run, their runs
 * within a time budget (newest edit wins: a run for an older version stops), and where each now
 * parts from the run it expected, as marks for the canvas. Runs in a Web Worker
 * (scenarioWatch.worker.ts) on the runtime the app runs; pure but for the runs, so tested in Node.
 */
import { own, type GraphFile, type Scenario } from '../graph/index.ts';
import type { SavedRun } from '../graph/schema.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { isScripted, SKILL_TYPES, STAND_IN_TYPE, type SkillType } from '../graph/skillTypes/index.ts';
import { scenarioOutcome, type ScenarioOutcome } from './scenario.ts';
import { nodeRan, type Trace } from './trace.ts';

/** One scenario's run for one version of the graph. */
export interface WatchedScenario extends ScenarioOutcome {
  name: string;
}

/** A scenario a run on each edit does not run, and why. */
export interface LeftOut {
  name: string;
  why: string;
}

export interface WatchRequest {
  /** The edit the graph is at: a result carries it, and one for an older edit is never shown. */
  version: number;
  graph: GraphFile;
  /** How long the scenarios of one edit may take in all; the rest wait for the next edit. */
  budgetMs: number;
  /** A test hook: the worker waits this long before running (a slow run, for the journey that a stale result is never shown). */
  delayMs?: number;
}

export interface WatchResult {
  version: number;
  results: WatchedScenario[];
  leftOut: LeftOut[];
  /** The first scenario the time budget left unrun, or null when every one ran. */
  stoppedAt: string | null;
  /** How many the time budget left unrun. */
  notRun: number;
  elapsedMs: number;
}

/** The skills a scenario leaves real (no mock of its own for them), with their types. */
export const realSkillsOf = (graph: GraphFile, scenario: Scenario): { name: string; type: string }[] =>
  Object.entries(graph.skills).flatMap(([name, skill]) => {
    const override = own(scenario.skills, name) as Record<string, unknown> | undefined;
    const type = typeof override?.type === 'string' ? override.type : override && 'script' in override ? STAND_IN_TYPE : skill.type;
    // A type this build does not know is left out too: nothing says it contacts nothing.
    const real = !Object.hasOwn(SKILL_TYPES, type) || !isScripted({ type: type as SkillType });
    return real ? [{ name, type }] : [];
  });

/** Why a run on each edit leaves the scenario out, or null when it runs it (mock skills only). */
export const leftOutWhy = (graph: GraphFile, scenario: Scenario): string | null => {
  const real = realSkillsOf(graph, scenario);
  if (real.length === 0) return null;
  const named = real.map(({ name, type }) => `the ${type} skill "${name}"`).join(', ');
  return `it leaves ${named} real, and a run on each edit never calls a real skill: give ${real.length > 1 ? 'them' : 'it'} a mock script in the scenario to watch it`;
};

/**
 * Runs the graph's mock-only scenarios in order until the budget is spent. Between two scenarios it
 * asks `stale` (which yields, so a newer request can arrive): when a newer edit has come, it gives
 * up and returns null, so that nothing is spent on a result nobody will see.
 */
export const runWatched = async (request: WatchRequest, stale: () => Promise<boolean>, now: () => number = () => performance.now()): Promise<WatchResult | null> => {
  const start = now();
  const { graph, version, budgetMs } = request;
  const results: WatchedScenario[] = [];
  const leftOut: LeftOut[] = [];
  let stoppedAt: string | null = null;
  let notRun = 0;
  for (const scenario of graph.scenarios) {
    const why = leftOutWhy(graph, scenario);
    if (why) {
      leftOut.push({ name: scenario.name, why });
      continue;
    }
    if (stoppedAt === null && (await stale())) return null;
    if (stoppedAt !== null || (results.length > 0 && now() - start >= budgetMs)) {
      stoppedAt ??= scenario.name;
      notRun += 1;
      continue;
    }
    results.push({ name: scenario.name, ...(await scenarioOutcome(graph, scenario)) });
  }
  return { version, results, leftOut, stoppedAt, notRun, elapsedMs: now() - start };
};

/** An executed step as a path compares it: the node, the edge it took, on what. A saved run's steps have this shape. */
export interface Walked {
  node: string;
  edge?: string;
  outcome?: string;
}

/** The path a run took, step by step. */
export const walkOf = (trace: Trace): Walked[] =>
  trace.steps.filter(nodeRan).map((step) => ({ node: step.node, ...(step.fired ? { edge: step.fired.id } : {}), ...(step.outcome ? { outcome: step.outcome } : step.fired ? { outcome: storedWords(step.fired) } : {}) }));

const sameStep = (a: Walked | undefined, b: Walked | undefined) => a?.node === b?.node && a?.edge === b?.edge;

/** Whether two runs took the same path: the same nodes, leaving each by the same edge. */
export const samePath = (a: readonly Walked[], b: readonly Walked[]) => a.length === b.length && a.every((step, index) => sameStep(step, b[index]));

/** A mark on the canvas: a node or an edge where a scenario now parts from what it expects, in words. */
export interface ScenarioMark {
  scenario: string;
  kind: 'node' | 'edge';
  id: string;
  /** A node the scenario's run reached before and reaches no more. */
  unreached?: boolean;
  words: string;
}

const took = (step: Walked) => `${step.edge}${step.outcome ? ` (${step.outcome})` : ''}`;

/** What a failing scenario expected: the run it passed with before (or was saved from), else what its expectations name. */
export interface Expected {
  walk?: readonly Walked[];
  /** The nodes its expectations name (path, pathIncludes): when no run of it passed, these say what it no longer reaches. */
  nodes?: readonly string[];
}

/** The scenario's saved run as a path, when it was saved from one. */
export const savedWalk = (savedFrom: SavedRun | undefined): Walked[] | undefined =>
  savedFrom?.steps.map((step) => ({ node: step.node, ...(step.edge ? { edge: step.edge } : {}), ...(step.outcome ? { outcome: step.outcome } : {}) }));

/**
 * Where the scenario's run now parts from what it expected, as marks: the node where it parts, the
 * edge it now takes there and the edge it expected, and each node it no longer reaches. With no
 * expected run, the divergence step the check named is marked with its cause.
 */
export const marksOf = (name: string, trace: Trace, divergence: number | null, cause: string | null, expected: Expected, label: (node: string) => string = (id) => id): ScenarioMark[] => {
  const now = walkOf(trace);
  const quoted = `‘${name}’`;
  const marks: ScenarioMark[] = [];
  const { walk } = expected;
  if (walk && !samePath(now, walk)) {
    const index = now.findIndex((step, at) => !sameStep(step, walk[at]));
    const at = index === -1 ? now.length : index;
    const [mine, theirs] = [now[at] as Walked | undefined, walk[at] as Walked | undefined];
    if (mine && theirs && mine.node === theirs.node) {
      const expectedWords = theirs.edge ? `expected ${took(theirs)}` : 'expected the run to stop here';
      marks.push({ scenario: name, kind: 'node', id: mine.node, words: `${quoted} parts here: ${mine.edge ? `now takes ${took(mine)}` : 'now stops here'}; ${expectedWords}` });
      if (mine.edge) marks.push({ scenario: name, kind: 'edge', id: mine.edge, words: `${quoted} now takes ${took(mine)} here; ${expectedWords}` });
      if (theirs.edge) marks.push({ scenario: name, kind: 'edge', id: theirs.edge, words: `${quoted} expected ${took(theirs)} here; ${mine.edge ? `now takes ${took(mine)}` : 'the run now stops before it'}` });
    } else {
      // The same turn leads elsewhere now (an edge rerouted), or the run stops: marked where it turned.
      const last = now[at - 1] ?? mine;
      const went = `${mine ? `now goes on to ${label(mine.node)}` : 'the run now stops'}; expected ${theirs ? label(theirs.node) : 'the run to stop'}`;
      if (last) marks.push({ scenario: name, kind: 'node', id: last.node, words: `${quoted} parts here: ${went}` });
      if (last?.edge && last !== mine) marks.push({ scenario: name, kind: 'edge', id: last.edge, words: `${quoted} takes ${took(last)} here and ${went}` });
    }
  } else if (divergence !== null) {
    // No run to compare with, or one whose path it still takes (it fails on what a step did, such
    // as its attempts): marked at the step the check names, with its cause.
    const step = trace.steps.find((candidate) => candidate.step === divergence);
    if (step) {
      marks.push({ scenario: name, kind: 'node', id: step.node, words: `${quoted} parts here: ${cause ?? 'its expectations fail'}` });
      if (step.fired && !walk) marks.push({ scenario: name, kind: 'edge', id: step.fired.id, words: `${quoted} now takes ${step.fired.id} (${step.outcome ?? storedWords(step.fired)}) here` });
    }
  }
  const reached = new Set(now.map((step) => step.node));
  const wanted = new Set(walk ? walk.map((step) => step.node) : (expected.nodes ?? []));
  if (walk || marks.length > 0)
    for (const node of wanted) if (!reached.has(node)) marks.push({ scenario: name, kind: 'node', id: node, unreached: true, words: `${quoted} no longer reaches ${label(node)}` });
  return marks;
};

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The worker's side: takes requests as they come and posts the result of each that is still the
 * newest when it ends. A request for an older version than one already seen is dropped; one
 * overtaken while it runs stops at its next scenario (runWatched).
 */
export const createWatcher = (post: (result: WatchResult) => void, wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms))) => {
  let latest = -1;
  return async (request: WatchRequest): Promise<void> => {
    if (request.version < latest) return;
    latest = request.version;
    if (request.delayMs) await wait(request.delayMs);
    const result = await runWatched(request, async () => {
      await nextTask();
      return request.version !== latest;
    });
    if (result && result.version === latest) post(result);
  };
};
