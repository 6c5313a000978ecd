import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickCheck } from '../graph/fastCheck.ts';
import { TRACE_LIMITS } from '../graph/limits.ts';
import { parseUntrusted } from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { z } from '../graph/zod.ts';
import { runGraph } from './index.ts';
import { parseTrace, serializeTrace, TraceStep, type Trace } from './trace.ts';
import { splitSteps, stepReader, stepSplitter, type StepText } from './traceText.ts';
import { traceIndex } from './traceIndex.ts';

const check = quickCheck(TraceStep, TRACE_LIMITS)!;
/** The full parse of a step at its place in a trace: the limits' walk from depth 3, then zod. */
const fullParse = (step: unknown) => parseUntrusted(TraceStep, step, ['steps', 0], { ...TRACE_LIMITS, depth: TRACE_LIMITS.depth - 2 }).ok;

describe('the quick check of a schema', () => {
  it('passes the steps of real runs, as the full parse does', async () => {
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1 });
    const steps = JSON.parse(JSON.stringify(trace.steps)) as unknown[];
    expect(steps.length).toBeGreaterThan(5);
    for (const step of steps) {
      expect(fullParse(step)).toBe(true);
      expect(check(step, 3)).toBe(true);
    }
  });

  it('never passes a step the full parse refuses', async () => {
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1 });
    const step = JSON.parse(JSON.stringify(trace.steps.find((one) => one.attempts.length > 0 && one.edges.length > 0))) as Record<string, unknown>;
    let deep: unknown = 1;
    for (let level = 0; level < TRACE_LIMITS.depth; level += 1) deep = { deep };
    const broken: [string, (copy: Record<string, any>) => void][] = [
      ['an unknown key', (copy) => (copy.extra = 1)],
      ['a kind no node has', (copy) => (copy.kind = 'teleport')],
      ['a step number below 1', (copy) => (copy.step = 0)],
      ['a fractional round', (copy) => (copy.round = 1.5)],
      ['a duration too large to hold', (copy) => (copy.durationMs = Number.POSITIVE_INFINITY)],
      ['a missing field', (copy) => delete copy.reads],
      ['text where a list goes', (copy) => (copy.reads = 'results')],
      ['an attempt with an unknown outcome', (copy) => (copy.attempts[0].outcome = 'maybe')],
      ['an attempt with an unknown key', (copy) => (copy.attempts[0].colour = 'red')],
      ['an edge check with no verdict', (copy) => delete copy.edges[0].matched],
      ['a reason of no known form', (copy) => (copy.edges[0].why = { is: 'maybe', matched: true })],
      ['a reason with a field of another form', (copy) => (copy.edges[0].why = { is: 'always', expected: 'ok', matched: true })],
      ['a reason that is no object', (copy) => (copy.edges[0].why = 'always')],
      ['a forbidden key in what it wrote', (copy) => (copy.writes = JSON.parse('{"__proto__": {"x": 1}}'))],
      ['a number too large deep in what it wrote', (copy) => (copy.writes = { a: [{ b: Number.NEGATIVE_INFINITY }] })],
      ['what it wrote nested past the depth limit', (copy) => (copy.writes = { deep })],
      ['a list longer than the limit', (copy) => (copy.reads = Array<string>(TRACE_LIMITS.items + 1).fill('x'))],
      ['null where an object goes', (copy) => (copy.writes = null)],
      ['a list where an object goes', (copy) => (copy.writes = [])],
    ];
    for (const [name, breakIt] of broken) {
      const copy = structuredClone(step);
      breakIt(copy);
      expect({ name, full: fullParse(copy) }).toEqual({ name, full: false });
      expect({ name, quick: check(copy, 3) }).toEqual({ name, quick: false });
    }
  });

  it('says what the full parse says of anything a step wrote, at any depth up to the limit and past it', async () => {
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1 });
    const step = JSON.parse(JSON.stringify(trace.steps[0])) as Record<string, unknown>;
    // Through JSON, as a file's are: a key `__proto__` is then the object's own.
    const withWrites = (writes: unknown) => JSON.parse(JSON.stringify({ ...step, writes })) as unknown;
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'));
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 6 })), (writes) => {
        const copy = withWrites(writes);
        expect(check(copy, 3)).toBe(fullParse(copy));
      }),
      { numRuns: 300 },
    );
    for (let depth = TRACE_LIMITS.depth - 8; depth <= TRACE_LIMITS.depth; depth += 1) {
      let deep: unknown = [1];
      for (let level = 0; level < depth; level += 1) deep = level % 2 ? [deep] : { deep };
      const copy = withWrites({ deep });
      expect({ depth, quick: check(copy, 3) }).toEqual({ depth, quick: fullParse(copy) });
    }
  });

  it('reads no schema it cannot read in full: defaults, transforms, refinements', () => {
    expect(quickCheck(z.strictObject({ n: z._default(z.int(), 3) }), TRACE_LIMITS)).toBeNull();
    expect(quickCheck(z.string().check(z.minLength(2)), TRACE_LIMITS)).toBeNull();
    expect(quickCheck(z.object({ n: z.int() }), TRACE_LIMITS)).toBeNull();
  });
});

/** A trace's text split into chunks of `size` steps: the chunks and the envelope, or null. */
const split = (text: string, size = 3) => {
  const chunks: StepText[] = [];
  const rest = splitSteps(text, size, (chunk) => chunks.push(chunk));
  return rest && { ...rest, parts: chunks };
};

