/**
 * What each node of the canvas says about the run, in words: running now or next, its attempt while
 * a skill is retried, and what its last step came to (failed, wrote nothing, wrote these fields).
 * Derived here only; the canvas reads one node's entry with its own selector.
 */
import { own, type GraphFile, type GraphNode } from '../graph/index.ts';
import type { Attempt, TraceStep } from '../runtime/trace.ts';
import { stopWords } from '../runtime/stepWords.ts';
import { FAILED_OUTCOMES } from '../runtime/pauseRules.ts';
import { traceIndex } from '../runtime/traceIndex.ts';

export type StatusTone = 'running' | 'next' | 'attempt' | 'failed' | 'wrote' | 'wrote-nothing';

export interface StatusChip {
  tone: StatusTone;
  /** The words on the node. */
  text: string;
  /** The whole sentence, for a screen reader and the tooltip. */
  label: string;
}

/** A node's chips, in order; an empty list when the run has not touched it. */
export type NodeRunStatus = readonly StatusChip[];

/** What the live run is doing now, when the run shown is the live one. */
export interface LiveActivity {
  /** The node executing now (a Run, Continue or Step in flight). */
  running: string | null;
  /** The attempts the running node has made so far (they arrive before its step). */
  attempts: readonly Attempt[];
  /** The node the run goes on with when it is paused. */
  next: string | null;
}

export const NO_ACTIVITY: LiveActivity = { running: null, attempts: [], next: null };

interface Retry {
  maxAttempts: number;
  retryOn: readonly string[];
}

/** The node's retry policy: its own, else the SPEC's default. */
const retryOf = (node: GraphNode): Retry => {
  const config = node.config as { retry?: Partial<Retry> } | undefined;
  return { maxAttempts: config?.retry?.maxAttempts ?? 3, retryOn: config?.retry?.retryOn ?? ['timeout', 'parse_error'] };
};

const attemptChip = (n: number, max: number, live: boolean): StatusChip => ({
  tone: 'attempt',
  text: `attempt ${n} of ${max}`,
  label: live ? `attempt ${n} of ${max} running` : `took ${n} attempts of ${max}`,
});

/** The attempt under way after these: the next one when the last failed in a way that is retried in place. */
const liveAttempt = (attempts: readonly Attempt[], retry: Retry): number | null => {
  const last = attempts.at(-1);
  if (!last) return null;
  return retry.retryOn.includes(last.outcome) && last.n < retry.maxAttempts ? last.n + 1 : last.n;
};

const resultChips = (step: TraceStep, max: number): StatusChip[] => {
  const chips: StatusChip[] = [];
  const failure = step.guard?.reason ?? (step.outcome !== null && FAILED_OUTCOMES.has(step.outcome) ? step.outcome : null);
  if (failure !== null)
    chips.push({ tone: 'failed', text: `failed: ${failure}`, label: `failed: ${failure}${step.guard ? ` (${stopWords(step.guard, step.budget)})` : ''}` });
  const last = step.attempts.at(-1);
  if (last && last.n > 1) chips.push(attemptChip(last.n, max, false));
  const written = Object.keys(step.writes);
  if (written.length === 0) chips.push({ tone: 'wrote-nothing', text: 'wrote nothing', label: 'wrote nothing: its step changed no state field' });
  else chips.push({ tone: 'wrote', text: written.length === 1 ? `wrote ${written[0]}` : `wrote ${written.length} fields`, label: `wrote ${written.join(', ')}` });
  return chips;
};

/**
 * Every node's status after the first `count` of `steps` (the steps shown, up to the selected one)
 * with what the live run does now. A node's last step gives its result; running or next comes first.
 */
export const nodeStatusesFor = (graph: GraphFile, steps: readonly TraceStep[], live: LiveActivity = NO_ACTIVITY, count = steps.length): Record<string, NodeRunStatus> => {
  const shown = Math.min(count, steps.length);
  // The nodes the shown steps touched, from the run's index: a node that never ran is not looked for through the whole run.
  let touched = 0;
  for (const first of Object.values(traceIndex(steps).firstStep)) if (first < shown) touched += 1;
  const lastStep = new Map<string, TraceStep>();
  // Newest first, and done once every node touched has its last step: a long run is not read whole at each selection.
  for (let index = shown - 1; index >= 0 && lastStep.size < touched; index -= 1)
    if (!lastStep.has(steps[index].node)) lastStep.set(steps[index].node, steps[index]);
  // Null prototype: a node may be called `toString`.
  const statuses: Record<string, NodeRunStatus> = Object.create(null);
  for (const node of graph.nodes) {
    const retry = retryOf(node);
    const max = retry.maxAttempts;
    const chips: StatusChip[] = [];
    if (live.running === node.id) {
      chips.push({ tone: 'running', text: 'running', label: 'running' });
      const attempt = liveAttempt(live.attempts, retry);
      if (attempt !== null && attempt > 1) chips.push(attemptChip(attempt, max, true));
    } else if (live.next === node.id) chips.push({ tone: 'next', text: 'runs next', label: 'runs next' });
    const step = lastStep.get(node.id);
    // While it runs again, its earlier attempts would only confuse the live count.
    if (step) chips.push(...resultChips(step, max).filter((chip) => !(live.running === node.id && chip.tone === 'attempt')));
    if (chips.length > 0) statuses[node.id] = chips;
  }
  return statuses;
};

const sameChips = (left: NodeRunStatus, right: NodeRunStatus) =>
  left.length === right.length && left.every((chip, index) => chip.tone === right[index].tone && chip.text === right[index].text && chip.label === right[index].label);

/** `next` with the entries of `previous` that did not change, so a node whose status stayed the same is not drawn again. */
export const keepUnchanged = (previous: Record<string, NodeRunStatus>, next: Record<string, NodeRunStatus>): Record<string, NodeRunStatus> => {
  let changed = Object.keys(previous).length !== Object.keys(next).length;
  const kept: Record<string, NodeRunStatus> = Object.create(null);
  for (const [id, status] of Object.entries(next)) {
    const before = own(previous, id);
    if (before && sameChips(before, status)) kept[id] = before;
    else {
      kept[id] = status;
      changed = true;
    }
  }
  return changed ? kept : previous;
};
