import { describe, expect, it } from 'vitest';
import { runApart } from './loopProcess.ts';
import { compareLoops, type LoopArm, type LoopRunner } from './loops.ts';

describe('compareLoops', () => {
  it('alternates which side goes first and reads the median of the pairs\' ratios', async () => {
    const order: LoopArm[] = [];
    // Whichever side goes second of a pair pays 50 % more: the ratio must not lean either way.
    let second = false;
    const runner: LoopRunner = {
      method: 'fake',
      warmUp: async () => undefined,
      run: async (arm) => {
        order.push(arm);
        const ms = (arm === 'ours' ? 110 : 100) * (second ? 1.5 : 1);
        second = !second;
        return { ms, steps: 3 };
      },
    };
    const loops = await compareLoops(1000, 4, 10, runner);
    expect(order).toEqual(['straight', 'ours', 'ours', 'straight', 'straight', 'ours', 'ours', 'straight']);
    expect(loops.length).toBe(100);
    expect(loops.ratios.map((ratio) => ratio.toFixed(3))).toEqual(['1.650', '0.733', '1.650', '0.733']);
    expect(loops.method).toBe('fake');
  });
});

describe('runApart', () => {
  it('runs a side in a Node process of its own, warmed up there, and times only its run', async () => {
    const run = await runApart('straight', 3, 1);
    expect(run.pid).not.toBe(process.pid);
    // Three rounds of plan, act, verify: the warm-up's round is not counted.
    expect(run.steps).toBe(9);
    expect(run.ms).toBeGreaterThan(0);
  }, 120_000);
});
