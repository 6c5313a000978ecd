import { describe, expect, it } from 'vitest';
import { type GraphFile, type When } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { reasonWords, storedWords } from '../graph/reasonWords.ts';
import { chooseEdge, evaluateWhen } from './conditions.ts';
import type { Fired } from './trace.ts';

const state = { evaluation: { plan_exhausted: true, reason: 'empty_result', records: 0 }, failures: [], round: 2, tags: ['a'], note: '', recovery: { tried: ['expand_search_scope'] } };
const input = { outcome: 'exhausted', state };
/** The evaluation as the person reads it: whether it matched, and its reason in words. */
const check = (when: When | undefined) => {
  const { matched, why } = evaluateWhen(when, input);
  return { matched, explain: reasonWords(why) };
};
/** A fired edge with its reason in words. */
const firedWords = (fired: Fired | null) => fired && { id: fired.id, target: fired.target, reason: storedWords(fired) };

describe('the when interpreter', () => {
  it('always, absent and otherwise', () => {
    expect(check(undefined)).toEqual({ matched: true, explain: 'always' });
    expect(check('always')).toEqual({ matched: true, explain: 'always' });
    expect(check('otherwise').matched).toBe(false);
  });

  it('outcome, naming the outcome it saw', () => {
    expect(check({ outcome: 'exhausted' })).toEqual({ matched: true, explain: 'outcome is "exhausted"' });
    expect(check({ outcome: 'sufficient' })).toEqual({ matched: false, explain: 'outcome is "exhausted", not "sufficient"' });
  });

  it.each([
    [{ path: 'evaluation.plan_exhausted', op: 'eq', value: true }, true, 'evaluation.plan_exhausted eq true (was true)'],
    [{ path: 'evaluation.reason', op: 'ne', value: 'timeout' }, true, 'evaluation.reason ne "timeout" (was "empty_result")'],
    [{ path: 'round', op: 'gt', value: 2 }, false, 'round gt 2 (was 2)'],
    [{ path: 'round', op: 'gte', value: 2 }, true, 'round gte 2 (was 2)'],
    [{ path: 'round', op: 'lt', value: 3 }, true, 'round lt 3 (was 2)'],
    [{ path: 'round', op: 'lte', value: 1 }, false, 'round lte 1 (was 2)'],
    [{ path: 'evaluation.reason', op: 'in', value: ['timeout', 'empty_result'] }, true, 'evaluation.reason in ["timeout","empty_result"] (was "empty_result")'],
    [{ path: 'recovery.skill', op: 'exists' }, false, 'recovery.skill exists (was missing)'],
    [{ path: 'failures', op: 'empty' }, true, 'failures is empty (was [])'],
    [{ path: 'note', op: 'empty' }, true, 'note is empty (was "")'],
    [{ path: 'tags', op: 'empty' }, false, 'tags is empty (was ["a"])'],
    [{ path: 'round', op: 'gt', value: '1' }, false, 'round gt "1" (was 2)'],
    // contains: the list at the path holds the value (issue 54, #11); anything but a list holds nothing.
    [{ path: 'recovery.tried', op: 'contains', value: 'expand_search_scope' }, true, 'recovery.tried contains "expand_search_scope" (was ["expand_search_scope"])'],
    [{ path: 'recovery.tried', op: 'contains', value: 'fallback_tool' }, false, 'recovery.tried contains "fallback_tool" (was ["expand_search_scope"])'],
    [{ path: 'failures', op: 'contains', value: 'x' }, false, 'failures contains "x" (was [])'],
    [{ path: 'evaluation.reason', op: 'contains', value: 'empty' }, false, 'evaluation.reason contains "empty" (was "empty_result")'],
    [{ path: 'recovery.missing', op: 'contains', value: 'x' }, false, 'recovery.missing contains "x" (was missing)'],
  ] as [When, boolean, string][])('%j', (when, matched, explain) => {
    expect(check(when)).toEqual({ matched, explain });
  });

  it('all, any and not, with the parts they read', () => {
    expect(check({ all: [{ outcome: 'exhausted' }, { path: 'round', op: 'eq', value: 2 }] })).toEqual({
      matched: true, explain: 'all of [outcome is "exhausted": yes; round eq 2 (was 2): yes]',
    });
    expect(check({ all: [{ outcome: 'ok' }, { path: 'round', op: 'eq', value: 2 }] })).toEqual({
      matched: false, explain: 'all of [outcome is "exhausted", not "ok": no]',
    });
    expect(check({ any: [{ outcome: 'ok' }, { path: 'evaluation.records', op: 'eq', value: 0 }] })).toEqual({
      matched: true, explain: 'any of [outcome is "exhausted", not "ok": no; evaluation.records eq 0 (was 0): yes]',
    });
    expect(check({ not: { outcome: 'exhausted' } })).toEqual({ matched: false, explain: 'not (outcome is "exhausted")' });
  });

  it('does not read through the prototype', () => {
    expect(check({ path: 'evaluation.constructor', op: 'exists' }).matched).toBe(false);
  });
});

describe('choosing the edge', () => {
  const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

  it('file order, first match fires, the rest are not tried', () => {
    const choice = chooseEdge(graph, 'evaluate', input);
    expect(firedWords(choice.fired)).toEqual({ id: 'e4', target: 'recover', reason: 'evaluation.plan_exhausted eq true (was true)' });
    expect(choice.edges.map((edge) => [edge.id, edge.matched, edge.skipped ?? false])).toEqual([['e3', false, false], ['e4', true, false], ['e11', false, true], ['e5', false, true]]);
  });

  it('otherwise is tried last, wherever it stands in the file', () => {
    const reordered = { ...graph, edges: [graph.edges[4], ...graph.edges.filter((edge) => edge.id !== 'e5')] };
    // Not continue: SecurityClaw sends that to recovery (e11).
    const choice = chooseEdge(reordered, 'evaluate', { outcome: 'exhausted', state: { evaluation: { plan_exhausted: false } } });
    expect(choice.edges.map((edge) => edge.id)).toEqual(['e3', 'e4', 'e11', 'e5']);
    expect(firedWords(choice.fired)).toEqual({ id: 'e5', target: 'decide', reason: 'otherwise: no other edge matched' });
  });

  it('no match gives no edge', () => {
    expect(chooseEdge(graph, 'answer', input)).toEqual({ edges: [], fired: null });
  });
});

describe('a condition nested deeper than parsing allows', () => {
  it('is not evaluated rather than overflowing the stack', () => {
    let when: When = 'always';
    for (let level = 0; level < 100_000; level += 1) when = { not: when };
    expect(evaluateWhen(when, { outcome: 'ok', state: {} })).toMatchObject({ matched: false });
    expect(reasonWords(evaluateWhen(when, { outcome: 'ok', state: {} }).why)).toContain('condition nested deeper than 16 levels: not evaluated');
  });
});
