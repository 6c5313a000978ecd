import { describe, expect, it } from 'vitest';
import { drawnGraph, serverOrigin } from './langgraphServer.ts';

describe('attaching to a LangGraph server', () => {
  it('takes the origin of an http(s) address only', () => {
    expect(serverOrigin(' http://127.0.0.1:2024/docs ')).toEqual({ origin: 'http://127.0.0.1:2024' });
    expect(serverOrigin('javascript:alert(1)')).toMatchObject({ error: expect.stringContaining('not an http(s) address') });
    expect(serverOrigin('127.0.0.1:2024')).toMatchObject({ error: expect.any(String) });
  });

  it("draws a graph that is not Loopscope's from the server's description: its nodes, its edges, its entry", () => {
    const graph = drawnGraph({
      assistantId: 'a', graphId: 'agent', loopscope: null, nodes: ['model', 'tools'],
      edges: [
        { source: '__start__', target: 'model', conditional: false },
        { source: 'model', target: 'tools', conditional: true },
        { source: 'model', target: '__end__', conditional: true },
        { source: 'tools', target: 'model', conditional: false },
      ],
    });
    expect(graph.entry).toBe('model');
    expect(graph.nodes.map((node) => node.id)).toEqual(['model', 'tools']);
    expect(graph.edges.map((edge) => [edge.source, edge.target])).toEqual([['model', 'tools'], ['tools', 'model']]);
  });
});
