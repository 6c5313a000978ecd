import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { gridGraph, readGenerated } from '../../bench/graphs.ts';
import { kindDefinition, outcomesOf } from '../graph/index.ts';
import { findTemplate, TEMPLATES } from '../graph/templates/index.ts';
import { edgeLayout, findBackEdges, loadLabelPlacement } from './flowAdapter.ts';
import { drawnExtent, farSpot, placeLabels, placeLabelsInOrder, placeLabelsKeeping } from '../ui/labelPlacement.ts';
import { finish } from '../ui/pausable.ts';
import { nodeObstacles } from './edgePlacement.ts';
import { ABOVE_NODE, NODE_ROWS, drawnAsLoop, edgeRoute, handleBoxes, mcpToolsOf, nodeHeight, nodeRect, nodeTitle, nodeWidth, outcomesTop, placeLoops, sourceHandleIndex, sourcePoint, targetPoint, type LabelRequest, type PlacedLabel, type Point, type Rect } from './geometry.ts';

// Labels are placed once their placement has loaded, as on the canvas after its first commit.
beforeAll(() => loadLabelPlacement());

/** placeLoops as first written: every loop looks at every node, top to bottom. */
const everyNode = (loops: readonly { id: string; from: Point; to: Point }[], rects: readonly Rect[]) => {
  const levels = new Map<string, number>();
  const byTop = [...rects].sort((a, b) => a.y - b.y);
  const runs: { left: number; right: number; y: number }[] = [];
  for (const loop of [...loops].sort((a, b) => a.from.x - a.to.x - (b.from.x - b.to.x))) {
    const left = Math.min(loop.to.x, loop.from.x) - 60;
    const right = Math.max(loop.to.x, loop.from.x) + 60;
    let y = Math.max(loop.from.y, loop.to.y) + 40;
    for (const rect of byTop) if (rect.x < right && rect.x + rect.width > left && rect.y < y + 40) y = Math.max(y, rect.y + rect.height + 28);
    for (const run of runs) if (run.left < right && run.right > left && Math.abs(run.y - y) < 28) y = run.y + 28;
    runs.push({ left, right, y });
    levels.set(loop.id, y);
  }
  return levels;
};

describe('placeLoops', () => {
  const coordinate = fc.integer({ min: -3000, max: 3000 });
  const point = fc.record({ x: coordinate, y: coordinate });
  const rect = fc.record({ x: coordinate, y: coordinate, width: fc.integer({ min: 1, max: 300 }), height: fc.integer({ min: 1, max: 400 }) });

  it('places every loop where looking at every node would', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 40 }), fc.array(fc.record({ from: point, to: point }), { maxLength: 12 }), (rects, ends) => {
        const loops = ends.map((end, index) => ({ id: `e${index}`, ...end }));
        expect(finish(placeLoops(loops, rects))).toEqual(everyNode(loops, rects));
      }),
    );
  });

  it('places the loops of a 2,000-node grid, each under its own column, looking at the nodes near that column only (issue 57)', () => {
    // 40 to a row, each node joined to the next and to the one below: every loop runs down its column to under the grid.
    const graph = readGenerated({ format: 'loopscope/graph', version: 1, name: 'Grid', entry: 'n0', nodes: Array.from({ length: 2_000 }, (_, index) => ({ id: `n${index}`, kind: 'act', label: `Node ${index}`, position: { x: (index % 40) * 260, y: Math.floor(index / 40) * 240 } })), edges: Array.from({ length: 1_960 }, (_, index) => ({ id: `d${index}`, source: `n${index}`, target: `n${index + 40}`, when: 'otherwise' })) });
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    const loops = graph.edges.map((edge) => ({ id: edge.id, from: sourcePoint(byId.get(edge.source)!, graph.skills, 0), to: targetPoint(byId.get(edge.target)!, graph.skills) }));
    let looks = 0;
    // Each node's left side, read once for each time a loop looks at the node.
    const rects = graph.nodes.map((node) => {
      const { x, ...rest } = nodeRect(node, graph.skills);
      return Object.defineProperty(rest, 'x', { get: () => ((looks += 1), x), enumerable: true }) as Rect;
    });
    const placed = finish(placeLoops(loops, rects));
    const looked = looks;
    expect(placed).toEqual(everyNode(loops, rects));
    // Looking at every node below it, a loop looked at half the grid's nodes on average (1,960 loops × ~1,000 nodes).
    expect(looked).toBeLessThan(loops.length * 200);
  });

  it('places the loops of the templates and of the bench graph as looking at every node would', () => {
    for (const graph of [...TEMPLATES.map((template) => template.graph()), readGenerated(gridGraph(600, 900))]) {
      const byId = new Map(graph.nodes.map((node) => [node.id, node]));
      const back = findBackEdges(graph);
      // Every edge's ends, as the canvas draws them, from the geometry.
      const loops = graph.edges.flatMap((edge) => {
        const [source, target] = [byId.get(edge.source)!, byId.get(edge.target)!];
        const from = kindDefinition(source.kind).terminal ? targetPoint(source, graph.skills) : sourcePoint(source, graph.skills, sourceHandleIndex(source, edge));
        const to = targetPoint(target, graph.skills);
        return drawnAsLoop(from, to, back.has(edge.id)) ? [{ id: edge.id, from, to }] : [];
      });
      const rects = graph.nodes.map((node) => nodeRect(node, graph.skills));
      expect(finish(placeLoops(loops, rects))).toEqual(everyNode(loops, rects));
      // The other levels are detours round nodes (ui/edgeRouting.ts).
      const looped = new Set(loops.map((loop) => loop.id));
      expect(new Map([...edgeLayout(graph).loops].filter(([id]) => looped.has(id)))).toEqual(everyNode(loops, rects));
    }
  });
});

