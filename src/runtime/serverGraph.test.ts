import { describe, expect, it } from 'vitest';
import { graph as reactAgent } from './fixtures/langgraph/reactAgent.ts';
import { graph as subgraphGraph } from './fixtures/langgraph/subgraphGraph.ts';
import { graph as fanOutGraph } from './fixtures/langgraph/fanOutGraph.ts';
import { drawingOf, drawnIdOf, edgesLeaving, DRAWING_LIMITS } from './serverGraph.ts';

/** What `GET /assistants/{id}/graph?xray=true` answers: LangGraph's own drawable graph as JSON. */
const described = async (graph: { getGraphAsync: (config: { xray: boolean }) => Promise<{ toJSON: () => unknown }> }) => JSON.parse(JSON.stringify((await graph.getGraphAsync({ xray: true })).toJSON())) as unknown;

const drawn = async (graph: Parameters<typeof described>[0]) => {
  const result = drawingOf(await described(graph));
  if (!result.ok) throw new Error(result.error);
  return result.drawing;
};

describe("a LangGraph server's description of a graph, as Loopscope draws it", () => {
  it('the ReAct agent: its nodes with __start__ and __end__, a plain edge and the conditional edge to each target, the tools of its ToolNode', async () => {
    const drawing = await drawn(reactAgent as never);
    expect(drawing.nodes.map((node) => [node.id, node.type])).toEqual([['__start__', 'start'], ['callModel', 'node'], ['tools', 'node'], ['__end__', 'end']]);
    expect(drawing.nodes.find((node) => node.id === 'tools')?.tools).toEqual(['get_weather']);
    expect(drawing.edges.map((edge) => [edge.id, edge.conditional])).toEqual([
      ['__start__→callModel', false], ['tools→callModel', false], ['callModel→tools', true], ['callModel→__end__', true],
    ]);
    expect(drawing.groups).toEqual([]);
    expect(edgesLeaving(drawing, 'callModel').map((edge) => edge.target)).toEqual(['tools', '__end__']);
  });

  it('a subgraph as a group of its nodes; the edges leaving the group are where its parent node goes on', async () => {
    const drawing = await drawn(subgraphGraph as never);
    expect(drawing.nodes.map((node) => [node.id, node.name, node.group])).toEqual([
      ['__start__', '__start__', null], ['research:search', 'search', 'research'], ['research:summarize', 'summarize', 'research'], ['write', 'write', null], ['__end__', '__end__', null],
    ]);
    expect(drawing.groups).toEqual([{ id: 'research', name: 'research', group: null }]);
    expect(edgesLeaving(drawing, 'research').map((edge) => edge.id)).toEqual(['research:summarize→write']);
    expect(drawnIdOf('search', 'research:74f7594f')).toBe('research:search');
    expect(drawnIdOf('deep', 'outer:1|inner:2')).toBe('outer:inner:deep');
  });

  it('a Send fan-out: the conditional edge to its worker', async () => {
    const drawing = await drawn(fanOutGraph as never);
    expect(drawing.edges.find((edge) => edge.source === 'plan')).toMatchObject({ target: 'worker', conditional: true });
  });

  it('names a branch by the label the server gives, numbers ids, keeps odd names as they are and leaves out what does not hold', () => {
    const result = drawingOf({
      nodes: [{ id: '__start__' }, { id: 'call model' }, { id: '__proto__' }, { id: 7 }, { id: null }, 'junk', { id: 'call model' }],
      edges: [
        { source: '__start__', target: 'call model' },
        { source: 'call model', target: '__proto__', conditional: true, data: 'continue' },
        { source: 'call model', target: '__proto__', conditional: true },
        { source: 'call model', target: 'nowhere' },
        { source: 7, target: 'call model' },
      ],
    });
    expect(result.ok && result.drawing.nodes.map((node) => node.id)).toEqual(['__start__', 'call model', '__proto__', '7']);
    expect(result.ok && result.drawing.edges.map((edge) => [edge.id, edge.label])).toEqual([
      ['__start__→call model', null], ['call model→__proto__', 'continue'], ['call model→__proto__#2', null], ['7→call model', null],
    ]);
  });

  it('refuses, with a message, what is not a graph or is too big to draw', () => {
    expect(drawingOf('nope')).toMatchObject({ ok: false, error: expect.stringContaining('without a list of nodes') });
    const many = { nodes: Array.from({ length: DRAWING_LIMITS.nodes + 1 }, (_, index) => ({ id: `n${index}` })), edges: [] };
    expect(drawingOf(many)).toMatchObject({ ok: false, error: expect.stringContaining(`at most ${DRAWING_LIMITS.nodes}`) });
  });
});
