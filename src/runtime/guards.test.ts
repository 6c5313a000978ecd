import { describe, expect, it } from 'vitest';
import { FIXTURES } from './fixtures/index.ts';
import { guardCheckWords } from './guards.ts';
import { stopWords } from './stepWords.ts';
import { runGraph } from './index.ts';
import { parseTrace, serializeTrace, type TraceStep } from './trace.ts';
import { readTrace } from './traceText.ts';
import { runStopWords } from './stepWords.ts';

/** A step's guard checks and its guard's stop, in words, as the step view and the timeline show them. */
const wordsOf = (step: TraceStep) => [step.guards?.map(guardCheckWords), step.guard && stopWords(step.guard, step.budget), step.stop && stopWords(step.stop, step.budget)];

describe('guard checks and stops in a trace are data (issue 55)', () => {
  it('a new trace stores the checks’ and the stop’s numbers, not words, and round-trips through its file, by the whole parse and by parts', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 7;
    const trace = await runGraph(graph);
    const last = trace.steps.at(-1)!;
    expect(last.guards).toEqual([
      { name: 'max_rounds', value: last.round, limit: graph.limits.maxRounds, passed: true },
      { name: 'max_steps', value: 7, limit: 7, passed: false },
    ]);
    expect(last.guard).toEqual({ reason: 'max_steps', value: 7, limit: 7 });
    expect(last.stop).toEqual(last.guard);
    expect(trace.steps.some((step) => step.guards?.some((check) => 'explain' in check) || (step.guard && 'explain' in step.guard))).toBe(false);
    expect(wordsOf(last)).toEqual([[`round ${last.round}/${graph.limits.maxRounds}`, 'steps 7/7'], 'steps 7 reached maxSteps 7', 'steps 7 reached maxSteps 7']);
    // The run's own stop is said in the same words.
    expect(runStopWords(trace)).toBe('steps 7 reached maxSteps 7');
    const parsed = parseTrace(serializeTrace(trace));
    expect(parsed.ok && parsed.value).toEqual(JSON.parse(JSON.stringify(trace)));
    expect(parsed.ok && parsed.value.steps.map(wordsOf)).toEqual(trace.steps.map(wordsOf));
    expect(await readTrace(new Blob([serializeTrace(trace)]))).toEqual(JSON.parse(JSON.stringify(trace)));
  });

  it('an old trace, with its checks and its guard’s stop in words, still opens and reads the same', async () => {
    const header = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: 'max_rounds', stopExplain: 'round 6 would exceed maxRounds 5', rounds: 5, tokensUsed: 0, finalState: {} };
    const stop = { reason: 'max_rounds', explain: 'round 6 would exceed maxRounds 5' };
    const step = {
      step: 1, round: 5, node: 'plan', kind: 'reason', outcome: null, attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: stop, durationMs: 0,
      guards: [{ name: 'max_rounds', value: 6, limit: 5, passed: false, explain: 'round 6/5' }], note: 'stopped by a guard before plan', stop,
    };
    const parsed = parseTrace(JSON.stringify({ ...header, steps: [step] }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.steps[0]).toEqual(step);
    expect(wordsOf(parsed.value.steps[0])).toEqual([['round 6/5'], 'round 6 would exceed maxRounds 5', 'round 6 would exceed maxRounds 5']);
    expect((await readTrace(new Blob([JSON.stringify({ ...header, steps: [step] })])))?.steps).toEqual([step]);
  });

  it('refuses a guard’s stop of no known form, naming where', () => {
    const header = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: 'max_rounds', rounds: 1, tokensUsed: 0, finalState: {} };
    const step = { step: 1, round: 1, node: 'a', kind: 'reason', outcome: null, attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: { reason: 'max_rounds', value: 6 }, durationMs: 0 };
    const parsed = parseTrace(JSON.stringify({ ...header, steps: [step] }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.path).join(' ')).toContain('steps[0].guard');
  });
});
