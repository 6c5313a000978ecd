import { describe, expect, it } from 'vitest';
import securityclawV0 from './fixtures/securityclaw-v0.json';
import { MIGRATIONS, migrate, type Migration } from './migrations.ts';
import { parseGraph } from './parse.ts';
import { serializeGraph } from './serialize.ts';
import { CURRENT_VERSION } from './schema.ts';
import { validateGraph } from './validate.ts';

describe('migrations', () => {
  it('are ordered one step per version, from 0 up to the current version', () => {
    expect(MIGRATIONS.map((migration) => migration.from)).toEqual(Array.from({ length: CURRENT_VERSION }, (_, index) => index));
    for (const migration of MIGRATIONS) expect(migration.describe.length).toBeGreaterThan(0);
  });

  it('open a version 0 file: snake_case limits and edge `condition` become the v1 names', () => {
    const result = parseGraph(securityclawV0);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.migratedFrom).toBe(0);
    const graph = result.value;
    expect(graph.version).toBe(1);
    expect(graph.limits).toEqual({ maxRounds: 3, maxSteps: 30, tokenBudget: 800 });
    expect(graph.edges.map((edge) => edge.when)).toEqual([
      undefined, undefined, { outcome: 'sufficient' }, { path: 'evaluation.plan_exhausted', op: 'eq', value: true },
      'otherwise', { outcome: 'recovered' }, undefined,
    ]);
    expect(graph.edges.some((edge) => 'condition' in edge)).toBe(false);
    expect(validateGraph(graph)).toEqual([]);
  });

  it('save a migrated file as version 1, which then opens without migrating', () => {
    const first = parseGraph(securityclawV0);
    if (!first.ok) throw new Error('v0 fixture did not open');
    const again = parseGraph(serializeGraph(first.value));
    expect(again.ok && again.migratedFrom).toBeUndefined();
    expect(again.ok && again.value).toEqual(first.value);
  });

  it('leave a v0 file without limits or edges without them', () => {
    const { limits: _limits, edges: _edges, ...bare } = securityclawV0;
    const migrated = migrate(bare);
    expect(migrated).toEqual({ ok: true, value: { ...bare, version: 1 } });
  });

  it('do not touch the input document', () => {
    const copy = structuredClone(securityclawV0);
    migrate(copy);
    expect(copy).toEqual(securityclawV0);
  });

  it('still reject what v1 rejects after migrating', () => {
    const result = parseGraph({ ...securityclawV0, limits: { max_rounds: 'three' } });
    expect(result.ok ? [] : result.problems).toEqual([{ path: 'limits.maxRounds', message: 'expected a number, got a string' }]);
  });

  it('run in order through several versions and report a missing step', () => {
    const chain: Migration[] = [
      { from: 0, describe: 'add a', up: (document) => ({ ...document, trail: 'a' }) },
      { from: 1, describe: 'add b', up: (document) => ({ ...document, trail: `${document.trail}b` }) },
    ];
    expect(migrate({ version: 0 }, chain, 2)).toEqual({ ok: true, value: { version: 2, trail: 'ab' } });
    expect(migrate({ version: 1, trail: 'x' }, chain, 2)).toEqual({ ok: true, value: { version: 2, trail: 'xb' } });
    expect(migrate({ version: 0 }, chain.slice(1), 2)).toEqual({ ok: false, problems: [{ path: 'version', message: 'no migration from version 0 to 1' }] });
  });
});
