import { describe, expect, it } from 'vitest';
import { edgesInTryOrder, isTerminal, nodeById, outcomesOf, reachableFrom } from './model.ts';
import { knownPaths } from './state.ts';
import type { GraphFile } from './schema.ts';
import { findTemplate } from './templates/index.ts';

const securityclaw = (): GraphFile => findTemplate('securityclaw')!.graph();

describe('graph model', () => {
  it('tries a source’s edges in file order with otherwise last', () => {
    const graph = securityclaw();
    const otherwiseFirst = { ...graph, edges: [graph.edges[4], ...graph.edges.filter((edge) => edge.id !== 'e5')] };
    expect(edgesInTryOrder(otherwiseFirst, 'evaluate').map((edge) => edge.id)).toEqual(['e3', 'e4', 'e11', 'e5']);
    expect(edgesInTryOrder(graph, 'answer')).toEqual([]);
  });

  it('gives the outcomes and terminality of each kind', () => {
    const graph = securityclaw();
    expect(outcomesOf(nodeById(graph, 'evaluate')!)).toEqual(['sufficient', 'exhausted', 'continue']);
    expect(outcomesOf(nodeById(graph, 'execute')!)).toEqual(['ok', 'empty', 'error', 'denied']);
    expect(graph.nodes.filter(isTerminal).map((node) => node.id)).toEqual(['answer', 'halt', 'final']);
    expect(nodeById(graph, 'nobody')).toBeUndefined();
  });

  it('knows the runtime fields, the initial state and what the graph’s kinds write', () => {
    const paths = knownPaths(securityclaw());
    for (const path of ['round', 'steps', 'tokensUsed', 'question', 'plan.actions', 'results', 'execution_error.outcome',
      'evaluation.plan_exhausted', 'evaluation.reason', 'recovery.skill', 'failures', 'response.text'])
      expect(paths).toContain(path);
    // An approve node (the human confirmation) but no collect node in SecurityClaw: nothing writes `collected`.
    expect(paths).toContain('approval.decision');
    expect(paths).not.toContain('collected');
  });

  it('follows edges from the entry, through loops, ignoring edges to nowhere', () => {
    const graph = securityclaw();
    // The final response runs after a stop: no edge leads there.
    expect([...reachableFrom(graph, 'decide')].sort()).toEqual(['answer', 'confirm', 'decide', 'evaluate', 'execute', 'halt', 'recover']);
    expect([...reachableFrom(graph, 'recover')].sort()).toEqual(['answer', 'confirm', 'decide', 'evaluate', 'execute', 'halt', 'recover']);
    expect([...reachableFrom(graph, 'answer')]).toEqual(['answer']);
    const dangling = { ...graph, edges: [{ id: 'x', source: 'answer', target: 'ghost' }] };
    expect([...reachableFrom(dangling, 'answer')]).toEqual(['answer']);
    expect(reachableFrom(graph, 'ghost').size).toBe(0);
  });
});
