// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { graph as planExecute } from '../../runtime/fixtures/langgraph/planExecuteGraph.ts';
import { drawingOf, type ServerDrawing } from '../../runtime/serverGraph.ts';
import { collapseDrawing, collapsedHolding } from './collapse.ts';

const drawn = async (graph: unknown): Promise<ServerDrawing> =>
  (drawingOf(JSON.parse(JSON.stringify((await (graph as { getGraphAsync: (config: object) => Promise<{ toJSON: () => unknown }> }).getGraphAsync({ xray: true })).toJSON()))) as { drawing: ServerDrawing }).drawing;

describe('a subgraph collapsed to one node', () => {
  it("draws plan-execute's executor as the node agent: its nodes left out, edges in and out from and to it, ids kept", async () => {
    const drawing = await drawn(planExecute);
    const { drawing: shown, inside } = collapseDrawing(drawing, new Set(['agent']));
    expect(shown.nodes.map((node) => node.id).toSorted()).toEqual(['__end__', '__start__', 'agent', 'planner', 'replan']);
    expect(shown.groups).toEqual([]);
    expect(inside).toEqual(new Map([['agent', 2]]));
    expect(shown.edges.map((edge) => `${edge.id}: ${edge.source}→${edge.target}`).toSorted()).toEqual([
      '__start__→planner: __start__→planner',
      'agent:act→replan: agent→replan',
      'planner→agent:pick: planner→agent',
      'replan→__end__: replan→__end__',
      'replan→agent:pick: replan→agent',
    ]);
    // Expanded again, the drawing is the server's.
    expect(collapseDrawing(drawing, new Set()).drawing).toBe(drawing);
  });

  it('folds a nested group into its collapsed outer group', () => {
    const drawing: ServerDrawing = {
      nodes: ['__start__', 'a:b:c', 'a:d', '__end__'].map((id) => ({ id, name: id.split(':').at(-1)!, group: id.includes(':') ? id.split(':').slice(0, -1).join(':') : null, type: id.startsWith('__') ? (id === '__start__' ? 'start' : 'end') : 'node', tools: [], interrupt: null })),
      edges: [{ id: 's', source: '__start__', target: 'a:b:c', conditional: false, label: null }, { id: 'i', source: 'a:b:c', target: 'a:d', conditional: false, label: null }, { id: 'e', source: 'a:d', target: '__end__', conditional: true, label: 'done' }],
      groups: [{ id: 'a', name: 'a', group: null }, { id: 'a:b', name: 'b', group: 'a' }],
    };
    expect(collapsedHolding('a:b:c', new Set(['a:b', 'a']))).toBe('a');
    const { drawing: shown, inside } = collapseDrawing(drawing, new Set(['a', 'a:b']));
    expect(shown.groups).toEqual([]);
    expect(inside).toEqual(new Map([['a', 2]]));
    expect(shown.edges.map((edge) => `${edge.source}→${edge.target}`)).toEqual(['__start__→a', 'a→__end__']);
    // Only the inner group folded: the outer one stays a group around it.
    const inner = collapseDrawing(drawing, new Set(['a:b']));
    expect(inner.drawing.groups.map((group) => group.id)).toEqual(['a']);
    expect(inner.drawing.nodes.map((node) => node.id)).toEqual(['__start__', 'a:d', '__end__', 'a:b']);
  });
});
