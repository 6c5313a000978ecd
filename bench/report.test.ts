import { describe, expect, it } from 'vitest';
import { judge, pairedRatio } from './report.ts';

describe('pairedRatio', () => {
  it('is the median of the pairs\' ratios, so one pair slowed on one side does not move it', () => {
    // The third pair's baseline ran in a busy moment: the ratio of the sums would read 1.5×.
    expect(pairedRatio([10, 11, 12, 10, 10], [10, 10, 2, 10, 10])).toBe(1);
    expect(pairedRatio([], [])).toBeNull();
  });

  it('is the ratio a row is judged by when the row gives one', () => {
    const row = { id: 'runtime.node', measure: 'runtime', unit: 'ms' as const, ours: 120, baseline: 100, baselineIs: 'straight', target: { ratio: 1.1 } };
    expect(judge(row).pass).toBe(false);
    expect(judge({ ...row, ownRatio: 1.05 })).toMatchObject({ ratio: 1.05, pass: true });
  });
});
