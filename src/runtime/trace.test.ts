import { describe, expect, it } from 'vitest';
import { LIMITS, TRACE_LIMITS } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from './index.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { parseTrace, serializeTrace, type Trace } from './trace.ts';
import { readTrace } from './traceText.ts';

describe('parseTrace', () => {
  it('accepts a trace the runtime made, unchanged', async () => {
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1 });
    const parsed = parseTrace(JSON.stringify(trace));
    expect(parsed.ok && parsed.value).toEqual(JSON.parse(JSON.stringify(trace)));
  });

  it('names the path that failed', () => {
    const bad = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: null, rounds: 0, tokensUsed: 0, finalState: {},
      steps: [{ step: 1, round: 1, node: 'a', kind: 'wizard', outcome: null, attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0 }] };
    const parsed = parseTrace(JSON.stringify(bad));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.path)).toEqual(['steps[0].kind']);
  });

  it('refuses text that is not JSON, another format, unknown keys, steps out of order and forbidden keys', () => {
    expect(parseTrace('{').ok).toBe(false);
    const header = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: null, rounds: 0, tokensUsed: 0, finalState: {}, steps: [] };
    expect(parseTrace(JSON.stringify({ ...header, format: 'loopscope/graph' })).ok).toBe(false);
    expect(parseTrace(JSON.stringify({ ...header, extra: 1 })).ok).toBe(false);
    expect(parseTrace('{"__proto__": {}}').ok).toBe(false);
    const step = { step: 2, round: 1, node: 'a', kind: 'reason', outcome: null, attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0 };
    const parsed = parseTrace(JSON.stringify({ ...header, steps: [step] }));
    expect(!parsed.ok && parsed.problems[0].path).toBe('steps[0].step');
    expect(parseTrace(JSON.stringify(header)).ok).toBe(true);
  });

  it('reads traces far longer than a graph file may be, within limits of their own', () => {
    const header = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: null, rounds: 1, tokensUsed: 0, finalState: {} };
    const step = (n: number) => ({ step: n, round: 1, node: 'a', kind: 'reason', outcome: null, attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0 });
    const long = parseTrace(JSON.stringify({ ...header, steps: Array.from({ length: LIMITS.items + 1 }, (_, index) => step(index + 1)) }));
    expect(long.ok && long.value.steps).toHaveLength(LIMITS.items + 1);
    // Every other list keeps the usual limit, and the text its own.
    const wide = parseTrace(JSON.stringify({ ...header, finalState: { list: Array.from({ length: LIMITS.items + 1 }, () => 0) }, steps: [] }));
    expect(!wide.ok && wide.problems[0]).toEqual({ path: 'finalState.list', message: `has ${LIMITS.items + 1} items; at most ${LIMITS.items} are allowed` });
    expect(TRACE_LIMITS.textChars).toBeGreaterThan(LIMITS.textChars);
  });

  it('writes a file of one step a line that reads back as the same trace', async () => {
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1, compact: true });
    const text = serializeTrace({ ...trace, graphFile: { name: 'G' } });
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify({ ...trace, graphFile: { name: 'G' } })));
    const lines = text.split('\n');
    expect(lines.filter((line) => line.startsWith('    {"step":'))).toHaveLength(trace.steps.length);
    expect(text.length).toBeLessThan(JSON.stringify(trace, null, 2).length * 0.7);
    expect(JSON.parse(serializeTrace({ ...trace, steps: [] })).steps).toEqual([]);
  });
});

describe('reasons in a trace are data (issue 55)', () => {
  /** Each edge tried and each edge fired, in words, as the step view and the timeline show them. */
  const wordsOf = (trace: Trace) => trace.steps.map((step) => [step.edges.map((edge) => `${edge.id}: ${storedWords(edge)}`), step.fired && storedWords(step.fired)]);

  it('a new trace stores the reason, not words, and round-trips through its file, by the whole parse and by parts', async () => {
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1 });
    const evaluate = trace.steps.find((step) => step.fired?.id === 'e4')!;
    expect(evaluate.fired).toEqual({ id: 'e4', target: 'recover', why: { is: 'field', path: 'evaluation.plan_exhausted', operator: 'eq', expected: true, actual: true, matched: true } });
    expect(trace.steps.some((step) => step.edges.some((edge) => 'explain' in edge) || (step.fired && 'reason' in step.fired))).toBe(false);
    const parsed = parseTrace(serializeTrace(trace));
    expect(parsed.ok && parsed.value).toEqual(JSON.parse(JSON.stringify(trace)));
    expect(parsed.ok && wordsOf(parsed.value)).toEqual(wordsOf(trace));
    expect(storedWords(evaluate.fired!)).toBe('evaluation.plan_exhausted eq true (was true)');
    // A long trace's steps are read by the quick check, recursive reasons included.
    expect(await readTrace(new Blob([serializeTrace(trace)]))).toEqual(JSON.parse(JSON.stringify(trace)));
  });

  it('an old trace, with its reasons in words, still opens and reads the same', async () => {
    const header = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: 'completed', rounds: 1, tokensUsed: 0, finalState: {} };
    const step = {
      step: 1, round: 1, node: 'evaluate', kind: 'verify', outcome: 'exhausted', attempts: [], reads: [], writes: {}, guard: null, durationMs: 0,
      edges: [
        { id: 'e3', target: 'answer', matched: false, explain: 'outcome is "exhausted", not "sufficient"' },
        { id: 'e4', target: 'recover', matched: true, explain: 'evaluation.plan_exhausted eq true (was true)' },
        { id: 'e5', target: 'decide', matched: false, skipped: true, explain: 'not tried: e4 fired first' },
      ],
      fired: { id: 'e4', target: 'recover', reason: 'evaluation.plan_exhausted eq true (was true)' },
    };
    const text = JSON.stringify({ ...header, steps: [step] });
    const parsed = parseTrace(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.steps[0]).toEqual(step);
    expect(wordsOf(parsed.value)).toEqual([[[
      'e3: outcome is "exhausted", not "sufficient"', 'e4: evaluation.plan_exhausted eq true (was true)', 'e5: not tried: e4 fired first',
    ], 'evaluation.plan_exhausted eq true (was true)']]);
    expect((await readTrace(new Blob([JSON.stringify({ ...header, steps: [step] })])))?.steps).toEqual([step]);
  });

  it('refuses a reason of no known form, naming where', async () => {
    const header = { format: 'loopscope/trace', version: 1, graph: 'G', seed: 1, stopReason: null, rounds: 1, tokensUsed: 0, finalState: {} };
    const step = { step: 1, round: 1, node: 'a', kind: 'verify', outcome: null, attempts: [], reads: [], writes: {}, guard: null, durationMs: 0, edges: [], fired: { id: 'e1', target: 'b', why: { is: 'guess' } } };
    const parsed = parseTrace(JSON.stringify({ ...header, steps: [step] }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.path)).toContain('steps[0].fired.why.is');
    expect(await readTrace(new Blob([JSON.stringify({ ...header, steps: [step] })]))).toBeNull();
  });
});
