import { beforeAll, describe, expect, it } from 'vitest';
import { outcomesOf, type GraphFile } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { edgeLabelText, edgeLayout, findBackEdges, GENERAL_HANDLE, loadLabelPlacement } from './flowAdapter.ts';
import { graphBounds, viewportFor } from './fit.ts';
import { CANVAS_TEXT, edgeRoute, handleBoxes, labelSize, nodeRect, sourceHandleIndex, sourcePoint, targetPoint, type Rect } from './geometry.ts';
import handBuiltFile from '../graph/fixtures/hand-built.json';
import supervisorFile from '../graph/fixtures/supervisor.json';
import { layoutGraph, type Positions } from './layout.ts';

// Labels are placed once their placement has loaded, as on the canvas after its first commit.
beforeAll(() => loadLabelPlacement());

/** A long loop of layers with side branches and loop-backs, like a big agent graph. */
const generated = (count: number): GraphFile => {
  const base = findTemplate('securityclaw')!.graph();
  const nodes = Array.from({ length: count }, (_, index) => ({ ...base.nodes[1], id: `n${index}`, position: { x: 0, y: 0 } }));
  const edges = [];
  for (let index = 1; index < count; index += 1) {
    edges.push({ id: `f${index}`, source: `n${Math.floor((index - 1) / 2)}`, target: `n${index}` });
    if (index % 7 === 0) edges.push({ id: `b${index}`, source: `n${index}`, target: `n${Math.floor(index / 3)}`, when: 'otherwise' as const });
  }
  return { ...base, entry: 'n0', nodes, edges };
};

const withPositions = (graph: GraphFile, positions: Positions): GraphFile => ({
  ...graph,
  nodes: graph.nodes.map((node) => ({ ...node, position: positions.get(node.id)! })),
});

const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every label's box where the canvas draws it. */
const labelBoxes = (graph: GraphFile) => {
  const layout = edgeLayout(graph);
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  return graph.edges.flatMap((edge) => {
    const source = nodes.get(edge.source)!;
    // Edges their drawing names have no label (flowAdapter.ts, saidByDrawing).
    const text = edgeLabelText(edge, null, { source, loop: layout.loops.has(edge.id) });
    if (!text) return [];
    const route = edgeRoute(sourcePoint(source, graph.skills, sourceHandleIndex(source, edge)), targetPoint(nodes.get(edge.target)!, graph.skills), layout.loops.get(edge.id) ?? null);
    const place = layout.labels.get(edge.id)!;
    const centre = route.at(place.t);
    const size = labelSize(text);
    return [{ id: edge.id, x: centre.x + place.dx - size.width / 2, y: centre.y + place.dy - size.height / 2, width: size.width, height: size.height }];
  });
};

/** What a reader would see wrong: a label on a node, or on another label. */
const clashes = (graph: GraphFile) => {
  const found: string[] = [];
  const labels = labelBoxes(graph);
  for (const label of labels) {
    for (const node of graph.nodes) if (overlap(label, nodeRect(node, graph.skills))) found.push(`${label.id} on ${node.id}`);
    for (const other of labels) if (other.id > label.id && overlap(label, other)) found.push(`${label.id} on ${other.id}`);
  }
  return found;
};

/** A graph as a person might draw it: nodes dropped close together, edges every way. */
const handBuilt = (): GraphFile => parsed(handBuiltFile);

const parsed = (file: unknown): GraphFile => {
  const result = parseGraph(file);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
};

describe('edgeLayout', () => {
  it('answers again for the same graph and run without placing anything, and anew for a moved one', () => {
    const graph = findTemplate('securityclaw')!.graph();
    const layout = edgeLayout(graph);
    expect(edgeLayout(graph)).toBe(layout);
    const moved = { ...graph, nodes: graph.nodes.map((node, index) => (index === 0 ? { ...node, position: { x: node.position.x, y: node.position.y + 400 } } : node)) };
    const movedLayout = edgeLayout(moved);
    expect(movedLayout).not.toBe(layout);
    expect(edgeLayout(graph)).not.toBe(movedLayout);
  });
});

