// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { StepView } from './StepView.tsx';

unmountAfterEach();

describe('StepView', () => {
  it('says on the step what a spent budget leaves under onBudget "evaluate": the next Verify still judges, then the run stops', async () => {
    const graph = (findTemplate('budget-evaluate') as { graph: () => GraphFile }).graph();
    const trace = await runGraph(graph, { scenario: graph.scenarios[1].name });
    const [, execute, evaluate] = trace.steps;
    expect(mountForTest(<StepView step={execute} label="Execute skills" forkable={false} />).textContent)
      .toContain('the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node evaluate still judges what was gathered, then the run stops');
    expect(mountForTest(<StepView step={evaluate} label="Evaluate" forkable={false} />).textContent)
      .toContain('the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node evaluate judged what was gathered, then the run stops');
  });
});
