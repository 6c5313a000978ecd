import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridGraph, readGenerated } from '../../bench/graphs.ts';
import { kindDefinition } from '../graph/index.ts';
import { TEMPLATES } from '../graph/templates/index.ts';
import { edgeLayout } from './flowAdapter.ts';
import { drawnAsLoop, loopLevels, nodeRect, sourceHandleIndex, sourcePoint, targetPoint, type Point, type Rect } from './geometry.ts';

/** loopLevels as first written: every loop looks at every node, top to bottom. */
const everyNode = (loops: readonly { id: string; from: Point; to: Point }[], rects: readonly Rect[]) => {
  const levels = new Map<string, number>();
  const byTop = [...rects].sort((a, b) => a.y - b.y);
  const runs: { left: number; right: number; y: number }[] = [];
  for (const loop of [...loops].sort((a, b) => a.from.x - a.to.x - (b.from.x - b.to.x))) {
    const left = Math.min(loop.to.x, loop.from.x) - 60;
    const right = Math.max(loop.to.x, loop.from.x) + 60;
    let y = Math.max(loop.from.y, loop.to.y) + 40;
    for (const rect of byTop) if (rect.x < right && rect.x + rect.width > left && rect.y < y + 40) y = Math.max(y, rect.y + rect.height + 36);
    for (const run of runs) if (run.left < right && run.right > left && Math.abs(run.y - y) < 34) y = run.y + 34;
    runs.push({ left, right, y });
    levels.set(loop.id, y);
  }
  return levels;
};

describe('loopLevels', () => {
  const coordinate = fc.integer({ min: -3000, max: 3000 });
  const point = fc.record({ x: coordinate, y: coordinate });
  const rect = fc.record({ x: coordinate, y: coordinate, width: fc.integer({ min: 1, max: 300 }), height: fc.integer({ min: 1, max: 400 }) });

  it('places every loop where looking at every node would', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 40 }), fc.array(fc.record({ from: point, to: point }), { maxLength: 12 }), (rects, ends) => {
        const loops = ends.map((end, index) => ({ id: `e${index}`, ...end }));
        expect(loopLevels(loops, rects)).toEqual(everyNode(loops, rects));
      }),
    );
  });

  it('places the loops of the templates and of the bench graph as looking at every node would', () => {
    for (const graph of [...TEMPLATES.map((template) => template.graph()), readGenerated(gridGraph(600, 900))]) {
      const byId = new Map(graph.nodes.map((node) => [node.id, node]));
      // Every edge's ends, as the canvas draws them, from the geometry.
      const loops = graph.edges.flatMap((edge) => {
        const [source, target] = [byId.get(edge.source)!, byId.get(edge.target)!];
        const from = kindDefinition(source.kind).terminal ? targetPoint(source) : sourcePoint(source, sourceHandleIndex(source, edge));
        const to = targetPoint(target);
        return drawnAsLoop(from, to) ? [{ id: edge.id, from, to }] : [];
      });
      const rects = graph.nodes.map(nodeRect);
      expect(loopLevels(loops, rects)).toEqual(everyNode(loops, rects));
      expect(edgeLayout(graph).loops).toEqual(everyNode(loops, rects));
    }
  });
});
