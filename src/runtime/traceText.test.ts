import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickCheck } from '../graph/fastCheck.ts';
import { TRACE_LIMITS } from '../graph/limits.ts';
import { parseUntrusted } from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { z } from '../graph/zod.ts';
import { runGraph } from './index.ts';
import { parseTrace, serializeTrace, TraceStep } from './trace.ts';
import { readTrace } from './traceText.ts';
import { decodeText } from '../graph/bytes.ts';
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

  it('says what the full parse says of objects met one after another with their keys in any order, some left out or added', async () => {
    // The check keeps the keys of the objects it met in their order (fastCheck.ts): objects written
    // otherwise, in turn, must each still be checked by name.
    const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1 });
    const steps = JSON.parse(JSON.stringify(trace.steps)) as Record<string, unknown>[];
    const reorder = (value: unknown, order: number[], drop: number, extra: string | null): unknown => {
      if (Array.isArray(value)) return value.map((item) => reorder(item, order, drop, extra));
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value as Record<string, unknown>);
      const shuffled = entries.map((_, at) => entries[(at + order[at % order.length]) % entries.length]).filter((entry, at, all) => all.indexOf(entry) === at && at !== drop);
      const rest = entries.filter((entry) => !shuffled.includes(entry) && entries.indexOf(entry) !== drop);
      const made: Record<string, unknown> = Object.create(null);
      for (const [key, item] of [...shuffled, ...rest]) made[key] = reorder(item, order, drop, null);
      if (extra !== null) made[extra] = 1;
      // Through JSON, as a file's objects are.
      return JSON.parse(JSON.stringify(made));
    };
    const stepOf = fc.record({
      at: fc.nat({ max: steps.length - 1 }),
      order: fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 6 }),
      drop: fc.integer({ min: -1, max: 12 }),
      extra: fc.option(fc.constantFrom('extra', 'note', 'guards', 'blindRetry', 'toString', 'n', 'why'), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(stepOf, { minLength: 1, maxLength: 8 }), (made) => {
        for (const { at, order, drop, extra } of made) {
          const step = reorder(steps[at], order, drop, extra);
          expect(check(step, 3)).toBe(fullParse(step));
        }
      }),
      { numRuns: 300 },
    );
    // An optional field given as undefined (not JSON's, but an object's) passes, a needed one does not.
    const step = { ...steps[0] };
    expect([check({ ...step, note: undefined }, 3), fullParse({ ...step, note: undefined })]).toEqual([true, true]);
    expect([check({ ...step, node: undefined }, 3), fullParse({ ...step, node: undefined })]).toEqual([false, false]);
  });

  it('reads no schema it cannot read in full: defaults, transforms, refinements', () => {
    expect(quickCheck(z.strictObject({ n: z._default(z.int(), 3) }), TRACE_LIMITS)).toBeNull();
    expect(quickCheck(z.string().check(z.minLength(2)), TRACE_LIMITS)).toBeNull();
    expect(quickCheck(z.object({ n: z.int() }), TRACE_LIMITS)).toBeNull();
  });
});

const fileOf = (...parts: BlobPart[]) => new Blob(parts);
/** A file read whole and parsed by the full schema, as the parsing worker reads it (persistence/parseRequest.ts). */
const readTraceFile = async (file: Blob) => {
  const text = decodeText(new Uint8Array(await file.arrayBuffer()));
  return text.ok ? parseTrace(text.value) : text;
};