describe('edge labels', () => {
  it('keep clear of the handles of a short edge: the outcome rows, the target handle, the reconnect anchor', () => {
    const blank = findTemplate('blank')!.graph();
    const graph = handBuilt();
    const [act, verify] = [{ ...graph.nodes[1], position: { x: 0, y: 0 } }, { ...graph.nodes[2], position: { x: 240, y: 0 } }];
    const close: GraphFile = {
      ...blank,
      entry: act.id,
      nodes: [act, verify],
      // A condition its outcome row does not name: it has a label.
      edges: [{ id: 'e1', source: act.id, target: verify.id, when: { path: 'results', op: 'empty' } }],
    };
    const [label] = labelBoxes(close);
    expect(label).toBeDefined();
    const handles = [act, verify].flatMap((node) =>
      handleBoxes(node, close.skills, [...outcomesOf(node), GENERAL_HANDLE]).map((box) => ({ ...box, x: box.x + node.position.x, y: box.y + node.position.y })),
    );
    // React Flow's reconnect anchor: a circle of radius 10 on the edge's target end.
    const end = targetPoint(verify, close.skills);
    for (const box of [...handles, { x: end.x - 10, y: end.y - 10, width: 20, height: 20 }]) expect(overlap(label, box)).toBe(false);
  });
});