/** How much two boxes cover each other, as placeLabels counts it (boxes closer than 6 px touch). */
const area = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) + 6) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) + 6);

/** placeLabels' look-up as first written: string keys, a set per look-up. */
const placedByStringGrid = (nodes: readonly Rect[], labels: readonly LabelRequest[]) => {
  const cells = new Map<string, Rect[]>();
  const keys = (rect: Rect) => {
    const found: string[] = [];
    for (let x = Math.floor(rect.x / 160); x <= Math.floor((rect.x + rect.width) / 160); x += 1)
      for (let y = Math.floor(rect.y / 160); y <= Math.floor((rect.y + rect.height) / 160); y += 1) found.push(`${x}:${y}`);
    return found;
  };
  const add = (rect: Rect) => keys(rect).forEach((key) => cells.set(key, [...(cells.get(key) ?? []), rect]));
  const overlap = (rect: Rect) => {
    const seen = new Set<Rect>();
    let total = 0;
    for (const key of keys(rect))
      for (const other of cells.get(key) ?? []) {
        if (seen.has(other)) continue;
        seen.add(other);
        total += area(rect, other);
      }
    return total;
  };
  for (const node of nodes) add(node);
  const placed = new Map<string, { t: number; dx: number; dy: number }>();
  for (const { id, route, size } of labels) {
    let best: { label: { t: number; dx: number; dy: number }; rect: Rect; cost: number } | null = null;
    const step = size.height / 2 + 8;
    const sideways = size.width / 2 + 12;
    outer: for (const dx of [0, -sideways, sideways])
      for (const dy of [0, -step, step, -2 * step, 2 * step, -3 * step, 3 * step])
        for (const t of route.loop ? [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9] : [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85]) {
          const centre = route.at(t);
          const rect = { x: centre.x + dx - size.width / 2, y: centre.y + dy - size.height / 2, width: size.width, height: size.height };
          const cost = overlap(rect) * 1000 + Math.abs(t - 0.5) + (Math.abs(dy) + Math.abs(dx)) / 50;
          if (!best || cost < best.cost) best = { label: { t, dx, dy }, rect, cost };
          if (cost < 1000) break outer;
        }
    // No clear spot on or beside the edge: the same nearest clear one off it.
    const far = best && best.cost >= 1000 ? farSpot(route, size, overlap, drawnExtent(nodes, labels)) : null;
    if (far) {
      const centre = route.at(far.t);
      best = { label: far, rect: { x: centre.x + far.dx - size.width / 2, y: centre.y + far.dy - size.height / 2, width: size.width, height: size.height }, cost: 0 };
    }
    if (best) {
      placed.set(id, best.label);
      add(best.rect);
    }
  }
  return placed;
};

