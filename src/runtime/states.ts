import { nodeRan, type Trace, type TraceStep } from './trace.ts';
import { traceIndex } from './traceIndex.ts';

type State = Record<string, unknown>;

/** A compact trace's state is replayed from at most this many steps back: selecting a step on a long trace costs no pass over it. */
export const REPLAY_SPAN = 256;

/**
 * What the steps up to a multiple of REPLAY_SPAN did to the state, whatever it started from: the
 * state it starts from (the initial one, or the `stateBefore` of step `base` when a step held one),
 * every field they wrote (the last write of each), how many of them ran, and the round and tokens
 * of the last ones that told. A state kept every REPLAY_SPAN steps is this put over its start, so
 * they are made in one pass that does not depend on the initial state: the worker that parses an
 * imported trace makes them, and they arrive with its index.
 */
export interface Keyframe {
  /** The step (from 0) whose `stateBefore` the span starts from; -1: the initial state. */
  base: number;
  writes: State;
  ran: number;
  round?: number;
  tokensUsed?: unknown;
}

/** Keyframes made so far for a list of steps, and where the pass stands (the running keyframe is its own, with a null-prototype `writes`, never handed out). */
interface Keyframes {
  made: Keyframe[];
  running: Keyframe;
  next: number;
}

/** A run's steps array is replaced, never changed, when the run goes on: the array is the key. */
const keyframes = new WeakMap<readonly TraceStep[], Keyframes>();

/** The pass after these keyframes: the last one goes on. */
const passAfter = (made: Keyframe[]): Keyframes => {
  const last = made.at(-1);
  return { made, running: { ...(last ?? { base: -1, ran: 0 }), writes: Object.assign(Object.create(null), last?.writes) }, next: made.length * REPLAY_SPAN };
};

/** Makes the keyframes of the first `frames` spans, going on from where the last call stopped. */
const makeKeyframes = (steps: readonly TraceStep[], frames: number): Keyframe[] => {
  let kept = keyframes.get(steps);
  if (!kept) {
    const made = traceIndex(steps).keyframes;
    kept = passAfter(made?.length === Math.floor(steps.length / REPLAY_SPAN) ? [...made] : []);
    keyframes.set(steps, kept);
  }
  const { made } = kept;
  for (; made.length < frames; kept.next += 1) {
    const step = steps[kept.next];
    // Null prototype: a write named `__proto__` is a field, kept as one by the copy below.
    if (step.stateBefore) kept.running = { base: kept.next, writes: Object.create(null), ran: 0 };
    const { running } = kept;
    if (nodeRan(step)) {
      Object.assign(running.writes, step.writes);
      running.ran += 1;
      running.round = step.round;
      if (step.tokensUsed !== undefined) running.tokensUsed = step.tokensUsed;
    }
    if ((kept.next + 1) % REPLAY_SPAN === 0) made.push({ ...running, writes: { ...running.writes } });
  }
  return made;
};

/** The keyframes of a whole list of steps, made in one pass (by the parsing worker, for the trace's index). */
export const keyframesFor = (steps: readonly TraceStep[]): Keyframe[] => makeKeyframes(steps, Math.floor(steps.length / REPLAY_SPAN));

/** The state a keyframe stands for, given the run's initial state: its start with its writes over it. */
const stateOf = (steps: readonly TraceStep[], frame: Keyframe, initial: State | undefined): State | undefined => {
  // Undefined until the trace's first `stateBefore` when there is no initial state: a later one sets it.
  const start = frame.base < 0 ? initial : steps[frame.base].stateBefore;
  if (!start || frame.ran === 0) return start;
  return { ...start, ...frame.writes, round: frame.round, steps: (start.steps as number) + frame.ran, tokensUsed: frame.tokensUsed ?? start.tokensUsed };
};

/** The state step `step` left, given the state before it: its own `stateBefore` when the trace holds it. */
const advance = (state: State | undefined, step: TraceStep): State | undefined => {
  const before = step.stateBefore ?? state;
  if (!before || !nodeRan(step)) return before;
  return { ...before, ...step.writes, round: step.round, steps: (before.steps as number) + 1, tokensUsed: step.tokensUsed ?? before.tokensUsed };
};

const replay = (steps: readonly TraceStep[], from: number, to: number, state: State | undefined) => {
  let current = state;
  for (let index = from; index < to; index += 1) current = advance(current, steps[index]);
  return current;
};

/**
 * The state after step `stepNumber` (1-based; 0 is the initial state) of a trace with no run
 * behind it (an imported one): the next step's `stateBefore` when the trace has it, else the
 * writes replayed over the last state known, or over `initial` (the graph's initial state) when
 * the trace holds none. A run's own states come from its checkpoints (`RunController.stateAt`).
 */
export const stateAfterStep = (trace: Trace, stepNumber: number, initial?: State): State => {
  const { steps } = trace;
  if (stepNumber >= steps.length) return trace.finalState;
  const next = steps[stepNumber];
  if (next.stateBefore) return next.stateBefore;
  const frames = Math.floor(stepNumber / REPLAY_SPAN);
  const from = frames === 0 ? initial : stateOf(steps, makeKeyframes(steps, frames)[frames - 1], initial);
  const state = replay(steps, frames * REPLAY_SPAN, stepNumber, from);
  if (!state) throw new Error('a compact trace does not hold the initial state');
  return state;
};
