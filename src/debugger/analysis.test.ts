import { describe, expect, it } from 'vitest';
import type { Attempt, Trace, TraceStep } from '../runtime/trace.ts';
import { indexSteps } from '../runtime/traceIndex.ts';
import { roundCount, timelineLayout } from '../runtime/timelineLayout.ts';
import { diffStates, retrySummary, retryVerdict, roundsOverview, rowAt, visibleRange, whereRunsPart } from './analysis.ts';

const step = (fields: Partial<TraceStep>): TraceStep => ({
  step: 1, round: 1, node: 'decide', kind: 'reason', outcome: 'ok', attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0, ...fields,
});

const trace = (steps: TraceStep[], extra: Partial<Trace> = {}): Trace => ({
  format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: 'completed', rounds: 1, tokensUsed: 0, finalState: {}, steps, ...extra,
});

describe('diffStates', () => {
  it('lists added, changed and removed keys with their values, and leaves equal ones out', () => {
    expect(diffStates({ a: 1, b: { x: 1 }, gone: true, same: [1] }, { a: 2, b: { x: 1 }, fresh: 'y', same: [1] })).toEqual([
      { key: 'a', type: 'changed', before: 1, after: 2 },
      { key: 'fresh', type: 'added', after: 'y' },
      { key: 'gone', type: 'removed', before: true },
    ]);
  });
});

describe('whereRunsPart', () => {
  const evaluate = (id: string, reason: string) => step({ node: 'evaluate', fired: { id, target: 'x', reason } });
  const one = { id: 1, trace: trace([step({}), step({ step: 2 }), evaluate('e4', 'evaluation.plan_exhausted eq true (was true)')]) };
  const two = { id: 2, trace: trace([step({}), step({ step: 2 }), evaluate('e3', 'outcome is sufficient')]) };

  it('names the first step whose fired edge differs, with both edges and their reasons', () => {
    expect(whereRunsPart(one, two)).toEqual({
      step: 3,
      sentence: 'Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 2 took e3 (outcome is sufficient)',
    });
  });

  it('is null for runs that take the same edges, and names a run that ended earlier', () => {
    expect(whereRunsPart(one, one)).toBeNull();
    const shorter = { id: 3, trace: trace(one.trace.steps.slice(0, 2)) };
    expect(whereRunsPart(one, shorter)?.sentence).toBe('Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 3 took nothing (the run had ended)');
  });

  it('does not say a paused run had ended: it has made no such step yet', () => {
    const paused = { id: 4, trace: trace(one.trace.steps.slice(0, 2), { stopReason: null }) };
    expect(whereRunsPart(one, paused)?.sentence).toBe('Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 4 took nothing yet (it is paused after step 2)');
  });
});

