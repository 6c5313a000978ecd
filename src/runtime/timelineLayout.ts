/**
 * The timeline's rows as flat arrays, from a run's index (traceIndex.ts): made on the page for a run
 * that goes on, and by the parsing worker, with the index, for an imported trace.
 */
import type { Trace } from './trace.ts';
import type { TraceIndex } from './traceIndex.ts';

/** A row of `TimelineLayout.rows` that is the stop at the end. */
export const STOP_ROW = -0x80000000;

/**
 * Rounds as headers, steps under them (each one row plus a row per attempt), the stop at the end,
 * as flat arrays made from the run's index: a 100,000-step run is laid out without reading its
 * steps, and only the rows in view become objects (`rowAt`).
 */
export interface TimelineLayout {
  /** Each row: a step's index (from 0); a round header as -1 - the index of the round's first step; the stop as STOP_ROW. */
  rows: Int32Array;
  /** Where each row starts, in row units; the last entry is the total. */
  offsets: Float64Array;
  /** The row of each step shown, by index. */
  rowOfStep: Int32Array;
  /** 1 on a round header whose round has a blind retry. */
  blind: Uint8Array;
}

/** How many rounds the first `stepCount` steps of a run have (round headers in its timeline), read from its index. */
export const roundCount = ({ rounds, roundTotal }: TraceIndex, stepCount = rounds.length): number => {
  if (stepCount === rounds.length) return roundTotal;
  let count = stepCount > 0 ? 1 : 0;
  for (let at = 1; at < stepCount; at += 1) if (rounds[at] !== rounds[at - 1]) count += 1;
  return count;
};

/**
 * The layout of the first `stepCount` steps of a trace, from its index. One loop over typed arrays
 * with no call in it: it runs while a long trace first opens, over every step. The layout of all the
 * steps is kept on the index: an imported trace's comes made by the worker that parsed it.
 */
export const timelineLayout = (trace: Trace, index: TraceIndex, stepCount = trace.steps.length): TimelineLayout => {
  const stop = Boolean(trace.stopReason) && stepCount === trace.steps.length;
  const whole = stepCount === index.rounds.length;
  if (whole && index.timeline?.stop === stop) return index.timeline.layout;
  const layout = layOut(index, stepCount, stop);
  if (whole) index.timeline = { stop, layout };
  return layout;
};

const layOut = (index: TraceIndex, stepCount: number, stop: boolean): TimelineLayout => {
  const { rounds, attempts } = index;
  const headers = roundCount(index, stepCount);
  const count = stepCount + headers + (stop ? 1 : 0);
  const rows = new Int32Array(count);
  const offsets = new Float64Array(count + 1);
  const rowOfStep = new Int32Array(stepCount);
  const blind = new Uint8Array(count);
  let row = 0;
  let offset = 0;
  let header = -1;
  for (let at = 0; at < stepCount; at += 1) {
    if (at === 0 || rounds[at] !== rounds[at - 1]) {
      header = row;
      rows[row] = -1 - at;
      offset += 1;
      row += 1;
      offsets[row] = offset;
    }
    if (index.blind[at] === 1) blind[header] = 1;
    rowOfStep[at] = row;
    rows[row] = at;
    offset += 1 + attempts[at];
    row += 1;
    offsets[row] = offset;
  }
  if (stop) {
    rows[row] = STOP_ROW;
    offsets[row + 1] = offset + 1;
  }
  return { rows, offsets, rowOfStep, blind };
};
