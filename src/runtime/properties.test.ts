/** Every generated graph's run ends, within its limits, with a stop reason (fast-check, through the public runGraph). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphFileArbitrary } from '../graph/arbitrary.ts';
import { describeProblems } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { nodeRan, runGraph } from './index.ts';

describe('runs of generated graphs', () => {
  it('end within maxSteps and maxRounds with a stop reason, whatever the graph and seed', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(graphFileArbitrary, fc.integer({ min: 0, max: 1000 }), async (file, seed) => {
        const parsed = parseGraph(file);
        if (!parsed.ok) throw new Error(describeProblems(parsed.problems));
        const graph = parsed.value;
        const trace = await runGraph(graph, { seed, compact: true });
        expect(trace.stopReason).toEqual(expect.any(String));
        // At most one node more than maxSteps: the finally node, which runs with no guards after the stop.
        const closing = trace.steps.filter((step) => step.finally);
        expect(closing.length).toBeLessThanOrEqual(1);
        expect(trace.steps.filter(nodeRan).length).toBeLessThanOrEqual(graph.limits.maxSteps + closing.length);
        // And one step more: the guard's, which stops the run before its node.
        expect(trace.steps.length).toBeLessThanOrEqual(graph.limits.maxSteps + 1 + closing.length);
        expect(trace.rounds).toBeLessThanOrEqual(graph.limits.maxRounds);
        expect(trace.steps.at(-1)?.stop?.reason ?? trace.stopReason).toBe(trace.stopReason);
        // No skill is called once the budget is spent (seed 001: consume() says no), whatever limits.onBudget says.
        const budget = graph.limits.tokenBudget ?? Infinity;
        let spent = 0;
        for (const attempt of trace.steps.flatMap((step) => step.attempts).filter((made) => made.returned !== undefined)) {
          expect(spent).toBeLessThan(budget);
          spent += attempt.tokens;
        }
        // A node a spent budget let run (onBudget "evaluate") is the last before the final response.
        const evaluated = trace.steps.findIndex((step) => step.budget?.at === 'evaluated');
        if (evaluated >= 0) expect(trace.steps.slice(evaluated + 1).every((step) => step.finally)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});