describe('layoutGraph', () => {
  it('places SecurityClaw left to right with loop-backs pointing back, every label clear', async () => {
    const graph = findTemplate('securityclaw')!.graph();
    const positions = await layoutGraph(graph);
    const x = (id: string) => positions.get(id)!.x;
    expect(x('decide')).toBeLessThan(x('execute'));
    expect(x('execute')).toBeLessThan(x('evaluate'));
    expect(x('evaluate')).toBeLessThan(x('answer'));
    expect(x('evaluate')).toBeLessThan(x('recover'));
    // The main line along the top, not stepping down a layer at a time.
    const y = (id: string) => positions.get(id)!.y;
    expect(new Set(['decide', 'execute', 'evaluate', 'answer'].map(y)).size).toBe(1);
    expect(clashes(withPositions(graph, positions))).toEqual([]);
  });

  it.each(['securityclaw', 'graph-engineer', 'approval-gate'])('keeps the labels of %s clear of nodes and each other, as shipped and after Auto layout', async (id) => {
    const graph = findTemplate(id)!.graph();
    expect(clashes(graph)).toEqual([]);
    expect(clashes(withPositions(graph, await layoutGraph(graph)))).toEqual([]);
  });

  it.each(['securityclaw', 'graph-engineer', 'files-agent', 'approval-gate'])('lays %s out to fit the editing canvas of a 1280×720 laptop whole, every text 10 px or more', async (id) => {
    const graph = findTemplate(id)!.graph();
    const laid = withPositions(graph, await layoutGraph(graph));
    // Fit View and Auto layout fit the whole graph (fit.ts); the canvas at 1280×720, as in fit.test.ts.
    const view = viewportFor(graphBounds(laid, edgeLayout(laid))!, { width: 874, height: 470 }, 'whole');
    expect(view.zoom * CANVAS_TEXT.body).toBeGreaterThanOrEqual(10);
  });

  it('folds a graph too wide for the room once, its last layers under its first, clear of them', async () => {
    const graph = findTemplate('securityclaw')!.graph();
    const laid = withPositions(graph, await layoutGraph(graph));
    const rect = (id: string) => nodeRect(laid.nodes.find((node) => node.id === id)!, laid.skills);
    // Six layers in a row were 1,350 px wide; confirm and halt, the last two, go under the first ones.
    expect(rect('confirm').x).toBeLessThan(rect('evaluate').x);
    expect(rect('confirm').x).toBeLessThan(rect('halt').x);
    expect(rect('confirm').y).toBeGreaterThan(rect('execute').y + rect('execute').height);
    const rects = laid.nodes.map((node) => nodeRect(node, laid.skills));
    for (const [index, a] of rects.entries()) for (const b of rects.slice(index + 1)) expect(overlap(a, b)).toBe(false);
  });

  it('folds a chain of seven nodes, too long for the room, into two rows that fit it readable', async () => {
    const base = findTemplate('securityclaw')!.graph();
    const nodes = Array.from({ length: 7 }, (_, index) => ({ ...base.nodes[1], id: `n${index}`, label: `Step ${index}`, position: { x: 0, y: 0 } }));
    const chain: GraphFile = { ...base, entry: 'n0', nodes, edges: nodes.slice(1).map((node, index) => ({ id: `e${index}`, source: `n${index}`, target: node.id })) };
    const laid = withPositions(chain, await layoutGraph(chain));
    const rows = new Set(laid.nodes.map((node) => node.position.y));
    expect(rows.size).toBe(2);
    const view = viewportFor(graphBounds(laid, edgeLayout(laid))!, { width: 874, height: 470 }, 'whole');
    expect(view.zoom * CANVAS_TEXT.body).toBeGreaterThanOrEqual(10);
  });

  it('lays a chain of more than ten layers out in as many rows as fit it readable, folding once not being enough', async () => {
    const base = findTemplate('securityclaw')!.graph();
    for (const length of [11, 13]) {
      const nodes = Array.from({ length }, (_, index) => ({ ...base.nodes[5], id: `n${index}`, label: `Step ${index}`, position: { x: 0, y: 0 } }));
      const chain: GraphFile = { ...base, entry: 'n0', nodes, edges: nodes.slice(1).map((node, index) => ({ id: `e${index}`, source: `n${index}`, target: node.id })) };
      const laid = withPositions(chain, await layoutGraph(chain));
      expect(new Set(laid.nodes.map((node) => node.position.y)).size, `${length} nodes`).toBeGreaterThan(2);
      const view = viewportFor(graphBounds(laid, edgeLayout(laid))!, { width: 874, height: 470 }, 'whole');
      expect(view.zoom * CANVAS_TEXT.body, `${length} nodes`).toBeGreaterThanOrEqual(10);
    }
  });

  it('lays a supervisor fanning out to four workers in two columns of two on a wide, short canvas, where one column of four fits it smaller', async () => {
    const graph = parsed(supervisorFile);
    const canvas = { width: 874, height: 470 };
    const laid = withPositions(graph, await layoutGraph(graph, canvas));
    const workers = laid.nodes.filter((node) => node.kind === 'act').map((node) => nodeRect(node, laid.skills)).sort((a, b) => a.x - b.x);
    // Two workers end before the other two begin: two columns, each of two.
    expect(Math.max(workers[0].x + workers[0].width, workers[1].x + workers[1].width)).toBeLessThan(workers[2].x);
    // One column of four, as ELK lays it out left to right, fitted it at 0.38.
    expect(viewportFor(graphBounds(laid, edgeLayout(laid))!, canvas, 'whole').zoom).toBeGreaterThan(0.6);
    expect(clashes(laid)).toEqual([]);
  });

  it('lays a graph that reads left to right as it always was, and for a canvas no bigger than a laptop\'s editing one', async () => {
    const graph = findTemplate('securityclaw')!.graph();
    const laptop = await layoutGraph(graph);
    expect(await layoutGraph(graph, { width: 874, height: 470 })).toEqual(laptop);
    // The Debug layout's wider canvas: laid out so as still to fit the editing one when the person goes back to it.
    expect(await layoutGraph(graph, { width: 1280, height: 470 })).toEqual(laptop);
  });

  it('keeps the labels of a hand-built graph clear, as drawn and after Auto layout', async () => {
    const graph = handBuilt();
    expect(clashes(graph)).toEqual([]);
    expect(clashes(withPositions(graph, await layoutGraph(graph)))).toEqual([]);
  });

  it('lays out 300 nodes: every node placed, none overlapping, forward edges go right', { timeout: 60_000 }, async () => {
    const graph = generated(300);
    const positions = await layoutGraph(graph);
    expect(positions.size).toBe(300);
    for (const position of positions.values()) {
      expect(Number.isFinite(position.x)).toBe(true);
      expect(Number.isFinite(position.y)).toBe(true);
    }
    const back = findBackEdges(graph);
    expect(back.size).toBeGreaterThan(0);
    for (const edge of graph.edges) if (!back.has(edge.id)) expect(positions.get(edge.target)!.x).toBeGreaterThan(positions.get(edge.source)!.x);
    const laid = withPositions(graph, positions);
    const rects = laid.nodes.map((node) => nodeRect(node, laid.skills)).sort((a, b) => a.x - b.x || a.y - b.y);
    for (let i = 0; i < rects.length; i += 1)
      for (let j = i + 1; j < rects.length && rects[j].x < rects[i].x + rects[i].width; j += 1) expect(overlap(rects[i], rects[j])).toBe(false);
  });

  it('lays out ids that are names of Object methods', async () => {
    const graph: GraphFile = {
      ...findTemplate('blank')!.graph(),
      entry: 'toString',
      nodes: [
        { id: 'toString', kind: 'reason', position: { x: 0, y: 0 }, config: { planner: 'scripted', plans: [], retry: { maxAttempts: 3, retryOn: ['timeout'] } } },
        { id: 'hasOwnProperty', kind: 'stop', position: { x: 0, y: 0 }, config: { reason: 'stopped' } },
      ],
      edges: [{ id: 'valueOf', source: 'toString', target: 'hasOwnProperty' }],
    };
    const positions = await layoutGraph(graph);
    expect(positions.get('toString')!.x).toBeLessThan(positions.get('hasOwnProperty')!.x);
  });
});
