import { nodeRan, type Trace, type TraceStep } from './trace.ts';

type State = Record<string, unknown>;

/** A compact trace's state is replayed from at most this many steps back: selecting a step on a long trace costs no pass over it. */
export const REPLAY_SPAN = 256;

/** States replayed at every REPLAY_SPAN-th step of a trace, by the initial state they started from. */
const keyframes = new WeakMap<Trace, { initial: string; after: (State | undefined)[] }>();

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

/** The state after step `at` (a multiple of REPLAY_SPAN), replayed once per trace and kept. */
const keyframe = (trace: Trace, at: number, initial: State | undefined): State | undefined => {
  const key = JSON.stringify(initial ?? null);
  let kept = keyframes.get(trace);
  if (!kept || kept.initial !== key) {
    kept = { initial: key, after: [] };
    keyframes.set(trace, kept);
  }
  if (at === 0) return initial;
  const wanted = at / REPLAY_SPAN;
  for (let frame = kept.after.length + 1; frame <= wanted; frame += 1) {
    const previous = frame === 1 ? initial : kept.after[frame - 2];
    // Undefined until the trace's first `stateBefore` when there is no initial state: a later one sets it.
    kept.after.push(replay(trace.steps, (frame - 1) * REPLAY_SPAN, frame * REPLAY_SPAN, previous));
  }
  return kept.after[wanted - 1];
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
  const from = Math.floor(stepNumber / REPLAY_SPAN) * REPLAY_SPAN;
  const state = replay(steps, from, stepNumber, keyframe(trace, from, initial));
  if (!state) throw new Error('a compact trace does not hold the initial state');
  return state;
};
