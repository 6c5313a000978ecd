/**
 * What the page shows of the scenarios re-run after each edit (issue 56), from the worker's results:
 * only a result for the newest edit is taken; from it come the count, the canvas marks (against the
 * run each scenario expected: the run it was saved from, else the last run it passed with), the edit
 * that broke each, and which scenarios' paths the edit changed. Pure: the client (scenarioWatch.ts) keeps the memory.
 */
import type { GraphFile } from '../graph/index.ts';
import { settingChanges, settingName, settingsOf, settingValue } from '../graph/settings.ts';
import { marksOf, samePath, savedWalk, walkOf, type LeftOut, type ScenarioMark, type WatchResult } from '../runtime/scenarioWatch.ts';
import type { Trace } from '../runtime/trace.ts';
import type { ScenarioRunResult } from './scenarioSlice.ts';

/** A scenario's run kept to be compared with: its trace and the graph it ran on. */
export interface KeptRun {
  trace: Trace;
  graph: GraphFile;
}

/** What the page shows: the store's `scenarioWatch`. */
export interface ScenarioWatch {
  paused: boolean;
  /** How long the scenarios of one edit may take, in ms. */
  budgetMs: number;
  /** The newest edit's version; the results shown are for `shownVersion`, never for an older edit than it. */
  version: number;
  shownVersion: number | null;
  running: boolean;
  passed: number;
  ran: number;
  leftOut: LeftOut[];
  /** The scenario the time budget stopped before, or null; and how many it left unrun. */
  stoppedAt: string | null;
  notRun: number;
  marks: ScenarioMark[];
  /** For each failing scenario, the edit after which it began to fail (`Act's Max attempts 3 → 2`). */
  brokeAfter: ReadonlyMap<string, string>;
  /** The scenarios whose path the last edit changed, each with its run before the edit; null when there was no run before. */
  changed: ReadonlyMap<string, KeptRun> | null;
  /** The run each failing scenario expected (the last one it passed with), for Compare runs. */
  expected: ReadonlyMap<string, KeptRun>;
}

/** What the client remembers between results: each scenario's last run, and its last passing one. */
export interface WatchMemory {
  last: ReadonlyMap<string, KeptRun & { status: ScenarioRunResult['status'] }>;
  passing: ReadonlyMap<string, KeptRun>;
  brokeAfter: ReadonlyMap<string, string>;
}

export const emptyMemory = (): WatchMemory => ({ last: new Map(), passing: new Map(), brokeAfter: new Map() });

/** An edit in words, from the graph before it to the graph after: `Act's Max attempts 3 → 2`. */
export const editWords = (before: GraphFile, after: GraphFile): string => {
  const changes = settingChanges(settingsOf(before, { skills: true }), settingsOf(after, { skills: true }));
  if (changes.length === 0) return before.scenarios === after.scenarios ? 'an edit' : 'an edit of the scenarios';
  const words = changes.slice(0, 2).map((change) => `${settingName(change.path, after)} ${settingValue(change.path, change.before)} → ${settingValue(change.path, change.after)}`);
  return `${words.join(', ')}${changes.length > 2 ? ` and ${changes.length - 2} more` : ''}`;
};

/** Whether a result may be shown: only the newest edit's. */
export const isCurrent = (result: Pick<WatchResult, 'version'>, newest: number) => result.version === newest;

export interface Taken {
  memory: WatchMemory;
  shown: Omit<ScenarioWatch, 'paused' | 'budgetMs' | 'version' | 'running'>;
  /** The results as the Scenarios panel lists them (the same records a Run of them makes). */
  results: Map<string, ScenarioRunResult>;
}

/** What a current result shows, and what is remembered from it; `edit` names the edit it follows (editWords). */
export const takeResult = (result: WatchResult, graph: GraphFile, documentVersion: number, memory: WatchMemory, edit: string | null): Taken => {
  const last = new Map(memory.last);
  const passing = new Map(memory.passing);
  const brokeAfter = new Map(memory.brokeAfter);
  const changed = new Map<string, KeptRun>();
  const results = new Map<string, ScenarioRunResult>();
  const marks: ScenarioMark[] = [];
  const label = (id: string) => graph.nodes.find((node) => node.id === id)?.label ?? id;
  let hadBefore = false;
  for (const watched of result.results) {
    const { name, trace } = watched;
    const scenario = graph.scenarios.find((candidate) => candidate.name === name);
    const before = memory.last.get(name);
    const { name: _name, ...outcome } = watched;
    results.set(name, { ...outcome, graph, documentVersion });
    if (!trace) continue;
    if (before) {
      hadBefore = true;
      if (!samePath(walkOf(before.trace), walkOf(trace))) changed.set(name, before);
    }
    if (watched.status === 'passed') {
      passing.set(name, { trace, graph });
      brokeAfter.delete(name);
    } else {
      if (edit !== null && before?.status === 'passed' && !brokeAfter.has(name)) brokeAfter.set(name, edit);
      const expectedRun = passing.get(name);
      const walk = savedWalk(scenario?.savedFrom) ?? (expectedRun && walkOf(expectedRun.trace));
      const nodes = [...(scenario?.expect.path ?? []), ...(scenario?.expect.pathIncludes ?? [])];
      marks.push(...marksOf(name, trace, watched.divergence, watched.cause, { ...(walk ? { walk } : {}), nodes }, label));
    }
    last.set(name, { trace, graph, status: watched.status });
  }
  const ran = result.results.length;
  const passed = result.results.filter((watched) => watched.status === 'passed').length;
  const expected = new Map([...passing].filter(([name]) => results.get(name)?.status === 'failed'));
  return {
    memory: { last, passing, brokeAfter },
    shown: { shownVersion: result.version, passed, ran, leftOut: result.leftOut, stoppedAt: result.stoppedAt, notRun: result.notRun, marks, brokeAfter, changed: hadBefore ? changed : null, expected },
    results,
  };
};
