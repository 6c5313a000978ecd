import { describe, expect, it } from 'vitest';
import { LIMITS, TRACE_LIMITS } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from './index.ts';
import { parseTrace, serializeTrace } from './trace.ts';

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
