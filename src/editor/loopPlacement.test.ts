/**
 * A drop on a big graph places again only the loops its moved nodes may move (issue 57): on a
 * 10,000-node graph each drop had placed all of its ~2,800 loops and measured every node again.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { gridGraph, readGenerated } from '../../bench/graphs.ts';
import { addNode, connect, moveNodes, removeEdges, removeNodes, type GraphFile } from '../graph/index.ts';
import { updateNode } from '../graph/inspectorOps.ts';
import { finish } from '../ui/pausable.ts';
import { placeLoopsFrom, type Point, type Rect } from './geometry.ts';
import { withMoves } from './loopMoves.ts';

// Counted, not changed: how many nodes are measured and how many loops look at the nodes again per drop.
vi.mock('./geometry.ts', async (original) => {
  const actual = await original<typeof import('./geometry.ts')>();
  return { ...actual, nodeRect: vi.fn(actual.nodeRect), pushedBy: vi.fn(actual.pushedBy) };
});

describe('withMoves', () => {
  const coordinate = fc.integer({ min: -1500, max: 1500 });
  const point = fc.record({ x: coordinate, y: coordinate });
  const rect = fc.record({ x: coordinate, y: coordinate, width: fc.integer({ min: 1, max: 300 }), height: fc.integer({ min: 1, max: 400 }) });

  it('gives what placing every loop again gives, for moved nodes and loops moved, come or gone', () => {
    fc.assert(
      fc.property(
        fc.array(rect, { minLength: 1, maxLength: 30 }),
        fc.array(fc.record({ from: point, to: point }), { maxLength: 12 }),
        fc.array(fc.record({ which: fc.nat(), to: point }), { maxLength: 3 }),
        fc.array(fc.record({ which: fc.nat(), ends: fc.option(fc.record({ from: point, to: point })) }), { maxLength: 3 }),
        (rects, ends, moves, loopChanges) => {
          const loops = ends.map((end, at) => ({ id: `e${at}`, ...end, at }));
          const placement = finish(placeLoopsFrom(loops, rects));
          const after = [...rects];
          const moved = new Map<number, { before: Rect; after: Rect }>();
          for (const { which, to } of moves) {
            const index = which % rects.length;
            after[index] = { ...after[index], ...to };
            moved.set(index, { before: moved.get(index)?.before ?? rects[index], after: after[index] });
          }
          // Some loops' ends move (a moved node's loop), some stop being loops, some edges become loops.
          const nextLoops = new Map(loops.map((loop) => [loop.id, loop]));
          const gone = new Set<string>();
          const changed = new Map<string, { id: string; from: Point; to: Point; at: number }>();
          for (const { which, ends: next } of loopChanges) {
            const at = which % (loops.length + 2);
            const id = `e${at}`;
            if (next) changed.set(id, { id, ...next, at });
            else if (nextLoops.has(id)) gone.add(id);
            if (next) nextLoops.set(id, { id, ...next, at });
            else nextLoops.delete(id);
            if (next) gone.delete(id);
            else changed.delete(id);
          }
          const kept = withMoves(placement, [...moved.values()], { gone, ends: [...changed.values()] });
          const fresh = finish(placeLoopsFrom([...nextLoops.values()].sort((a, b) => a.at - b.at), after));
          expect(kept && new Map(kept.levels)).toEqual(new Map(fresh.levels));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('a drop on a 10,000-node graph', () => {
  it('measures the moved node alone and looks again at the loops near it only, with the loops placing every one again gives', async () => {
    const { edgeLayout, loadLabelPlacement } = await import('./flowAdapter.ts');
    await loadLabelPlacement();
    const geometry = await import('./geometry.ts');
    const graph = readGenerated(gridGraph(10_000, 15_000));
    const before = edgeLayout(graph);
    expect(before.loops.size).toBeGreaterThan(1_000);
    const node = graph.nodes[5_017];
    const moved = moveNodes(graph, new Map([[node.id, { x: node.position.x + 37, y: node.position.y + 23 }]]));
    vi.mocked(geometry.nodeRect).mockClear();
    vi.mocked(geometry.pushedBy).mockClear();
    const after = edgeLayout(moved);
    expect(vi.mocked(geometry.nodeRect).mock.calls.length).toBe(1);
    // The loops that run under the moved node where it was or is look at the nodes again, not the rest.
    expect(vi.mocked(geometry.pushedBy).mock.calls.length).toBeLessThan(before.loops.size / 2);
    // From scratch, in a module with nothing kept from before.
    vi.resetModules();
    const fresh = await import('./flowAdapter.ts');
    expect(new Map(after.loops)).toEqual(new Map(fresh.edgeLayout(moved).loops));
  }, 120_000);
});

describe('an edit of a big graph that moves no node', () => {
  it('places no loop again for a rename or a node added, only the loops of the edges it changed, with what placing every loop again gives', async () => {
    const { edgeLayout, loadLabelPlacement } = await import('./flowAdapter.ts');
    await loadLabelPlacement();
    const geometry = await import('./geometry.ts');
    const graph = readGenerated(gridGraph(2_000, 3_000));
    const first = edgeLayout(graph);
    expect(first.loops.size).toBeGreaterThan(200);
    const node = graph.nodes[1_017];
    const loop = graph.edges.find((edge) => first.loops.has(edge.id))!;
    const edits: [string, (current: GraphFile) => GraphFile, number][] = [
      ['a rename', (current) => updateNode(current, node.id, (each) => ({ ...each, label: 'Edon 1017' })), 0],
      ['a longer name, a wider box', (current) => updateNode(current, node.id, (each) => ({ ...each, label: 'A much longer name for it' })), first.loops.size / 3],
      ['a node added', (current) => addNode(current, { ...node, id: 'added', position: { x: 0, y: 100_000 } }), 0],
      ['an edge added', (current) => connect(current, 'n1500', 'n1000'), 2],
      // Edges elsewhere may become back edges, or stop being ones: their loops are placed again too.
      ['an edge removed', (current) => removeEdges(current, [loop.id]), 20],
      // The loops its box pushed look at the nodes again.
      ['a node deleted with its edges', (current) => removeNodes(current, ['n1200']), first.loops.size / 4],
      ['the entry moved', (current) => ({ ...current, entry: 'n1' }), first.loops.size],
    ];
    let current = graph;
    for (const [what, change, atMost] of edits) {
      current = change(current);
      vi.mocked(geometry.pushedBy).mockClear();
      const after = edgeLayout(current);
      expect(vi.mocked(geometry.pushedBy).mock.calls.length, what).toBeLessThanOrEqual(atMost);
      vi.resetModules();
      const fresh = await import('./flowAdapter.ts');
      expect(new Map(after.loops)).toEqual(new Map(fresh.edgeLayout(current).loops));
    }
  }, 120_000);
});

describe('a step of a run shown on the same graph', () => {
  // Each step selected placed every loop, routed every curve and measured every node again (twice):
  // most of the canvas's work between a step clicked in the timeline and the frame showing it.
  it('measures no node and places no loop again, only the labels the run marks, with what placing everything again gives', async () => {
    const { edgeLayout, loadLabelPlacement } = await import('./flowAdapter.ts');
    await loadLabelPlacement();
    const geometry = await import('./geometry.ts');
    const graph = readGenerated(gridGraph(200, 300));
    const edge = graph.edges[7];
    const step = (visits: number) => ({ currentNode: edge.source, firedEdge: edge.id, firedReason: null, triedEdges: {}, nodeVisits: { [edge.source]: visits }, edgeVisits: { [edge.id]: visits } });
    const first = edgeLayout(graph, step(1));
    expect(first.loops.size).toBeGreaterThan(10);
    vi.mocked(geometry.nodeRect).mockClear();
    const next = edgeLayout(graph, step(2));
    expect(vi.mocked(geometry.nodeRect).mock.calls.length).toBe(0);
    vi.resetModules();
    const fresh = await import('./flowAdapter.ts');
    await fresh.loadLabelPlacement();
    const whole = fresh.edgeLayout(graph, step(2));
    expect(new Map(next.loops)).toEqual(new Map(whole.loops));
    expect(new Map(next.labels)).toEqual(new Map(whole.labels));
  }, 120_000);
});
