// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { graph as guardedAgent } from '../../runtime/fixtures/langgraph/guardedAgent.ts';
import { graph as mapReduce } from '../../runtime/fixtures/langgraph/mapReduceGraph.ts';
import { graph as planExecute } from '../../runtime/fixtures/langgraph/planExecuteGraph.ts';
import { graph as supervisor } from '../../runtime/fixtures/langgraph/supervisorGraph.ts';
import { drawingOf, type ServerDrawing } from '../../runtime/serverGraph.ts';
import { edgeRoute, type Point, type Rect } from '../../ui/edgeGeometry.ts';
import { layOutDrawing, loopEdges, sizeOf } from './drawingLayout.ts';
import { edgeEnds, serverEdgeLayout } from './edgeLayout.ts';

const drawn = async (graph: unknown): Promise<ServerDrawing> =>
  (drawingOf(JSON.parse(JSON.stringify((await (graph as { getGraphAsync: (config: object) => Promise<{ toJSON: () => unknown }> }).getGraphAsync({ xray: true })).toJSON()))) as { drawing: ServerDrawing }).drawing;

/** Well inside a box (3 px, as the routing counts it). */
const under = (point: Point, rect: Rect) => point.x > rect.x + 3 && point.x < rect.x + rect.width - 3 && point.y > rect.y + 3 && point.y < rect.y + rect.height - 3;
const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** What each fixture's drawing draws over a node it does not join: edges sampled every ~2 px along, and labels. */
const clashes = async (graph: unknown, inRow = false) => {
  const drawing = await drawn(graph);
  const laid = await layOutDrawing(drawing);
  // As a person may leave them: every node in one row, in the layout's order, 60 px apart.
  const places = inRow ? new Map([...laid].sort(([, a], [, b]) => a.x - b.x).map(([id], index) => [id, { x: index * 236, y: 0 }])) : laid;
  const rects = new Map(drawing.nodes.map((node) => [node.id, { ...(places.get(node.id) as Point), ...sizeOf(node) }]));
  const loops = loopEdges(drawing);
  const edges = drawing.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target, loop: loops.has(edge.id), label: { width: 60, height: 20 } }));
  const layout = serverEdgeLayout(edges, rects);
  const found: string[] = [];
  for (const edge of drawing.edges) {
    const { from, to } = edgeEnds(rects.get(edge.source) as Rect, rects.get(edge.target) as Rect);
    const route = edgeRoute(from, to, layout.levels.get(edge.id) ?? null);
    for (const [id, rect] of rects) {
      if (id === edge.source || id === edge.target) continue;
      if (sampled(route.path).some((point) => under(point, rect))) found.push(`edge ${edge.id} under ${id}`);
    }
    const place = layout.labels.get(edge.id);
    if (!place) continue;
    const at = route.at(place.t);
    const box = { x: at.x + place.dx - 30, y: at.y + place.dy - 10, width: 60, height: 20 };
    for (const [id, rect] of rects) if (overlaps(box, rect)) found.push(`label of ${edge.id} on ${id}`);
  }
  return { found, detoured: [...layout.levels.keys()].filter((id) => !loops.has(id)) };
};

/** Points along an SVG path of M, L and C commands, ~200 a segment. */
const sampled = (path: string): Point[] => {
  const points: Point[] = [];
  let at: Point = { x: 0, y: 0 };
  for (const [, command, args] of path.matchAll(/([MLC])\s*([^MLC]*)/g)) {
    const n = [...args.matchAll(/-?[\d.]+(?:e-?\d+)?/g)].map((match) => Number(match[0]));
    if (command === 'M') at = { x: n[0], y: n[1] };
    else if (command === 'L') {
      for (let step = 0; step <= 200; step += 1) points.push({ x: at.x + ((n[0] - at.x) * step) / 200, y: at.y + ((n[1] - at.y) * step) / 200 });
      at = { x: n[0], y: n[1] };
    } else {
      for (let step = 0; step <= 200; step += 1) {
        const t = step / 200;
        const u = 1 - t;
        points.push({ x: u * u * u * at.x + 3 * u * u * t * n[0] + 3 * u * t * t * n[2] + t * t * t * n[4], y: u * u * u * at.y + 3 * u * u * t * n[1] + 3 * u * t * t * n[3] + t * t * t * n[5] });
      }
      at = { x: n[4], y: n[5] };
    }
  }
  return points;
};

describe("a server graph's edges round its nodes", () => {
  it.each([['plan-execute', planExecute], ['map-reduce', mapReduce], ['guarded-agent', guardedAgent], ['supervisor', supervisor]])('%s: no edge under a node it does not join, no label on a node', async (_, graph) => {
    const { found } = await clashes(graph);
    expect(found).toEqual([]);
  });

  it.each([['plan-execute', planExecute], ['map-reduce', mapReduce], ['guarded-agent', guardedAgent], ['supervisor', supervisor]])('%s with its nodes moved into one row: the same', async (_, graph) => {
    const { found } = await clashes(graph, true);
    expect(found).toEqual([]);
  });

  it("detours the supervisor's dashed edges past the workers between (a curve would pass under them)", async () => {
    const { detoured } = await clashes(supervisor, true);
    expect(detoured.toSorted()).toEqual(['supervisor→__end__', 'supervisor→writer']);
  });
});
