import { describe, expect, it } from 'vitest';
import { compareOp } from './compare.ts';
import { reasonOf, type Reason, type WhenInput } from './reason.ts';
import { reasonLabel } from './reasonLabel.ts';
import { reasonWords, storedReason, storedWords } from './reasonWords.ts';
import type { When } from './when.ts';

const state: Record<string, unknown> = { evaluation: { plan_exhausted: true, reason: 'empty_result' }, round: 2 };
const input: WhenInput = { outcome: 'exhausted', compare: compareOp, read: (path) => path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], state) };

describe('a condition as a reason: one walk, with or without the run', () => {
  it('tells what a field condition compared: path, operator, expected and actual', () => {
    expect(reasonOf({ path: 'evaluation.plan_exhausted', op: 'eq', value: true }, input)).toEqual({
      is: 'field', path: 'evaluation.plan_exhausted', operator: 'eq', expected: true, actual: true, matched: true,
    });
    // Nothing at the path: no actual at all, so that the reason reads the same after a trip through JSON.
    expect(reasonOf({ path: 'recovery.tried', op: 'contains', value: 'x' }, input)).toEqual({ is: 'field', path: 'recovery.tried', operator: 'contains', expected: 'x', matched: false });
    expect(reasonOf({ outcome: 'sufficient' }, input)).toEqual({ is: 'outcome', expected: 'sufficient', actual: 'exhausted', matched: false });
  });

  it('without the run, tells the condition only (for its label): no matched, every part of a group', () => {
    const when: When = { all: [{ outcome: 'ok' }, { path: 'round', op: 'gt', value: 1 }] };
    expect(reasonOf(when)).toEqual({ is: 'all', parts: [{ is: 'outcome', expected: 'ok' }, { is: 'field', path: 'round', operator: 'gt', expected: 1 }] });
    // With the run, `all` stops at its first no and `any` at its first yes.
    expect(reasonOf(when, input)).toMatchObject({ is: 'all', matched: false, parts: [{ is: 'outcome', matched: false }] });
    expect(reasonOf({ any: [{ outcome: 'exhausted' }, { outcome: 'ok' }] }, input)).toMatchObject({ is: 'any', matched: true, parts: [{ matched: true }] });
    expect(reasonOf({ not: { outcome: 'exhausted' } }, input)).toMatchObject({ is: 'not', matched: false, part: { matched: true } });
  });

  it('is plain data: JSON gives back the same reason and the same words', () => {
    const reason = reasonOf({ any: [{ path: 'evaluation.records', op: 'exists' }, { not: { path: 'round', op: 'lt', value: 3 } }] }, input);
    const back = JSON.parse(JSON.stringify(reason)) as Reason;
    expect(back).toEqual(reason);
    expect(reasonWords(back)).toBe(reasonWords(reason));
    expect(reasonWords(back)).toBe('any of [evaluation.records exists (was missing): no; not (round lt 3 (was 2)): no]');
  });
});

describe('the one wording of a reason', () => {
  it('in full, with the values read; short for a label, the condition only', () => {
    const when: When = { path: 'evaluation.plan_exhausted', op: 'eq', value: true };
    expect(reasonWords(reasonOf(when, input))).toBe('evaluation.plan_exhausted eq true (was true)');
    expect(reasonLabel(reasonOf(when))).toBe('plan_exhausted = true');
    expect(reasonWords({ is: 'otherwise', matched: true })).toBe('otherwise: no other edge matched');
    expect(reasonLabel(reasonOf('otherwise'))).toBe('otherwise');
    expect(reasonWords({ is: 'not_tried', fired: 'e4' })).toBe('not tried: e4 fired first');
  });

  it('says "is empty" and "missing" in both forms (they said `failures empty` and `= undefined` before)', () => {
    expect(reasonWords(reasonOf({ path: 'failures', op: 'empty' }, { ...input, read: () => [] }))).toBe('failures is empty (was [])');
    expect(reasonLabel(reasonOf({ path: 'failures', op: 'empty' }))).toBe('failures is empty');
    expect(reasonWords(reasonOf({ path: 'plan.signature', op: 'eq' }, input))).toBe('plan.signature eq missing (was missing)');
    expect(reasonLabel(reasonOf({ path: 'plan.signature', op: 'eq' }))).toBe('signature = missing');
  });

  it('words a LangGraph server\'s route: the edge chosen, and the targets counted', () => {
    expect(reasonWords({ is: 'route', conditional: true, label: 'tools?', chose: ['generate', 'generate', 'review'], of: ['generate', 'review'], matched: true }))
      .toBe('conditional (tools?), chose generate ×2, review of {generate, review}');
    expect(reasonWords({ is: 'route', conditional: false, chose: ['b'], of: ['b'], matched: true })).toBe('plain edge');
    expect(reasonWords({ is: 'route', conditional: false, drawn: false, chose: ['b'], of: [], matched: true })).toBe('next');
    expect(reasonWords({ is: 'route', conditional: true, matched: false })).toBe('not chosen');
    expect(reasonWords({ is: 'route', conditional: false, matched: false })).toBe('plain edge, not taken');
  });

  it('reads a trace made before reasons were data as it was said', () => {
    expect(storedReason({ explain: 'round gt 2 (was 2)' })).toEqual({ is: 'said', words: 'round gt 2 (was 2)' });
    expect(storedWords({ reason: 'always' })).toBe('always');
    expect(storedWords({ why: { is: 'always', matched: true } })).toBe('always');
  });
});