describe('a long trace read on the page', () => {
  const run = () => runGraph(findTemplate('securityclaw')!.graph(), { seed: 1, compact: true });

  it('is the trace parsed whole, written either way, with its index and timeline laid out', async () => {
    const trace = await run();
    for (const text of [serializeTrace(trace), JSON.stringify(trace), JSON.stringify(trace, null, 2)]) {
      const read = (await readTrace(fileOf(text)))!;
      const whole = parseTrace(text);
      expect(read).toEqual(whole.ok && whole.value);
      expect(traceIndex(read.steps).keyframes).toBeDefined();
      expect(traceIndex(read.steps).timeline?.stop).toBe(true);
    }
    // A UTF-8 mark left by an editor is dropped, as the whole read drops it.
    expect(await readTrace(fileOf(new Uint8Array([0xef, 0xbb, 0xbf]), serializeTrace(trace)))).toEqual(JSON.parse(JSON.stringify(trace)));
  });

  /** Broken traces: readTrace leaves each to the whole parse, which names where it is wrong. */
  const refusedBoth = async (name: string, file: Blob, path: string) => {
    expect({ name, read: await readTrace(file) }).toEqual({ name, read: null });
    const whole = await readTraceFile(file);
    expect({ name, path: !whole.ok && whole.problems[0].path }).toEqual({ name, path });
  };

  it('leaves to the whole parse, which names the path, anything it does not plainly take', async () => {
    const trace = await run();
    const text = serializeTrace(trace);
    const withStep = (index: number, change: (step: Record<string, unknown>) => Record<string, unknown>) =>
      serializeTrace({ ...trace, steps: trace.steps.map((step, at) => (at === index ? (change({ ...step }) as never) : step)) });
    await refusedBoth('a kind no node has', fileOf(withStep(4, (step) => ({ ...step, kind: 'teleport' }))), 'steps[4].kind');
    await refusedBoth('an unknown key deep in a step', fileOf(withStep(2, (step) => ({ ...step, attempts: [{ n: 1, skill: 'x', outcome: 'ok', tokens: 0, unknown: 1 }] }))), 'steps[2].attempts[0].unknown');
    await refusedBoth('steps out of order', fileOf(withStep(3, (step) => ({ ...step, step: 9 }))), 'steps[3].step');
    await refusedBoth('a forbidden key in what a step wrote', fileOf(text.replace('"writes":{', '"writes":{"__proto__":{"x":1},')), 'steps[0].writes.__proto__');
    await refusedBoth('a forbidden key in the trace itself', fileOf(text.replace('{', '{"__proto__":{},')), '__proto__');
    await refusedBoth('a trace field of the wrong type', fileOf(JSON.stringify({ ...trace, rounds: 'many' })), 'rounds');
    await refusedBoth('no steps', fileOf(JSON.stringify({ ...trace, steps: undefined })), 'steps');
    await refusedBoth('steps that are no list', fileOf(JSON.stringify({ ...trace, steps: {} })), 'steps');
    await refusedBoth('not JSON', fileOf(text.slice(0, -3)), '');
    await refusedBoth('a list, not an object', fileOf(`[${text}]`), '');
    await refusedBoth('bytes that are not UTF-8', fileOf(text.slice(0, 40), new Uint8Array([0xc3, 0x28]), text.slice(40)), '');
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(text, (char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]).flat()]);
    expect(await readTrace(fileOf(utf16))).toBeNull();
    expect((await readTraceFile(fileOf(utf16))).ok).toBe(true);
    // A replacement character written in the file is text like any other: the whole parse takes it.
    const replaced = serializeTrace({ ...trace, graph: 'odd \uFFFD name' });
    expect(await readTrace(fileOf(replaced))).toBeNull();
    expect((await readTraceFile(fileOf(replaced))).ok).toBe(true);
  });

  it('accepts exactly what the whole parse accepts, whatever a step holds', async () => {
    const trace = await run();
    const step = JSON.parse(JSON.stringify(trace.steps[0])) as Record<string, unknown>;
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'step', 'kind', 'writes', 'why', 'is'));
    fc.assert(
      fc.asyncProperty(fc.dictionary(key, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 4 }), fc.boolean(), async (extra, intoWrites) => {
        // Through JSON text, as a file's steps are: a key `__proto__` is then the step's own.
        const text = `{${serializeTrace({ ...trace, steps: [] }).trim().slice(1, -1).replace('"steps": []', `"steps": [${JSON.stringify(intoWrites ? { ...step, writes: extra } : { ...step, ...extra })}]`)}}`;
        const read = await readTrace(fileOf(text));
        const whole = parseTrace(text);
        expect(read !== null).toBe(whole.ok);
        if (read) expect(read).toEqual(whole.ok && whole.value);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a file too big to be within the trace limits without reading it', async () => {
    const huge = { size: TRACE_LIMITS.textChars * 3 + 1, text: () => Promise.reject(new Error('read')) } as unknown as Blob;
    expect(await readTrace(huge)).toBeNull();
  });
});