describe('placeLabels', () => {
  // Crowded, so that labels often cover boxes that span several cells, and the cost counts each once.
  const coordinate = fc.integer({ min: -400, max: 400 });
  const rect = fc.record({ x: coordinate, y: coordinate, width: fc.integer({ min: 1, max: 300 }), height: fc.integer({ min: 1, max: 400 }) });
  const label = fc.record({ from: fc.record({ x: coordinate, y: coordinate }), to: fc.record({ x: coordinate, y: coordinate }), width: fc.integer({ min: 20, max: 400 }), lines: fc.integer({ min: 1, max: 3 }) });

  it('places every label where the string-keyed grid did, placing them in the same order', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 30 }), fc.array(label, { maxLength: 40 }), (rects, ends) => {
        const requests = ends.map((end, index) => ({ id: `e${index}`, route: edgeRoute(end.from, end.to, drawnAsLoop(end.from, end.to) ? Math.max(end.from.y, end.to.y) + 40 : null), size: { width: end.width, height: end.lines * 18 + 6 } }));
        expect(placeLabelsInOrder(rects, requests, new Map()).placed).toEqual(placedByStringGrid(rects, requests));
      }),
      { seed: 14 },
    );
  });

  it('leaves no more labels covering something than placing them in the given order does, and fewer where one placed first finds room', () => {
    let fewer = 0;
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 30 }), fc.array(label, { maxLength: 40 }), (rects, ends) => {
        const requests = requestsOf(ends);
        const once = placeLabelsInOrder(rects, requests, new Map());
        const { basis } = placeLabelsKeeping(rects, requests);
        const unclear = [...basis.values()].filter((place) => place.cost >= 1000).length;
        expect(unclear).toBeLessThanOrEqual(once.unclear);
        if (unclear < once.unclear) fewer += 1;
      }),
      // More cases: most labels that find no clear spot on their edge find one off it (farSpot), and few are left to reorder.
      { seed: 14, numRuns: 2000 },
    );
    expect(fewer).toBeGreaterThan(0);
  });

  const requestsOf = (ends: { from: Point; to: Point; width: number; lines: number }[]): LabelRequest[] =>
    ends.map((end, index) => ({ id: `e${index}`, route: edgeRoute(end.from, end.to, drawnAsLoop(end.from, end.to) ? Math.max(end.from.y, end.to.y) + 40 : null), size: { width: end.width, height: end.lines * 18 + 6 } }));
  const covered = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const boxOf = ({ route, size }: LabelRequest, place: PlacedLabel): Rect => {
    const centre = route.at(place.t);
    return { x: centre.x + place.dx - size.width / 2, y: centre.y + place.dy - size.height / 2, width: size.width, height: size.height };
  };

  it('placing again what nothing changed changes nothing', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 30 }), fc.array(label, { maxLength: 40 }), (rects, ends) => {
        const requests = requestsOf(ends);
        const first = placeLabelsKeeping(rects, requests);
        expect(first.placed).toEqual(placeLabels(rects, requests));
        expect(placeLabelsKeeping(rects, requests, first.basis).placed).toEqual(first.placed);
      }),
      { seed: 14 },
    );
  });

  it('keeps a label where it was only while its spot covers no more than it did, and no label placed clear covers a node or another', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 30 }), fc.array(label, { maxLength: 40 }), fc.array(rect, { maxLength: 30 }), (rects, ends, moved) => {
        const requests = requestsOf(ends);
        const before = placeLabelsKeeping(rects, requests);
        // Some boxes moved, some labels' edges moved with them.
        const after = rects.map((box, index) => moved[index] ?? box);
        const again = requestsOf(ends.map((end, index) => (index % 3 === 0 && moved[index] ? { ...end, to: { x: moved[index].x, y: moved[index].y } } : end)));
        const { placed, basis } = placeLabelsKeeping(after, again, before.basis);
        for (const request of again) {
          const kept = before.placed.get(request.id) === placed.get(request.id);
          if (kept) expect(basis.get(request.id)!.cost).toBeLessThanOrEqual(before.basis.get(request.id)!.cost);
        }
        const clear = again.filter((request) => basis.get(request.id)!.cost < 1000);
        for (const request of clear) {
          const box = boxOf(request, placed.get(request.id)!);
          for (const node of after) expect(covered(box, node)).toBe(false);
          for (const other of clear) if (other.id !== request.id) expect(covered(box, boxOf(other, placed.get(other.id)!))).toBe(false);
        }
      }),
      { seed: 14 },
    );
  });

  it('puts a label with no clear spot on or beside its short edge at the nearest clear spot off it, inside the drawing where there is room', () => {
    // A short edge between Verify (over Human confirmation) and Recover (under Respond), a node far
    // down on the left: a run's long label (its count and reason) fits nowhere on the edge or beside it.
    const nodes = [{ x: 0, y: 0, width: 152, height: 220 }, { x: 200, y: 0, width: 150, height: 110 }, { x: 200, y: 150, width: 150, height: 200 }, { x: 0, y: 260, width: 152, height: 140 }, { x: -400, y: 500, width: 150, height: 80 }];
    const request = { id: 'e4', route: edgeRoute({ x: 156, y: 170 }, { x: 195, y: 250 }, null), size: { width: 240, height: 42 } };
    const place = placeLabels(nodes, [request]).get('e4')!;
    const box = boxOf(request, place);
    for (const node of nodes) expect(covered(box, node)).toBe(false);
    // Inside the box of what is drawn, which a view fitted to the graph shows.
    const extent = drawnExtent(nodes, [request]);
    expect(box.x >= extent.x && box.y >= extent.y && box.x + box.width <= extent.x + extent.width && box.y + box.height <= extent.y + extent.height).toBe(true);
  });

  it('after a drop, places again only the labels the moved node concerns', () => {
    const graph = readGenerated(gridGraph(200, 300));
    const first = edgeLayout(graph);
    const moved = graph.nodes[Math.floor(graph.nodes.length / 2)];
    const dropped = { ...graph, nodes: graph.nodes.map((node) => (node === moved ? { ...node, position: { x: node.position.x + 40, y: node.position.y + 30 } } : node)) };
    const after = edgeLayout(dropped);
    const touching = new Set(graph.edges.filter((edge) => edge.source === moved.id || edge.target === moved.id).map((edge) => edge.id));
    const kept = [...after.labels].filter(([id, place]) => first.labels.get(id) === place).map(([id]) => id);
    expect(kept.some((id) => touching.has(id))).toBe(false);
    expect(kept.length).toBeGreaterThan(first.labels.size * 0.85);
  });
});

