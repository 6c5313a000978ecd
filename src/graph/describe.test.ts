import { describe, expect, it } from 'vitest';
import { describeWhen, pathsOf } from './describe.ts';
import { findTemplate } from './templates/index.ts';

describe('describeWhen', () => {
  it('words the simple forms', () => {
    expect(describeWhen(undefined)).toBe('always');
    expect(describeWhen('always')).toBe('always');
    expect(describeWhen('otherwise')).toBe('otherwise');
    expect(describeWhen({ outcome: 'sufficient' })).toBe('outcome: sufficient');
  });

  it('names a field by its last segment, with the operator as a sign', () => {
    expect(describeWhen({ path: 'evaluation.plan_exhausted', op: 'eq', value: true })).toBe('plan_exhausted = true');
    expect(describeWhen({ path: 'recovery.tried', op: 'contains', value: 'expand_search_scope' })).toBe('tried contains "expand_search_scope"');
    expect(describeWhen({ path: 'round', op: 'ne', value: 1 })).toBe('round ≠ 1');
    expect(describeWhen({ path: 'tokensUsed', op: 'gt', value: 100 })).toBe('tokensUsed > 100');
    expect(describeWhen({ path: 'steps', op: 'gte', value: 3 })).toBe('steps ≥ 3');
    expect(describeWhen({ path: 'steps', op: 'lt', value: 3 })).toBe('steps < 3');
    expect(describeWhen({ path: 'steps', op: 'lte', value: 3 })).toBe('steps ≤ 3');
    expect(describeWhen({ path: 'evaluation.reason', op: 'in', value: ['timeout', 'empty'] })).toBe('reason in ["timeout","empty"]');
    expect(describeWhen({ path: 'recovery.skill', op: 'exists' })).toBe('skill exists');
    expect(describeWhen({ path: 'results', op: 'empty' })).toBe('results is empty');
  });

  it('shortens long values so a label stays short', () => {
    const label = describeWhen({ path: 'evaluation.reason', op: 'eq', value: 'a very long reason that goes on' });
    expect(label).toBe('reason = "a very long reason tha…');
    expect(describeWhen({ path: 'plan.signature', op: 'eq' })).toBe('signature = missing');
  });

  it('joins compound conditions, keeping nested groups apart', () => {
    const exhausted = { path: 'evaluation.plan_exhausted', op: 'eq', value: true } as const;
    expect(describeWhen({ all: [{ outcome: 'exhausted' }, exhausted] })).toBe('outcome: exhausted and plan_exhausted = true');
    expect(describeWhen({ any: [{ outcome: 'ok' }, { outcome: 'empty' }] })).toBe('outcome: ok or empty');
    expect(describeWhen({ any: [{ outcome: 'ok' }, exhausted] })).toBe('outcome: ok or plan_exhausted = true');
    expect(describeWhen({ not: { outcome: 'ok' } })).toBe('not (outcome: ok)');
    expect(describeWhen({ all: [{ any: [{ outcome: 'ok' }, { outcome: 'empty' }] }, exhausted] })).toBe(
      '(outcome: ok or empty) and plan_exhausted = true',
    );
    expect(describeWhen({ any: [{ all: [{ outcome: 'ok' }, exhausted] }, { outcome: 'empty' }] })).toBe(
      '(outcome: ok and plan_exhausted = true) or outcome: empty',
    );
  });

  it('labels every SecurityClaw edge', () => {
    const graph = findTemplate('securityclaw')!.graph();
    expect(graph.edges.map((edge) => describeWhen(edge.when))).toEqual([
      'always', 'always', 'outcome: sufficient', 'plan_exhausted = true', 'otherwise', 'outcome: recovered', 'otherwise',
      'outcome: needs_human', 'outcome: approved', 'outcome: denied', 'outcome: continue',
    ]);
  });
});

describe('pathsOf', () => {
  it('lists the fields a condition reads, through all/any/not', () => {
    expect(pathsOf(undefined)).toEqual([]);
    expect(pathsOf('otherwise')).toEqual([]);
    expect(pathsOf({ outcome: 'ok' })).toEqual([]);
    expect(pathsOf({
      all: [
        { path: 'evaluation.plan_exhausted', op: 'eq', value: true },
        { any: [{ path: 'round', op: 'lt', value: 3 }, { not: { path: 'recovery.skill', op: 'exists' } }] },
      ],
    })).toEqual(['evaluation.plan_exhausted', 'round', 'recovery.skill']);
  });
});
