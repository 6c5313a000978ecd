import { nodeRan, type Trace } from './trace.ts';

/**
 * The state after step `stepNumber` (1-based; 0 is the initial state) of a trace with no run
 * behind it (an imported one): the next step's `stateBefore` when the trace has it, else the
 * writes replayed over the last state known, or over `initial` (the graph's initial state) when
 * the trace holds none. A run's own states come from its checkpoints (`RunController.stateAt`).
 */
export const stateAfterStep = (trace: Trace, stepNumber: number, initial?: Record<string, unknown>): Record<string, unknown> => {
  const { steps } = trace;
  if (stepNumber >= steps.length) return trace.finalState;
  const next = steps[stepNumber];
  if (next.stateBefore) return next.stateBefore;
  let known = stepNumber - 1;
  while (known >= 0 && !steps[known].stateBefore) known -= 1;
  if (known < 0 && !initial) throw new Error('a compact trace does not hold the initial state');
  let state: Record<string, unknown> = known < 0 ? (initial as Record<string, unknown>) : (steps[known].stateBefore as Record<string, unknown>);
  for (const step of steps.slice(Math.max(known, 0), stepNumber)) {
    if (!nodeRan(step)) continue;
    state = { ...state, ...step.writes, round: step.round, steps: (state.steps as number) + 1, tokensUsed: step.tokensUsed ?? state.tokensUsed };
  }
  return state;
};
