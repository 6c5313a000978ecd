// @vitest-environment happy-dom
import { ReactFlowProvider } from '@xyflow/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { PROBLEMS_PAGE, ProblemsPanel } from './ProblemsPanel.tsx';

unmountAfterEach();

const problems = (count: number): Problem[] =>
  Array.from({ length: count }, (_, index) => ({ code: 'unreachable', severity: 'warning', message: `Node n${index} is never reached`, nodeId: `n${index}` }));

describe('ProblemsPanel', () => {
  it('lists a page of problems at a time, however many the graph has', () => {
    // Less than a page left after two.
    const rest = Math.ceil(PROBLEMS_PAGE / 2);
    useApp.setState({ problems: problems(PROBLEMS_PAGE * 2 + rest) });
    const panel = mountForTest(
      <ReactFlowProvider>
        <ProblemsPanel />
      </ReactFlowProvider>,
    );
    const listed = () => panel.querySelectorAll('.problem-list li').length;
    const more = () => panel.querySelector<HTMLButtonElement>('.problems-more');
    expect(panel.querySelector('h2')!.textContent).toContain(`(${PROBLEMS_PAGE * 2 + rest})`);
    expect(listed()).toBe(PROBLEMS_PAGE);
    expect(more()!.textContent).toBe(`Show ${PROBLEMS_PAGE} more of ${PROBLEMS_PAGE + rest}`);
    act(() => more()!.click());
    expect(listed()).toBe(PROBLEMS_PAGE * 2);
    expect(more()!.textContent).toBe(`Show ${rest} more of ${rest}`);
    act(() => more()!.click());
    expect(listed()).toBe(PROBLEMS_PAGE * 2 + rest);
    expect(more()).toBeNull();
  });

  it('says the graph is being checked while a graph just opened waits for its check', () => {
    useApp.setState({ problems: null });
    const panel = mountForTest(
      <ReactFlowProvider>
        <ProblemsPanel />
      </ReactFlowProvider>,
    );
    expect(panel.querySelector('h2')!.textContent).toBe('Problems ');
    expect(panel.textContent).toContain('Checking the graph…');
    act(() => useApp.setState({ problems: problems(2) }));
    expect(panel.querySelector('h2')!.textContent).toContain('(2)');
    expect(panel.querySelectorAll('.problem-list li')).toHaveLength(2);
  });
});
