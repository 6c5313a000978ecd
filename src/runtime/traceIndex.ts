/**
 * What the debugger reads of every step of a run, gathered in one pass into flat arrays: the
 * timeline's row layout and the canvas's visit counts come from here instead of from a walk over
 * 100,000 step objects on the first render. An imported trace's index is made by the worker that
 * parses it and arrives with it; any other run's is made once, the first time it is asked for.
 */
import type { Keyframe } from './states.ts';
import type { TimelineLayout } from './timelineLayout.ts';
import type { TraceStep } from './trace.ts';

/**
 * Whether the step's node ran: a guard before the node stops it with no attempt made, while the
 * budget running out before a retry stops a node that did run.
 */
export const nodeRan = (step: TraceStep) => !(step.guard && step.attempts.length === 0);

/** A run's step count, the one every place says and `expect.steps` checks: the nodes that ran (a guard's stop is no step of a node). */
export const stepsRan = (steps: readonly TraceStep[]): number => steps.reduce((count, step) => count + (nodeRan(step) ? 1 : 0), 0);

export interface TraceIndex {
  /** Each step's round. */
  rounds: Int32Array;
  /** Each step's number of attempts (a timeline row each). */
  attempts: Int32Array;
  /** 1 where the step is a blind retry. */
  blind: Uint8Array;
  /** How many rounds the steps are in (a header each in the timeline). */
  roundTotal: number;
  /** How often each node ran and each edge fired, over all the steps. Null prototypes (as every record here): a node may be called `toString`. */
  nodeVisits: Record<string, number>;
  edgeVisits: Record<string, number>;
  /** The index of each node's first step (run or not): which nodes the first steps of a run touched, without reading them. */
  firstStep: Record<string, number>;
  /** The states kept along the steps for replaying a step's state (states.ts), when the parsing worker made them. */
  keyframes?: readonly Keyframe[];
  /** The timeline's layout of all the steps, with the stop's row or without (timelineLayout.ts), once made. */
  timeline?: { stop: boolean; layout: TimelineLayout };
}

type Visits = Pick<TraceIndex, 'nodeVisits' | 'edgeVisits'>;

const noVisits = (): Visits => ({ nodeVisits: Object.create(null), edgeVisits: Object.create(null) });

const countVisit = ({ nodeVisits, edgeVisits }: Visits, step: TraceStep) => {
  if (nodeRan(step)) nodeVisits[step.node] = (nodeVisits[step.node] ?? 0) + 1;
  if (step.fired) edgeVisits[step.fired.id] = (edgeVisits[step.fired.id] ?? 0) + 1;
};

/** Counts each node's runs and each edge's firings. */
export const visitCounts = (steps: readonly TraceStep[]): Visits => {
  const visits = noVisits();
  for (const step of steps) countVisit(visits, step);
  return visits;
};

/** The index of a list of steps, in one pass that reads each step once. */
export const indexSteps = (steps: readonly TraceStep[]): TraceIndex => {
  const rounds = new Int32Array(steps.length);
  const attempts = new Int32Array(steps.length);
  const blind = new Uint8Array(steps.length);
  const visits = noVisits();
  const firstStep: Record<string, number> = Object.create(null);
  let roundTotal = 0;
  for (let at = 0; at < steps.length; at += 1) {
    const step = steps[at];
    if (at === 0 || step.round !== rounds[at - 1]) roundTotal += 1;
    rounds[at] = step.round;
    attempts[at] = step.attempts.length;
    blind[at] = step.blindRetry ? 1 : 0;
    countVisit(visits, step);
    firstStep[step.node] ??= at;
  }
  return { rounds, attempts, blind, roundTotal, ...visits, firstStep };
};

/** A run's steps array is replaced, never changed, when the run goes on: the array is the key. */
const indexes = new WeakMap<readonly TraceStep[], TraceIndex>();

/** The index of these steps, made once. */
export const traceIndex = (steps: readonly TraceStep[]): TraceIndex => {
  let index = indexes.get(steps);
  if (!index) {
    index = indexSteps(steps);
    indexes.set(steps, index);
  }
  return index;
};

/**
 * Keeps an index made elsewhere (by the parsing worker) for these steps. A copy between threads
 * gives the visit counts ordinary prototypes again; they get null ones back here.
 */
export const adoptIndex = (steps: readonly TraceStep[], index: TraceIndex) => {
  if (index.rounds.length !== steps.length) return;
  const nullPrototype = (record: Record<string, number>): Record<string, number> => Object.assign(Object.create(null), record);
  indexes.set(steps, { ...index, nodeVisits: nullPrototype(index.nodeVisits), edgeVisits: nullPrototype(index.edgeVisits), firstStep: nullPrototype(index.firstStep) });
};