describe('timeline rows and windowing', () => {
  const attempts = [{ n: 1, skill: 's', outcome: 'timeout' as const, tokens: 1 }, { n: 2, skill: 's', outcome: 'empty' as const, tokens: 1 }];
  const small = trace([step({}), step({ step: 2, attempts }), step({ step: 3, round: 2, blindRetry: true })], { stopReason: 'max_rounds', stopExplain: 'why' });
  const layout = timelineLayout(small, indexSteps(small.steps));
  const rows = Array.from(layout.rows, (_, row) => rowAt(small, layout, row));

  it('groups steps under round headers, gives each attempt a row, marks blind retries and ends with the stop', () => {
    expect(rows.map((row) => `${row.type}:${row.height}`)).toEqual(['round:1', 'step:1', 'step:3', 'round:1', 'step:1', 'stop:1']);
    expect(rows[2]).toMatchObject({ type: 'step', step: small.steps[1] });
    expect(rows[3]).toMatchObject({ type: 'round', round: 2, blindRetry: true });
    expect(rows[0]).toMatchObject({ type: 'round', round: 1, blindRetry: false });
    expect(rows[5]).toMatchObject({ reason: 'max_rounds', explain: 'why' });
    expect([...layout.offsets]).toEqual([0, 1, 2, 5, 6, 7, 8]);
    expect([...layout.rowOfStep]).toEqual([1, 2, 4]);
    expect(roundCount(indexSteps(small.steps))).toBe(2);
  });

  it('lays out the steps shown so far, with no stop row while the run goes on', () => {
    const shown = timelineLayout(small, indexSteps(small.steps), 2);
    expect([...shown.offsets]).toEqual([0, 1, 2, 5]);
    expect(roundCount(indexSteps(small.steps), 2)).toBe(1);
  });

  it('keeps the layout of all the steps on the index, and lays out again when the run stops', () => {
    const index = indexSteps(small.steps);
    const whole = timelineLayout(small, index);
    expect(index.timeline).toEqual({ stop: true, layout: whole });
    expect(timelineLayout(small, index)).toBe(whole);
    // The same steps before the run stopped: no stop row, and the stopped layout is not taken for it.
    const going = timelineLayout({ ...small, stopReason: null }, index);
    expect(going.rows).toHaveLength(whole.rows.length - 1);
    expect(timelineLayout(small, index)).not.toBe(going);
    // Copied between threads, as the parsing worker sends it, the layout comes along.
    const copied = structuredClone(index);
    expect(timelineLayout(small, copied)).toBe(copied.timeline?.layout);
    expect([...timelineLayout(small, copied).offsets]).toEqual([...whole.offsets]);
  });

  it('lays out 100,000 steps from their index without reading a step', () => {
    const steps = Array.from({ length: 100_000 }, (_, index) => step({ step: index + 1, round: Math.floor(index / 4) + 1 }));
    const index = indexSteps(steps);
    let read = 0;
    const counted = new Proxy(steps, {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) read += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const big = timelineLayout(trace(counted), index);
    expect(read).toBe(0);
    expect(big.rows).toHaveLength(125_001);
    // Only the rows drawn read their steps.
    rowAt(trace(counted), big, 62_500);
    expect(read).toBe(1);
  });

  it('renders only the rows in the viewport plus the overscan, even for 10,000 steps', () => {
    const long = trace(Array.from({ length: 10_000 }, (_, index) => step({ step: index + 1, round: Math.floor(index / 4) + 1 })));
    const { offsets, rows: big } = timelineLayout(long, indexSteps(long.steps));
    expect(big).toHaveLength(12_501);
    const range = visibleRange(offsets, 20, 100_000, 400, 5);
    // Row 5000 starts at 100,000 px; 20 rows fit in 400 px.
    expect(range).toEqual({ start: 4995, end: 5025 });
    expect(visibleRange(offsets, 20, 0, 400, 5)).toEqual({ start: 0, end: 25 });
    expect(visibleRange(offsets, 20, offsets[offsets.length - 1] * 20 - 400, 400, 5).end).toBe(big.length);
  });

  it('finds the row under the top when rows are taller than one unit', () => {
    // Rows start at 0, 1, 2, 5, 6, 7: 3.5 falls inside the three-unit step row.
    expect(visibleRange(layout.offsets, 10, 35, 10, 0)).toEqual({ start: 2, end: 3 });
  });
});

describe('roundsOverview', () => {
  it('gives one row per round: its path, how it ended and what it cost', async () => {
    const { runGraph } = await import('../runtime/index.ts');
    const { findTemplate } = await import('../graph/templates/index.ts');
    const graph = (findTemplate('securityclaw') as { graph: () => import('../graph/index.ts').GraphFile }).graph();
    const trace = await runGraph(graph);
    expect(roundsOverview(trace)).toEqual([
      { round: 1, path: ['decide', 'execute', 'evaluate', 'recover'], outcome: 'recover recovered', tokens: 200 },
      { round: 2, path: ['decide', 'execute', 'evaluate', 'answer'], outcome: 'stopped: completed', tokens: 150 },
    ]);
  });
});

describe('retryVerdict and retrySummary', () => {
  const attempt = (n: number, outcome: Attempt['outcome'], action = 0): Attempt => ({ n, skill: 'search', outcome, tokens: 1, action });

  it('a try followed by another of the same action was retried in place; the last one was not', () => {
    const attempts = [attempt(1, 'timeout'), attempt(2, 'empty')];
    expect(attempts.map((_, index) => retryVerdict(attempts, index))).toEqual(['retried', 'not_retried']);
    expect(retrySummary(attempts)).toBe(
      'One attempt was retried in place, inside this node: no re-plan, and the round and step count stayed as they were. The last attempt (empty) was not retried; what it means is left to the edges below.',
    );
  });

  it('the next action is not a retry; an ok attempt needs no words', () => {
    const attempts = [attempt(1, 'ok', 0), attempt(1, 'ok', 1)];
    expect(attempts.map((_, index) => retryVerdict(attempts, index))).toEqual(['ok', 'ok']);
    expect(retrySummary(attempts)).toBeNull();
  });
});
