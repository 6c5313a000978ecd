import { describe, expect, it } from 'vitest';
import { judge, type Row } from './report.ts';
import { runSection } from './sections.ts';

describe('runSection', () => {
  it('turns a section that throws into a failed row naming it, and lets the next section run', async () => {
    const rows: Row[] = [];
    const logged: string[] = [];
    const log = (line: string) => logged.push(line);
    await runSection('scenarios', rows, log, async () => {
      throw new Error('mouse.move: Target page, context or browser has been closed\n  meanwhile: the page\'s renderer crashed');
    });
    await runSection('initial', rows, log, async () => {
      rows.push({ id: 'initial.js', measure: 'initial JS', unit: 'KB', ours: 149, baseline: 124, baselineIs: 'bare', target: { atMost: 150 } });
    });
    expect(rows.map((row) => row.id)).toEqual(['scenarios.failed', 'initial.js']);
    const failed = judge(rows[0]);
    expect(failed.pass).toBe(false);
    expect(failed.measure).toBe('section scenarios: did not finish');
    expect(failed.note).toContain('renderer crashed');
    expect(logged.join('\n')).toMatch(/section scenarios FAILED/);
  });
});
