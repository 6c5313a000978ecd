/** Pure views of traces for the debugger's panels: state diffs, where two runs part, the timeline rows. */
import { storedWords } from '../graph/reasonWords.ts';
import type { Attempt, Trace, TraceStep } from '../runtime/trace.ts';
import { runStopWords } from '../runtime/stepWords.ts';
import { STOP_ROW, type TimelineLayout } from '../runtime/timelineLayout.ts';

export type Change =
  | { key: string; type: 'added'; after: unknown }
  | { key: string; type: 'removed'; before: unknown }
  | { key: string; type: 'changed'; before: unknown; after: unknown };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The top-level keys that differ between two states, in key order. */
export const diffStates = (before: Record<string, unknown>, after: Record<string, unknown>): Change[] => {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: Change[] = [];
  for (const key of keys) {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    if (!had) changes.push({ key, type: 'added', after: after[key] });
    else if (!has) changes.push({ key, type: 'removed', before: before[key] });
    else if (!same(before[key], after[key])) changes.push({ key, type: 'changed', before: before[key], after: after[key] });
  }
  return changes;
};

const firedWords = (step: TraceStep | undefined, trace: Trace) => {
  // A run that has not stopped is paused (or still going): it has made no such step yet, it did not end.
  if (!step) return trace.stopReason ? 'nothing (the run had ended)' : `nothing yet (it is paused after step ${trace.steps.length})`;
  if (step.finally) return `the final response ${step.node} (finally, after the stop ${step.stop?.reason ?? 'of the run'})`;
  return step.fired ? `${step.fired.id} (${storedWords(step.fired)})` : step.stop ? `no edge (stopped: ${step.stop.reason})` : 'no edge';
};

export interface Parting {
  step: number;
  sentence: string;
}

/** The first step whose fired edge differs between two runs, named; null when they never part. */
export const whereRunsPart = (a: { id: number; trace: Trace }, b: { id: number; trace: Trace }): Parting | null => {
  const length = Math.max(a.trace.steps.length, b.trace.steps.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.trace.steps[index];
    const right = b.trace.steps[index];
    if (left?.node === right?.node && left?.fired?.id === right?.fired?.id && left?.stop?.reason === right?.stop?.reason) continue;
    return { step: index + 1, sentence: `Runs part at step ${index + 1}: run ${a.id} took ${firedWords(left, a.trace)}, run ${b.id} took ${firedWords(right, b.trace)}` };
  }
  return null;
};

export type TimelineRow =
  | { type: 'round'; round: number; blindRetry: boolean; height: number }
  | { type: 'step'; step: TraceStep; height: number }
  | { type: 'stop'; reason: string; explain: string; height: number };

/** Row `row` of a layout, as the timeline draws it. */
export const rowAt = (trace: Trace, layout: TimelineLayout, row: number): TimelineRow => {
  const value = layout.rows[row];
  if (value === STOP_ROW) return { type: 'stop', reason: trace.stopReason ?? '', explain: runStopWords(trace) ?? '', height: 1 };
  if (value < 0) return { type: 'round', round: trace.steps[-1 - value].round, blindRetry: layout.blind[row] === 1, height: 1 };
  return { type: 'step', step: trace.steps[value], height: layout.offsets[row + 1] - layout.offsets[row] };
};

/** The rows to render for a viewport (in pixels), with a margin of `overscan` rows either side. */
export const visibleRange = (offsets: ArrayLike<number>, rowHeight: number, scrollTop: number, viewport: number, overscan = 5) => {
  const count = offsets.length - 1;
  const top = scrollTop / rowHeight;
  const bottom = (scrollTop + viewport) / rowHeight;
  // The last row starting at or above the viewport's top.
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (offsets[middle] <= top) low = middle;
    else high = middle - 1;
  }
  let end = low;
  while (end < count && offsets[end] < bottom) end += 1;
  return { start: Math.max(0, low - overscan), end: Math.min(count, end + overscan) };
};

export interface RoundSummary {
  round: number;
  /** The nodes that ran in the round, in order. */
  path: string[];
  /** How the round ended: the stop, or its last node's outcome. */
  outcome: string;
  /** Tokens the round spent. */
  tokens: number;
}

/** One row per round of a run (its path, how it ended, what it cost): which round went wrong, at a glance. */
export const roundsOverview = (trace: Trace): RoundSummary[] => {
  const rounds: RoundSummary[] = [];
  let spentBefore = 0;
  for (const step of trace.steps) {
    let current = rounds.at(-1);
    if (!current || current.round !== step.round) {
      spentBefore = current ? spentBefore + current.tokens : 0;
      current = { round: step.round, path: [], outcome: '', tokens: 0 };
      rounds.push(current);
    }
    const ran = !(step.guard && step.attempts.length === 0);
    if (ran) current.path.push(step.node);
    current.outcome = step.stop ? `stopped: ${step.stop.reason}` : step.guard ? `stopped: ${step.guard.reason}` : `${step.node} ${step.outcome ?? 'done'}`;
    if (step.tokensUsed !== undefined) current.tokens = step.tokensUsed - spentBefore;
  }
  return rounds;
};

export type RetryVerdict = 'retried' | 'not_retried' | 'ok';

/**
 * What became of an attempt, read from the attempts themselves: another try of the same action
 * after it means it was retried in place (inside the node, with no re-plan).
 */
export const retryVerdict = (attempts: readonly Attempt[], index: number): RetryVerdict => {
  const attempt = attempts[index];
  const next = attempts[index + 1];
  if (next && next.skill === attempt.skill && (next.action ?? 0) === (attempt.action ?? 0) && next.n === attempt.n + 1) return 'retried';
  return attempt.outcome === 'ok' ? 'ok' : 'not_retried';
};

export const VERDICT_WORDS: Record<RetryVerdict, string> = {
  retried: 'retried in place, no re-plan',
  not_retried: 'not retried',
  ok: 'done',
};

/** A step's action level in one sentence, or null when nothing was retried or failed. */
export const retrySummary = (attempts: readonly Attempt[]): string | null => {
  const retries = attempts.filter((_, index) => retryVerdict(attempts, index) === 'retried').length;
  const failedLast = attempts.length > 0 && retryVerdict(attempts, attempts.length - 1) === 'not_retried';
  if (retries === 0 && !failedLast) return null;
  const parts: string[] = [];
  if (retries > 0) parts.push(`${retries === 1 ? 'One attempt was' : `${retries} attempts were`} retried in place, inside this node: no re-plan, and the round and step count stayed as they were.`);
  if (failedLast) parts.push(`The last attempt (${attempts[attempts.length - 1].outcome}) was not retried; what it means is left to the edges below.`);
  return parts.join(' ');
};
