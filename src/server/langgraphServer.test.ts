import { describe, expect, it } from 'vitest';
import { parseGraph } from '../graph/parse.ts';
import { serverOrigin, standInFor } from './langgraphServer.ts';

describe('attaching to a LangGraph server', () => {
  it('takes the origin of an http(s) address only', () => {
    expect(serverOrigin(' http://127.0.0.1:2024/docs ')).toEqual({ origin: 'http://127.0.0.1:2024' });
    expect(serverOrigin('javascript:alert(1)')).toMatchObject({ error: expect.stringContaining('not an http(s) address') });
    expect(serverOrigin('127.0.0.1:2024')).toMatchObject({ error: expect.any(String) });
  });

  it("stands a graph Loopscope did not make in the library as a valid graph of its name with no nodes of Loopscope's", () => {
    const graph = standInFor({ graphId: 'react-agent', assistantId: 'a1' }, 'http://127.0.0.1:2024');
    expect(graph).toMatchObject({ name: 'react-agent', nodes: [], edges: [] });
    expect(graph.description).toContain('http://127.0.0.1:2024');
    expect(parseGraph(JSON.parse(JSON.stringify(graph))).ok).toBe(true);
  });
});