describe('nodeObstacles', () => {
  const inside = (inner: Rect, outer: Rect) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

  it('cover every handle, weighed above the node, with the reconnect anchor on the target handle, and the room above the node for its run chips', () => {
    for (const graph of TEMPLATES.map((template) => template.graph())) {
      for (const node of graph.nodes) {
        const obstacles = nodeObstacles(node, graph.skills);
        const [body, ...handles] = obstacles;
        const sources = kindDefinition(node.kind).terminal ? [] : [...outcomesOf(node), 'out'];
        for (const box of handleBoxes(node, graph.skills, sources)) {
          const placed = { ...box, x: box.x + node.position.x, y: box.y + node.position.y };
          expect(handles.some((handle) => inside(placed, handle) && (handle.weight ?? 1) > (body.weight ?? 1)), `${node.id} ${box.id}`).toBe(true);
        }
        const end = targetPoint(node, graph.skills);
        expect(handles.some((handle) => inside({ x: end.x - 10, y: end.y - 10, width: 20, height: 20 }, handle))).toBe(true);
        const rect = nodeRect(node, graph.skills);
        expect(inside({ ...rect, y: rect.y - ABOVE_NODE, height: ABOVE_NODE }, body)).toBe(true);
        // The run's chips, the title and the badges beside the kind (entry, heat count) weigh more than the rows under them.
        const head = { ...rect, y: rect.y - ABOVE_NODE, height: ABOVE_NODE + NODE_ROWS.borderTop + NODE_ROWS.head + NODE_ROWS.kind };
        expect(handles.some((obstacle) => inside(head, obstacle) && (obstacle.weight ?? 1) > (body.weight ?? 1)), `${node.id} head`).toBe(true);
      }
    }
  });
});

