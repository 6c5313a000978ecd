import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import { edgeLayout, loadLabelPlacement } from './flowAdapter.ts';
import { curveBlocked, detourLevel, nodeGrid, routeRoundNodes } from '../ui/edgeRouting.ts';
import { finish } from '../ui/pausable.ts';
import { drawnAsLoop, edgeRoute, nodeRect, sourceHandleIndex, sourcePoint, targetPoint, type Point, type Rect } from './geometry.ts';

beforeAll(() => loadLabelPlacement());

/** Whether a point is well inside a box (3 px, as the routing counts it). */
const under = (point: Point, rect: Rect) => point.x > rect.x + 3 && point.x < rect.x + rect.width - 3 && point.y > rect.y + 3 && point.y < rect.y + rect.height - 3;

/** Points of a route, every pixel or so, as a browser would draw it: its parts' curves and lines sampled finely. */
const pointsOf = (from: Point, to: Point, level: number | null): Point[] => {
  const route = edgeRoute(from, to, level);
  const points: Point[] = [];
  for (const part of route.parts) {
    const numbers = [...part.d.matchAll(/-?[\d.]+(?:e-?\d+)?/g)].map((match) => Number(match[0]));
    if (numbers.length === 4) {
      for (let step = 0; step <= 400; step += 1) points.push({ x: numbers[0] + ((numbers[2] - numbers[0]) * step) / 400, y: numbers[1] + ((numbers[3] - numbers[1]) * step) / 400 });
      continue;
    }
    const [x0, y0, x1, y1, x2, y2, x3, y3] = numbers;
    for (let step = 0; step <= 400; step += 1) {
      const t = step / 400;
      const u = 1 - t;
      points.push({ x: u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3, y: u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3 });
    }
  }
  return points;
};

describe('drawnAsLoop', () => {
  it('draws a forward edge to a node close on its right as a curve, a back edge there as a loop', () => {
    // Two nodes 30 px apart: the source handle 4 px past the first, the target's 5 px before the second.
    const [from, to] = [{ x: 156, y: 40 }, { x: 177, y: 60 }];
    expect(drawnAsLoop(from, to, false)).toBe(false);
    expect(drawnAsLoop(from, to, true)).toBe(true);
    // Behind its source, a forward edge too goes round.
    expect(drawnAsLoop(from, { x: 100, y: 60 }, false)).toBe(true);
  });
});

describe('edges routed round nodes', () => {
  // The case: a node between the ends of an edge, in its way.
  const between = { x: 250, y: 0, width: 152, height: 200 };
  const ends = new Map([['source', { x: 0, y: 0, width: 152, height: 200 }], ['between', between], ['target', { x: 750, y: 250, width: 152, height: 120 }]]);
  const [from, to] = [{ x: 156, y: 180 }, { x: 745, y: 310 }];

  it('finds a curve under a node it does not join blocked, and a level round it that passes under none', () => {
    const grid = nodeGrid(ends);
    expect(pointsOf(from, to, null).some((point) => under(point, between))).toBe(true);
    expect(curveBlocked(grid, from, to, ['source', 'target'])).toBe(true);
    const level = detourLevel(grid, from, to);
    expect(level).not.toBeNull();
    for (const [id, rect] of ends) expect(pointsOf(from, to, level).filter((point) => under(point, rect)), id).toEqual([]);
  });

  it('leaves a curve across an empty gap alone', () => {
    const grid = nodeGrid(new Map([['source', ends.get('source')!], ['target', { x: 250, y: 0, width: 152, height: 200 }]]));
    expect(curveBlocked(grid, from, { x: 245, y: 100 }, ['source', 'target'])).toBe(false);
  });

  it('never gives a detour that passes under a node, and finds a curve blocked whenever it passes well inside one', () => {
    const coordinate = fc.integer({ min: -600, max: 600 });
    const rect = fc.record({ x: coordinate, y: coordinate, width: fc.integer({ min: 20, max: 300 }), height: fc.integer({ min: 20, max: 300 }) });
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 12 }), fc.record({ x: coordinate, y: coordinate }), fc.record({ x: coordinate, y: coordinate }), (rects, start, end) => {
        const boxes = new Map(rects.map((box, index) => [`n${index}`, box]));
        const grid = nodeGrid(boxes);
        // Well inside: 8 px, past what sampling every 8 px along the curve can miss.
        const deep = (point: Point, box: Rect) => under(point, { x: box.x + 8, y: box.y + 8, width: box.width - 16, height: box.height - 16 });
        if (pointsOf(start, end, null).some((point) => rects.some((box) => deep(point, box)))) expect(curveBlocked(grid, start, end, [])).toBe(true);
        const level = detourLevel(grid, start, end);
        if (level !== null) for (const box of rects) expect(pointsOf(start, end, level).some((point) => deep(point, box))).toBe(false);
      }),
      { seed: 53 },
    );
  });

  it('keeps two detours round the same node apart, a label\'s height and more, each clear of every node', () => {
    const edges = [{ id: 'a', source: 'source', target: 'target' }, { id: 'b', source: 'source', target: 'target' }];
    const routed = new Map([['a', { from, to }], ['b', { from: { x: 156, y: 158 }, to: { x: 745, y: 300 } }]]);
    const levels = new Map<string, number>();
    finish(routeRoundNodes(edges, routed, ends, levels));
    expect(levels.size).toBe(2);
    expect(Math.abs(levels.get('a')! - levels.get('b')!)).toBeGreaterThanOrEqual(28);
    for (const [id, level] of levels)
      for (const [node, rect] of ends) expect(pointsOf(routed.get(id)!.from, routed.get(id)!.to, level).filter((point) => under(point, rect)), `${id} under ${node}`).toEqual([]);
  });

  it('routes the default graph\'s denied edge round Recover, not under it', () => {
    const graph = findTemplate('securityclaw')!.graph();
    const layout = edgeLayout(graph);
    const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
    for (const edge of graph.edges) {
      const [source, target] = [nodes.get(edge.source)!, nodes.get(edge.target)!];
      const points = pointsOf(sourcePoint(source, graph.skills, sourceHandleIndex(source, edge)), targetPoint(target, graph.skills), layout.loops.get(edge.id) ?? null);
      for (const node of graph.nodes) {
        if (node.id === edge.source || node.id === edge.target) continue;
        expect(points.some((point) => under(point, nodeRect(node, graph.skills))), `${edge.id} under ${node.id}`).toBe(false);
      }
    }
  });
});
