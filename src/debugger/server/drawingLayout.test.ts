// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { graph as reactAgent } from '../../runtime/fixtures/langgraph/reactAgent.ts';
import { graph as subgraphGraph } from '../../runtime/fixtures/langgraph/subgraphGraph.ts';
import { drawingOf, type ServerDrawing } from '../../runtime/serverGraph.ts';
import { groupBox, keepPlaces, keptPlaces, layOutDrawing, loopEdges, NODE_SIZE } from './drawingLayout.ts';

const drawn = async (graph: unknown): Promise<ServerDrawing> =>
  (drawingOf(JSON.parse(JSON.stringify((await (graph as { getGraphAsync: (config: object) => Promise<{ toJSON: () => unknown }> }).getGraphAsync({ xray: true })).toJSON()))) as { drawing: ServerDrawing }).drawing;

describe("where a server graph's nodes go", () => {
  it('lays the ReAct agent out left to right from __start__, its loop back to callModel left out of the layering', async () => {
    const drawing = await drawn(reactAgent);
    expect([...loopEdges(drawing)]).toEqual(['tools→callModel']);
    const places = await layOutDrawing(drawing);
    const x = (id: string) => places.get(id)?.x ?? Number.NaN;
    expect(x('__start__')).toBeLessThan(x('callModel'));
    expect(x('callModel')).toBeLessThan(x('tools'));
    expect(x('callModel')).toBeLessThan(x('__end__'));
  });

  it("draws a subgraph's group around its nodes, with room for its title", async () => {
    const drawing = await drawn(subgraphGraph);
    const places = await layOutDrawing(drawing);
    const box = groupBox(drawing, 'research', places) as { x: number; y: number; width: number; height: number };
    for (const id of ['research:search', 'research:summarize']) {
      const place = places.get(id) as { x: number; y: number };
      expect(place.x).toBeGreaterThan(box.x);
      expect(place.y).toBeGreaterThan(box.y);
      expect(place.x + NODE_SIZE.width).toBeLessThan(box.x + box.width);
    }
    expect(places.get('write')?.x).toBeGreaterThan(box.x + box.width);
  });

  it('keeps places per server and assistant, and forgets them when the server describes other nodes', async () => {
    const drawing = await drawn(reactAgent);
    const places = await layOutDrawing(drawing);
    places.set('tools', { x: 999, y: 7 });
    keepPlaces('http://127.0.0.1:2024', 'a1', drawing, places);
    expect(keptPlaces('http://127.0.0.1:2024', 'a1', drawing)?.get('tools')).toEqual({ x: 999, y: 7 });
    expect(keptPlaces('http://127.0.0.1:2024', 'a2', drawing)).toBeNull();
    const changed = { ...drawing, nodes: drawing.nodes.slice(1) };
    expect(keptPlaces('http://127.0.0.1:2024', 'a1', changed)).toBeNull();
    localStorage.setItem('loopscope.langgraph-layout http://127.0.0.1:2024 a1', '{"signature": 1, "places": "x"}');
    expect(keptPlaces('http://127.0.0.1:2024', 'a1', drawing)).toBeNull();
  });
});