describe('edgeRoute parts', () => {
  // Plus zero: a path's text has no negative zero.
  const coordinate = fc.double({ min: -5000, max: 5000, noNaN: true }).map((value) => value + 0);
  const numbers = (d: string) => [...d.matchAll(/-?[\d.]+(?:e-?\d+)?/g)].map((match) => Number(match[0]));
  const startOf = (d: string) => numbers(d).slice(0, 2);
  const endOf = (d: string) => numbers(d).slice(-2);
  /** A cubic part's length, by a fine polyline. */
  const cubicLength = (d: string) => {
    const [x0, y0, x1, y1, x2, y2, x3, y3] = numbers(d);
    let length = 0;
    let [px, py] = [x0, y0];
    for (let step = 1; step <= 4000; step += 1) {
      const t = step / 4000;
      const u = 1 - t;
      const x = u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3;
      const y = u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3;
      length += Math.hypot(x - px, y - py);
      [px, py] = [x, y];
    }
    return length;
  };

  it('draws a loop as its hooks and its bottom run as one straight line, joined end to end, each part dashed on from where the last ended', () => {
    fc.assert(
      fc.property(coordinate, coordinate, coordinate, coordinate, fc.double({ min: 0, max: 3000, noNaN: true }), (sx, sy, tx, ty, below) => {
        const loopY = Math.max(sy, ty) + below;
        const route = edgeRoute({ x: sx, y: sy }, { x: tx, y: ty }, loopY);
        const [down, run, up] = route.parts;
        expect(route.parts).toHaveLength(3);
        expect(startOf(down.d)).toEqual([sx, sy]);
        expect(startOf(run.d)).toEqual(endOf(down.d));
        expect(startOf(up.d)).toEqual(endOf(run.d));
        expect(endOf(up.d)).toEqual([tx, ty]);
        // One line and nothing else: the shape Skia dashes only within the tile it draws.
        expect(run.d).toMatch(/^M \S+,\S+ L \S+,\S+$/);
        expect(down.startsAt).toBe(0);
        // Within a pixel, or a thousandth of a hook thousands of pixels deep: no dash visibly out of step.
        const hook = cubicLength(down.d);
        expect(Math.abs(run.startsAt - hook)).toBeLessThan(Math.max(1, hook / 1000));
        expect(up.startsAt - run.startsAt).toBeCloseTo(Math.abs(sx - tx), 6);
      }),
    );
  });

  it('draws a curve in one part', () => {
    const route = edgeRoute({ x: 0, y: 0 }, { x: 300, y: 120 }, null);
    expect(route.parts).toEqual([{ d: route.path, startsAt: 0 }]);
  });
});

describe('the tools row', () => {
  const files = () => findTemplate('files-agent')!.graph();

  it('is a row of the nodes that call MCP tools (their own skills, their inner loop\'s tools), not of those that only plan them', () => {
    const graph = files();
    const called = Object.fromEntries(graph.nodes.map((node) => [node.id, mcpToolsOf(node, graph.skills)]));
    expect(called).toEqual({
      gather: ['list_directory', 'search_files', 'read_text_file'],
      think: [],
      write: ['read_text_file', 'write_file'],
      check: ['read_text_file'],
      report: [], ask: [], halt: [], wrap_up: [],
    });
  });

  it('is counted in the node\'s measured rows: its height, its outcome rows and so every edge end move down by it', () => {
    const graph = files();
    const act = graph.nodes.find((node) => node.id === 'write')!;
    // The same node with its tools as mock skills: no row.
    const mocks = Object.fromEntries(Object.entries(graph.skills).map(([name, skill]) => [name, skill.type === 'mcp' ? { type: 'mock' as const, access: skill.access, script: [{ outcome: 'ok' as const }] } : skill]));
    expect(mcpToolsOf(act, mocks)).toEqual([]);
    expect(nodeHeight(act, graph.skills) - nodeHeight(act, mocks)).toBe(NODE_ROWS.tools);
    expect(outcomesTop(act, graph.skills) - outcomesTop(act, mocks)).toBe(NODE_ROWS.tools);
    expect(sourcePoint(act, graph.skills, 0).y - sourcePoint(act, mocks, 0).y).toBe(NODE_ROWS.tools);
    expect(handleBoxes(act, graph.skills, ['ok'])[1].y - handleBoxes(act, mocks, ['ok'])[1].y).toBe(NODE_ROWS.tools);
    // Asked again with the first skills, the row is back: what a node calls is kept per skills, not per node alone.
    expect(nodeHeight(act, graph.skills) - nodeHeight(act, mocks)).toBe(NODE_ROWS.tools);
  });

  it('leaves every node of the template clear of the others, with the room above each for its run chips', () => {
    const graph = files();
    const rects = graph.nodes.map((node) => ({ id: node.id, ...nodeRect(node, graph.skills) }));
    for (const a of rects)
      for (const b of rects)
        if (a.id < b.id) {
          const [top, bottom] = a.y <= b.y ? [a, b] : [b, a];
          const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || top.y + top.height + ABOVE_NODE <= bottom.y;
          expect(apart, `${a.id} and ${b.id}`).toBe(true);
        }
  });
});

describe('a node\'s title as the canvas draws it', () => {
  const node = { ...findTemplate('securityclaw')!.graph().nodes[0], label: 'Plan \u202egnp.exe\u2066' };

  it('its title shows each format character as its escape, and the node is as wide as that title drawn', () => {
    expect(nodeTitle(node)).toBe('Plan \\u202egnp.exe\\u2066');
    expect(nodeWidth(node)).toBe(nodeWidth({ ...node, label: nodeTitle(node) }));
    expect(nodeWidth(node)).toBeGreaterThan(nodeWidth({ ...node, label: 'Plan gnp.exe' }));
  });
});
