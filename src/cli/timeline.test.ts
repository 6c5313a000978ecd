import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import { formatTimeline } from './timeline.ts';

describe('formatTimeline', () => {
  it('says where a spent budget leaves the run under onBudget "evaluate", once a step (a guard\'s stop says it itself)', async () => {
    const graph = (findTemplate('budget-evaluate') as { graph: () => GraphFile }).graph();
    const lines = formatTimeline(await runGraph(graph, { scenario: graph.scenarios[1].name }));
    expect(lines.filter((line) => line.includes('(2,010 of 2,000 tokens)'))).toEqual([
      '      ■ the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node evaluate still judges what was gathered, then the run stops',
      '      ■ the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node evaluate judged what was gathered, then the run stops',
      'Stopped: budget_exhausted — the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node evaluate judged what was gathered, then the run stops; final wrote the final response',
    ]);
    // Before a node the spent budget does not let run, the guard says it.
    graph.edges = graph.edges.map((edge) => (edge.id === 'b2' ? { ...edge, target: 'recover' } : edge));
    const stopped = formatTimeline(await runGraph(graph, { scenario: graph.scenarios[1].name }));
    expect(stopped.filter((line) => line.includes('■'))).toEqual([
      '      ■ the budget is spent (2,010 of 2,000 tokens): no further call; the next node, recover, is not a Verify that judges without a call, so the run stops before it',
      '      ■ guard budget_exhausted: the budget is spent (2,010 of 2,000 tokens): no further call; recover is not a Verify that judges without a call, so the run stops before it',
    ]);
  });
});
