import { describe, expect, it } from 'vitest';
import { budgetLeaves } from './budget.ts';
import { parseGraph } from './parse.ts';
import type { GraphFile, GraphNode } from './schema.ts';
import { findTemplate } from './templates/index.ts';
import { validateGraph } from './validate.ts';

const securityclaw = (): GraphFile => findTemplate('securityclaw')!.graph();
const onBudget = (graph: GraphFile) => validateGraph(graph).filter((problem) => problem.code === 'on_budget');
const verify = (graph: GraphFile) => graph.nodes.find((node) => node.id === 'evaluate') as Extract<GraphNode, { kind: 'verify' }>;

describe('limits.onBudget', () => {
  it('is "stop" or "evaluate"; anything else is refused with its path', () => {
    const file = { ...securityclaw(), limits: { ...securityclaw().limits, onBudget: 'evaluate' } };
    expect(parseGraph(file).ok).toBe(true);
    const wrong = parseGraph({ ...file, limits: { ...file.limits, onBudget: 'judge' } });
    expect(wrong.ok ? [] : wrong.problems.map((problem) => problem.path)).toEqual(['limits.onBudget']);
    // Absent stays absent: files written before it are written back as they were.
    expect(securityclaw().limits.onBudget).toBeUndefined();
  });

  it('a Verify judges without a call when it counts records; a judge or a loop\'s decider is a call', () => {
    const graph = securityclaw();
    expect(budgetLeaves(verify(graph))).toEqual({ evaluates: true });
    verify(graph).config.judge = 'fallback_lookup';
    expect(budgetLeaves(verify(graph))).toEqual({ evaluates: false, calls: 'fallback_lookup' });
    expect(budgetLeaves(graph.nodes[0])).toEqual({ evaluates: false });
  });

  it('on_budget: "evaluate" with no budget, or with no Verify the run reaches that judges without a call, is a warning', () => {
    const graph = securityclaw();
    graph.limits.onBudget = 'evaluate';
    expect(onBudget(graph)).toEqual([]);
    graph.limits.onBudget = 'stop';
    delete graph.limits.tokenBudget;
    expect(onBudget(graph)).toEqual([]);
    graph.limits.onBudget = 'evaluate';
    expect(onBudget(graph)).toEqual([{ code: 'on_budget', severity: 'warning', path: 'limits.onBudget', message: 'limits.onBudget is "evaluate" but the graph has no tokenBudget: no budget is ever spent, so it never applies.' }]);
    graph.limits.tokenBudget = 2000;
    verify(graph).config.judge = 'fallback_lookup';
    expect(onBudget(graph).map((problem) => problem.message)).toEqual([
      'limits.onBudget is "evaluate", but no Verify node the run can reach judges without a call (evaluate calls fallback_lookup: a call a spent budget does not make): a spent budget stops the run at once, as "stop" does.',
    ]);
    graph.edges = graph.edges.filter((edge) => edge.target !== 'evaluate');
    expect(onBudget(graph).map((problem) => problem.message)).toEqual([
      'limits.onBudget is "evaluate", but no Verify node the run can reach judges without a call: a spent budget stops the run at once, as "stop" does.',
    ]);
  });
});
