import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import { main } from './main.ts';

const cli = async (...argv: string[]) => {
  const out: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: () => {} });
  return { code, out };
};

describe('one step count everywhere', () => {
  it('a run stopped by max_steps: `test`, `run` and `expect.steps` count the nodes that ran, not the guard\'s stop', async () => {
    const graph = findTemplate('securityclaw')!.graph();
    graph.limits.maxSteps = 6;
    // Six nodes run, the guard stops the seventh, and the final response runs after the stop: 7 steps.
    graph.scenarios = [{ name: 'bounded', expect: { stopReason: 'max_steps', steps: 7 } }];
    const dir = await mkdtemp(join(tmpdir(), 'loopscope-steps-'));
    try {
      const file = join(dir, 'graph.json');
      await writeFile(file, JSON.stringify(graph));
      const tested = await cli('test', file);
      expect(tested.code).toBe(0);
      expect(tested.out).toContain('  ✓ bounded (max_steps, 7 steps)');
      const ran = await cli('run', file);
      expect(ran.out.at(-1)).toMatch(/^7 step\(s\), /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
