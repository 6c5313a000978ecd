import { describe, expect, it } from 'vitest';
import { keyframesFor, REPLAY_SPAN, stateAfterStep } from './states.ts';
import { adoptIndex, indexSteps } from './traceIndex.ts';
import type { Trace, TraceStep } from './trace.ts';

/** A compact trace (no `stateBefore`) whose steps count how often their writes are read. */
const compactTrace = (count: number) => {
  const reads = { count: 0 };
  const steps = Array.from({ length: count }, (_, index): TraceStep => {
    const step = {
      step: index + 1, round: Math.floor(index / 2) + 1, node: index % 2 === 0 ? 'act' : 'check', kind: 'act', outcome: 'ok',
      attempts: [], reads: [], edges: [], fired: null, guard: null, durationMs: 0, tokensUsed: index + 1,
    } as unknown as TraceStep;
    Object.defineProperty(step, 'writes', {
      enumerable: true,
      get: () => {
        reads.count += 1;
        return { last: index + 1 };
      },
    });
    return step;
  });
  const trace: Trace = { format: 'loopscope/trace', version: 1, graph: 'g', seed: 1, stopReason: 'max_steps', rounds: count / 2, tokensUsed: count, finalState: { last: count, steps: count }, steps };
  return { trace, reads };
};

const initial = { last: 0, round: 1, steps: 0, tokensUsed: 0 };

describe('stateAfterStep on a compact trace', () => {
  it('replays the writes over the initial state, the same for any order of questions', () => {
    const { trace } = compactTrace(3 * REPLAY_SPAN + 10);
    for (const step of [700, 3, 0, REPLAY_SPAN, REPLAY_SPAN + 1, 3 * REPLAY_SPAN + 9])
      expect(stateAfterStep(trace, step, initial)).toEqual(step === 0 ? initial : { last: step, round: Math.floor((step - 1) / 2) + 1, steps: step, tokensUsed: step });
    expect(stateAfterStep(trace, trace.steps.length, initial)).toBe(trace.finalState);
    expect(() => stateAfterStep(trace, 5)).toThrow('a compact trace does not hold the initial state');
  });

  it('a step taken from a state kept on the way: moving the selection reads at most a span of steps, not the whole trace', () => {
    const { trace, reads } = compactTrace(20_000);
    stateAfterStep(trace, 19_999, initial);
    expect(reads.count).toBeLessThanOrEqual(20_000);
    reads.count = 0;
    for (const step of [19_998, 10_000, 1, 19_999]) stateAfterStep(trace, step, initial);
    expect(reads.count).toBeLessThanOrEqual(4 * REPLAY_SPAN);
  });

  it('leaves the states it starts from as they were: the initial state and the states a trace holds', () => {
    const { trace } = compactTrace(2 * REPLAY_SPAN);
    const held = { last: 5, round: 3, steps: 5, tokensUsed: 5 };
    trace.steps[5] = { ...trace.steps[5], stateBefore: held, writes: { last: 6 } };
    const start = { ...initial };
    expect(stateAfterStep(trace, 7, start)).toEqual({ last: 7, round: 4, steps: 7, tokensUsed: 7 });
    expect(start).toEqual(initial);
    expect(held).toEqual({ last: 5, round: 3, steps: 5, tokensUsed: 5 });
    expect(stateAfterStep(trace, REPLAY_SPAN + 2, start)).toEqual({ last: REPLAY_SPAN + 2, round: REPLAY_SPAN / 2 + 1, steps: REPLAY_SPAN + 2, tokensUsed: REPLAY_SPAN + 2 });
    expect(held).toEqual({ last: 5, round: 3, steps: 5, tokensUsed: 5 });
  });

  it('takes a write named `__proto__` as a field, not as the state\'s prototype', () => {
    const { trace } = compactTrace(4);
    trace.steps[0] = { ...trace.steps[0], writes: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown> };
    const state = stateAfterStep(trace, 2, initial);
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(Object.keys(state)).toContain('__proto__');
  });

  it('takes a write named `__proto__` as a field in a state kept on the way too', () => {
    const { trace } = compactTrace(REPLAY_SPAN + 4);
    trace.steps[0] = { ...trace.steps[0], writes: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown> };
    const state = stateAfterStep(trace, REPLAY_SPAN + 2, initial);
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(Object.keys(state)).toContain('__proto__');
  });

  it('keyframes made elsewhere and copied over with the index (as the parsing worker sends them) give the same states, with no pass over the trace', () => {
    const made = compactTrace(3 * REPLAY_SPAN + 10);
    const held = { last: 300, round: 150, steps: 300, tokensUsed: 300 };
    made.trace.steps[300] = { ...made.trace.steps[300], stateBefore: held };
    const copied = compactTrace(3 * REPLAY_SPAN + 10);
    copied.trace.steps[300] = { ...copied.trace.steps[300], stateBefore: held };
    adoptIndex(copied.trace.steps, structuredClone({ ...indexSteps(made.trace.steps), keyframes: keyframesFor(made.trace.steps) }));
    copied.reads.count = 0;
    for (const step of [3 * REPLAY_SPAN + 9, 2 * REPLAY_SPAN, 301, 5])
      expect(stateAfterStep(copied.trace, step, initial)).toEqual(stateAfterStep(made.trace, step, initial));
    expect(copied.reads.count).toBeLessThanOrEqual(4 * REPLAY_SPAN);
  });
});
