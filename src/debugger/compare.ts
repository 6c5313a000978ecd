/** Two runs side by side: their paths aligned, where they part, and how they differ there. */
import type { GraphFile } from '../graph/schema.ts';
import { settingChanges, settingsOf, type SettingChange } from '../graph/settings.ts';
import type { Attempt, Trace, TraceStep } from '../runtime/trace.ts';
import type { CanvasParting } from '../store/index.ts';
import { diffStates, whereRunsPart, type Change } from './analysis.ts';

export interface ShownRun {
  id: number;
  trace: Trace;
}

export interface AlignedRow {
  left: TraceStep | null;
  right: TraceStep | null;
  /** Both runs made this step alike: the same node, taking the same edge. */
  same: boolean;
}

const alike = (left: TraceStep | null, right: TraceStep | null) =>
  left !== null && right !== null && left.node === right.node && left.fired?.id === right.fired?.id && left.stop?.reason === right.stop?.reason;

/** Above this many cells the tails are lined up step by step instead of by their longest common run of nodes. */
const MAX_ALIGN_CELLS = 250_000;

/** The two tails lined up on their longest common subsequence of nodes, so that a path that rejoins lines up again. */
const alignTails = (left: TraceStep[], right: TraceStep[]): AlignedRow[] => {
  const rows: AlignedRow[] = [];
  if (left.length * right.length > MAX_ALIGN_CELLS) {
    for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
      const pair = { left: left[index] ?? null, right: right[index] ?? null };
      rows.push({ ...pair, same: alike(pair.left, pair.right) });
    }
    return rows;
  }
  const width = right.length + 1;
  // common[i * width + j]: the longest common run of nodes of left[i..] and right[j..].
  const common = new Uint32Array((left.length + 1) * width);
  for (let i = left.length - 1; i >= 0; i -= 1)
    for (let j = right.length - 1; j >= 0; j -= 1)
      common[i * width + j] = left[i].node === right[j].node ? common[(i + 1) * width + j + 1] + 1 : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i].node === right[j].node) {
      rows.push({ left: left[i], right: right[j], same: alike(left[i], right[j]) });
      i += 1;
      j += 1;
    } else if (j >= right.length || (i < left.length && common[(i + 1) * width + j] >= common[i * width + j + 1])) {
      rows.push({ left: left[i], right: null, same: false });
      i += 1;
    } else {
      rows.push({ left: null, right: right[j], same: false });
      j += 1;
    }
  }
  return rows;
};

/** Both paths, step by step up to where they part, then lined up on the nodes they share. */
export const alignRuns = (left: ShownRun, right: ShownRun): AlignedRow[] => {
  const parting = whereRunsPart(left, right);
  const shared = parting ? parting.step - 1 : Math.max(left.trace.steps.length, right.trace.steps.length);
  const rows: AlignedRow[] = [];
  for (let index = 0; index < shared; index += 1) {
    const pair = { left: left.trace.steps[index] ?? null, right: right.trace.steps[index] ?? null };
    rows.push({ ...pair, same: alike(pair.left, pair.right) });
  }
  return parting ? [...rows, ...alignTails(left.trace.steps.slice(shared), right.trace.steps.slice(shared))] : rows;
};

export interface AttemptPair {
  n: number;
  left: Attempt | null;
  right: Attempt | null;
  same: boolean;
}

// The iteration too: the same call one iteration later is another step of the inner loop.
const attemptWords = (attempt: Attempt) => `${attempt.skill}:${attempt.outcome}:${attempt.tokens}:${attempt.records ?? 0}:${attempt.iteration ?? ''}`;

/** The attempts of one step in each run, paired in order. */
export const pairAttempts = (left: TraceStep | undefined, right: TraceStep | undefined): AttemptPair[] => {
  const a = left?.attempts ?? [];
  const b = right?.attempts ?? [];
  return Array.from({ length: Math.max(a.length, b.length) }, (_, index) => ({
    n: index + 1,
    left: a[index] ?? null,
    right: b[index] ?? null,
    same: a[index] !== undefined && b[index] !== undefined && attemptWords(a[index]) === attemptWords(b[index]),
  }));
};

export interface Difference {
  /** The step number in both traces (they are aligned step by step up to here). */
  step: number;
  left: TraceStep | undefined;
  right: TraceStep | undefined;
  /** `path`: the runs part here; `detail`: the same path, but attempts or writes differ here. */
  kind: 'path' | 'detail';
  sentence: string;
  /** What each run's step wrote. */
  writes: Change[];
  attempts: AttemptPair[];
  canvas: CanvasParting;
}

const differenceAt = (left: ShownRun, right: ShownRun, step: number, kind: Difference['kind'], sentence: string): Difference => {
  const a = left.trace.steps[step - 1];
  const b = right.trace.steps[step - 1];
  return {
    step, left: a, right: b, kind, sentence,
    writes: diffStates(a?.writes ?? {}, b?.writes ?? {}),
    attempts: pairAttempts(a, b),
    canvas: { nodes: [...new Set([a?.node, b?.node].filter((node): node is string => node !== undefined))], leftEdge: a?.fired?.id ?? null, rightEdge: b?.fired?.id ?? null },
  };
};

/**
 * The first step where the runs part, or, when they take the same path, the first step whose
 * attempts or writes differ; null when the two runs are alike throughout.
 */
export const firstDifference = (left: ShownRun, right: ShownRun): Difference | null => {
  const parting = whereRunsPart(left, right);
  if (parting) return differenceAt(left, right, parting.step, 'path', parting.sentence);
  const index = left.trace.steps.findIndex((step, at) => {
    const other = right.trace.steps[at];
    return pairAttempts(step, other).some((pair) => !pair.same) || diffStates(step.writes, other.writes).length > 0;
  });
  if (index === -1) return null;
  return differenceAt(left, right, index + 1, 'detail', `Runs ${left.id} and ${right.id} take the same path; at step ${index + 1} (${left.trace.steps[index].node}) their attempts or state differ`);
};

/** How the graphs the two runs ran on differ, setting by setting (skills included): what to read before where the runs part. */
export const graphDifferences = (left: GraphFile, right: GraphFile): SettingChange[] =>
  settingChanges(settingsOf(left, { skills: true }), settingsOf(right, { skills: true }));