describe('a trace read by parts', () => {
  const run = () => runGraph(findTemplate('securityclaw')!.graph(), { seed: 1, compact: true });

  it('is the trace parsed whole, written either way, with its index and timeline laid out', async () => {
    const trace = await run();
    for (const text of [serializeTrace(trace), JSON.stringify(trace), JSON.stringify(trace, null, 2)]) {
      const parts = split(text)!;
      expect(parts.chunks).toBe(Math.ceil(trace.steps.length / 3));
      const envelope = parseTrace(parts.envelope);
      expect(envelope.ok && envelope.value.steps).toEqual([]);
      const reader = stepReader();
      parts.parts.forEach(reader.add);
      const read = reader.finish((envelope as { value: Trace }).value, parts.chunks)!;
      const whole = parseTrace(text);
      expect(read).toEqual(whole.ok && whole.value);
      expect(traceIndex(read.steps).keyframes).toBeDefined();
      expect(traceIndex(read.steps).timeline?.stop).toBe(true);
    }
  });

  it('leaves the whole parse to explain any step that is not plainly valid', async () => {
    const trace = await run();
    const text = serializeTrace({ ...trace, steps: trace.steps.map((step, index) => (index === 4 ? { ...step, kind: 'teleport' as never } : step)) });
    const parts = split(text)!;
    const reader = stepReader();
    parts.parts.forEach(reader.add);
    expect(reader.finish((parseTrace(parts.envelope) as { value: Trace }).value, parts.chunks)).toBeNull();
    const whole = parseTrace(text);
    expect(!whole.ok && whole.problems[0].path).toBe('steps[4].kind');
    // Out of order, or missing a chunk: not read either.
    const again = split(serializeTrace(trace))!;
    const shuffled = stepReader();
    [...again.parts].reverse().forEach(shuffled.add);
    expect(shuffled.finish((parseTrace(again.envelope) as { value: Trace }).value, again.chunks)).toBeNull();
    const short = stepReader();
    again.parts.slice(1).forEach(short.add);
    expect(short.finish((parseTrace(again.envelope) as { value: Trace }).value, again.chunks)).toBeNull();
  });

  it('splits only a plainly written steps list, and the parts are JSON exactly when the text is', async () => {
    const trace = await run();
    const text = JSON.stringify({ ...trace, steps: trace.steps.slice(0, 2) });
    const steps = JSON.stringify(trace.steps.slice(0, 2));
    // Strings holding brackets, quotes and escaped quotes are not structure.
    expect(split(JSON.stringify({ ...trace, graph: 'a "]}{[" \\" ,', steps: trace.steps.slice(0, 2) }))?.chunks).toBe(1);
    expect(split(text.replace('"steps":[', '"st\\u0065ps":['))).toBeNull();
    expect(split(text.replace('{', '{"steps": [],'))).toBeNull();
    expect(split(`[${text}]`)).toBeNull();
    expect(split(text.replace(steps, '[1,,2]'))).toBeNull();
    expect(split(text.replace(steps, '[1,]'))).toBeNull();
    expect(split(text.replace(steps, '"no list"'))).toBeNull();
    expect(split(text.slice(0, -1))).toBeNull();
    expect(split(text.replace(steps, '[]'))).toEqual({ envelope: text.replace(steps, '[]'), chunks: 0, parts: [] });
    // Broken inside a step: split, but the part is not JSON, so the page does not read it.
    const broken = split(text.replace('"step":1,"round":', '"step":1,"round"::'))!;
    expect(() => JSON.parse(broken.parts[0].text)).toThrow();
    // Anything after the object is the envelope's, which is then not JSON.
    expect(() => JSON.parse(split(`${text} {}`)!.envelope)).toThrow();
  });

  it('splits the same given a piece at a time, wherever the pieces break, as a file is read', async () => {
    const trace = await run();
    const odd = { ...trace, graph: 'a "]}{[" \\" \\\\ ,', steps: trace.steps.slice(0, 5) };
    const texts = [serializeTrace(odd), JSON.stringify(odd), JSON.stringify(odd, null, 2), JSON.stringify({ ...odd, steps: [] })];
    // Cut also inside the list's key, between it and its colon and bracket, inside strings, and after a backslash:
    // one text cut everywhere, the others at some places (a cut a character reads slowly).
    for (const text of texts) {
      const whole = split(text);
      expect(whole).not.toBeNull();
      for (const width of text === texts[1] ? [1, 64] : [7, 1000]) {
        const parts: StepText[] = [];
        const splitter = stepSplitter(3, (part) => parts.push(part));
        for (let at = 0; at < text.length; at += width) expect(splitter.feed(text.slice(at, at + width))).toBe(true);
        expect({ width, ...splitter.end(), parts }).toEqual({ width, ...whole });
      }
    }
    // A text that ends inside a string, a key or the list is not split, however it came.
    for (const cut of [(text: string) => text.slice(0, text.indexOf('"steps"') + 4), (text: string) => text.slice(0, text.indexOf('"steps"') + 8), (text: string) => text.slice(0, -3)]) {
      const splitter = stepSplitter(3, () => undefined);
      const text = cut(JSON.stringify(odd));
      for (let at = 0; at < text.length; at += 5) splitter.feed(text.slice(at, at + 5));
      expect(splitter.end()).toBeNull();
    }
  });
});
