/** Properties of the format over generated input (fast-check): parsing never throws, export and import agree. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphFileArbitrary } from './arbitrary.ts';
import { describeProblems } from './problems.ts';
import { parseGraph } from './parse.ts';
import { serializeGraph } from './serialize.ts';
import { validateGraph } from './validate.ts';

const RUNS = { numRuns: 100 };

/** Replaces the value at one place of a document (chosen by `pick`) with another value. */
const replaceSomewhere = (document: unknown, pick: number, value: unknown): unknown => {
  const places: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((item, index) => [index, item]) : Object.entries(node);
    for (const [key, item] of entries) {
      places.push({ parent: node as Record<string, unknown>, key });
      walk(item);
    }
  };
  const copy = structuredClone(document);
  walk(copy);
  if (places.length === 0) return value;
  const { parent, key } = places[pick % places.length];
  (parent as Record<string | number, unknown>)[key] = value;
  return copy;
};

describe('import never throws', () => {
  it('on any JSON value, given as a value or as text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const input of [value, JSON.stringify(value)]) {
          const result = parseGraph(input);
          if (!result.ok) expect(result.problems.length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  it('on any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => void parseGraph(text)), RUNS);
  });

  it('on a graph file with any one value replaced by any JSON, and each refusal names what is wrong', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(graphFileArbitrary, fc.nat(), fc.jsonValue(), (file, pick, value) => {
        const result = parseGraph(replaceSomewhere(file, pick, value));
        if (result.ok) validateGraph(result.value);
        else for (const problem of result.problems) expect(problem.message).not.toBe('');
      }),
      RUNS,
    );
  });
});

describe('generated graph files', () => {
  it('parse, validate, and come back the same from their export (export ∘ import is the identity)', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(graphFileArbitrary, (file) => {
        const first = parseGraph(file);
        if (!first.ok) throw new Error(describeProblems(first.problems));
        validateGraph(first.value);
        const again = parseGraph(serializeGraph(first.value));
        expect(again).toEqual({ ok: true, value: first.value });
        expect(serializeGraph(again.ok ? again.value : first.value)).toBe(serializeGraph(first.value));
      }),
      RUNS,
    );
  });
});
