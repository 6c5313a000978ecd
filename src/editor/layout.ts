import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { moveNodes, type Position } from '../graph/index.ts';
import type { GraphFile } from '../graph/schema.ts';
import { FIT_MARGIN, graphBounds, MIN_FIT_ZOOM, viewportFor } from './fit.ts';
import { edgeLayout, findBackEdges, loadLabelPlacement } from './flowAdapter.ts';
import { handleCount, nodeHeight, nodeWidth, sourceHandleIndex, sourcePoint, targetPoint } from './geometry.ts';

export type Positions = Map<string, Position>;

const elk = new ELK();
const MODEL_ORDER_UP_TO = 60;

/** The canvas a layout is to fit, in screen pixels: a 1280×720 laptop's editing canvas, where no other is given. */
export const LAPTOP_CANVAS = { width: 874, height: 470 };

/**
 * How ELK may lay a graph out, tried in this order (layoutGraph): left to right as the articles
 * draw it; then with at most two nodes a layer, so a supervisor's fan-out to four workers stands in
 * two columns of two rather than one column too tall for a short canvas. Not top to bottom: a
 * node's handles are on its sides, so a fan-out laid side by side under its source drew most of its
 * edges as loops, and fitted no better.
 */
const CANDIDATES: Record<string, string>[] = [
  {},
  { 'elk.layered.layering.strategy': 'COFFMAN_GRAHAM', 'elk.layered.layering.coffmanGraham.layerBound': '2' },
];

/**
 * Auto layout: of the candidate layouts (above), the one whose whole fit to `canvas` (the room a
 * fit may use, screen px) has the largest zoom, up to the readable one: the first of those that
 * read, so a graph the first one lays out readable is laid out as it always was. Each is measured as
 * the canvas draws it, loops and routes round nodes included (fit.ts graphBounds). A canvas bigger
 * than a laptop's editing one counts as that: the person switches between the editing and the Debug
 * layouts, and a graph laid out for the wider Debug canvas was cut off in the editing one. A graph
 * past FOLD_UP_TO nodes fits no canvas readable: it is laid out once, left to right.
 */
export const layoutGraph = async (graph: GraphFile, canvas: Size = LAPTOP_CANVAS): Promise<Positions> => {
  const fitted = { width: Math.min(canvas.width, LAPTOP_CANVAS.width), height: Math.min(canvas.height, LAPTOP_CANVAS.height) };
  const room = flowRoom(fitted);
  if (graph.nodes.length > FOLD_UP_TO) return layoutOnce(graph, room, CANDIDATES[0]);
  // Routes round nodes make a graph taller: measured as the canvas draws them.
  await loadLabelPlacement();
  let best = { zoom: -Infinity, positions: new Map() as Positions };
  for (const options of CANDIDATES) {
    const positions = await layoutOnce(graph, room, options);
    const laid = moveNodes(graph, positions);
    const bounds = graphBounds(laid, edgeLayout(laid));
    const zoom = bounds ? Math.min(MIN_FIT_ZOOM, viewportFor(bounds, fitted, 'whole').zoom) : MIN_FIT_ZOOM;
    if (zoom > best.zoom) best = { zoom, positions };
    if (zoom >= MIN_FIT_ZOOM) break;
  }
  return best.positions;
};

/**
 * A layered left-to-right layout (ELK, with `options`), with each node's real size and handles,
 * compact so that a graph laid out fits the canvas: layers just far enough apart that an edge to the next one is
 * drawn as a curve. Labels are not ELK's: given to it they took layers of their own, and most
 * edges have none (an outcome row names its edge); the canvas places the labels there are beside
 * their edges, clear of nodes and handles (geometry.ts). Loop-back edges are left out of the
 * layering, so a loop reads as a line going back rather than pushing its target right. Each
 * layer then starts at the top (alignLayersTop).
 */
const layoutOnce = async (graph: GraphFile, room: Size, options: Record<string, string>): Promise<Positions> => {
  const back = findBackEdges(graph);
  // ELK's ids are the file's ids only through this table: an id like `__proto__` or `toString` never reaches it.
  const names = new Map(graph.nodes.map((node, index) => [node.id, `n${index}`]));
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const children: ElkNode[] = graph.nodes.map((node) => {
    const name = names.get(node.id) as string;
    const origin = { ...node, position: { x: 0, y: 0 } };
    return {
      id: name,
      width: nodeWidth(node),
      height: nodeHeight(node, graph.skills),
      // Ports on their sides, placed by ELK: with our handles' fixed places ELK aligned each edge
      // straight, stepping every layer further down, a graph's height many times its tallest node.
      layoutOptions: { 'elk.portConstraints': 'FIXED_SIDE' },
      ports: [
        { id: `${name}::in`, width: 1, height: 1, x: 0, y: targetPoint(origin, graph.skills).y, layoutOptions: { 'elk.port.side': 'WEST' } },
        ...Array.from({ length: handleCount(node) }, (_, index) => ({
          id: `${name}::out${index}`, width: 1, height: 1, x: nodeWidth(node), y: sourcePoint(origin, graph.skills, index).y, layoutOptions: { 'elk.port.side': 'EAST' },
        })),
      ],
    };
  });
  const edges: ElkExtendedEdge[] = [];
  graph.edges.forEach((edge, index) => {
    const source = nodes.get(edge.source);
    const sourceName = names.get(edge.source);
    const targetName = names.get(edge.target);
    if (back.has(edge.id) || !source || !sourceName || !targetName || sourceName === targetName) return;
    edges.push({
      id: `e${index}`,
      sources: [handleCount(source) > 0 ? `${sourceName}::out${sourceHandleIndex(source, edge)}` : sourceName],
      targets: [`${targetName}::in`],
    });
  });
  const laid = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      // A node with no edges yet (a graph's `finally`) goes in a layer with the others, not on a row of its own above them.
      'elk.separateConnectedComponents': 'false',
      'elk.spacing.nodeNode': '36',
      'elk.spacing.edgeNode': '16',
      // Wide enough that an edge to the next layer is drawn as a curve, not a loop (geometry.ts, drawnAsLoop).
      'elk.layered.spacing.nodeNodeBetweenLayers': '52',
      'elk.layered.spacing.edgeNodeBetweenLayers': '12',
      // Keeping the file's order reads best, but costs seconds on big graphs.
      ...(graph.nodes.length <= MODEL_ORDER_UP_TO ? { 'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES' } : {}),
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.padding': '[top=20,left=20,bottom=20,right=20]',
      ...options,
    },
    children,
    edges,
  });
  const placed = new Map(foldToRoom(alignLayersTop(layersOf(laid.children ?? [])), room).map((child) => [child.id, child]));
  const positions: Positions = new Map();
  for (const node of graph.nodes) {
    const child = placed.get(names.get(node.id) as string);
    if (child) positions.set(node.id, { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) });
  }
  return positions;
};

/** The nodes ELK stacked in columns, left to right: a node starting past every node before it starts the next. */
const layersOf = (children: ElkNode[]): ElkNode[][] => {
  const byLeft = [...children].sort((a, b) => (a.x ?? 0) - (b.x ?? 0));
  const layers: ElkNode[][] = [];
  let right = -Infinity;
  for (const child of byLeft) {
    if ((child.x ?? 0) >= right) layers.push([]);
    layers[layers.length - 1].push(child);
    right = Math.max(right, (child.x ?? 0) + (child.width ?? 0));
  }
  return layers;
};

/**
 * Moves each layer up so its first node starts at the top, keeping the layer's own spacing. ELK
 * straightens each edge from its outcome row, low on the node, to the next node's middle, so a
 * chain of nodes steps further down at every layer: a graph much taller than it needs (Graph
 * Engineer laid out so was too tall to read whole on a laptop). Aligned at the top, the main line
 * runs along the top, as the articles draw it.
 */
const alignLayersTop = (layers: ElkNode[][]): ElkNode[][] => {
  const top = Math.min(...layers.flat().map((child) => child.y ?? 0));
  for (const layer of layers) {
    const shift = Math.min(...layer.map((child) => child.y ?? 0)) - top;
    for (const child of layer) child.y = (child.y ?? 0) - shift;
  }
  return layers;
};

type Size = { width: number; height: number };
/** The room a graph laid out is to fit, readable: `canvas` at the smallest zoom that draws its text at 10 px, less the fit's margin, in flow pixels. */
const flowRoom = (canvas: Size): Size => ({ width: (canvas.width - 2 * FIT_MARGIN) / MIN_FIT_ZOOM, height: (canvas.height - 2 * FIT_MARGIN) / MIN_FIT_ZOOM });
/** About what loop-backs and their labels take under the nodes (the templates have up to four). */
const BELOW_NODES = 100;
/** More nodes than this do not fit the room readable however folded: the search (cubic in the layers) is not made. */
const FOLD_UP_TO = 60;
/** Between a folded graph's rows: room for the edges from the first row down to the second. */
const ROW_GAP = 48;

/** How much a graph of nodes this wide and tall overflows the room: 1 or less fits. */
const overflow = (width: number, height: number, room: Size) => Math.max(width / room.width, (height + BELOW_NODES) / room.height);

/**
 * A graph laid out left to right wider than the room (SecurityClaw's six layers: 1,350 px, where
 * 1,070 fit) folds once: its last layers go under the first ones, as the articles draw a long
 * loop, where that overflows the room less; one that still overflows it folded once (a chain of
 * more than ten layers) goes in as many rows as the room's width asks, where they fit better. The fold is the one, of every layer it could start
 * at and every column it could go under, that overflows least (then the narrowest), under the
 * columns it spans.
 */
const foldToRoom = (layers: ElkNode[][], room: Size): ElkNode[] => {
  const nodes = layers.flat();
  if (layers.length < 3 || nodes.length > FOLD_UP_TO) return nodes;
  const top = Math.min(...nodes.map((child) => child.y ?? 0));
  const columns = layers.map((layer) => ({
    left: Math.min(...layer.map((child) => child.x ?? 0)),
    right: Math.max(...layer.map((child) => (child.x ?? 0) + (child.width ?? 0))),
    bottom: Math.max(...layer.map((child) => (child.y ?? 0) + (child.height ?? 0))),
  }));
  const [left, right] = [columns[0].left, columns[columns.length - 1].right];
  const bottom = (from: number, to: number) => Math.max(...columns.slice(from, to).map((column) => column.bottom));
  if (right - left <= room.width) return nodes;
  let best = { overflow: Infinity, width: Infinity, from: 0, dx: 0, dy: 0 };
  for (let from = 2; from < columns.length; from += 1) {
    const [tailLeft, tailBottom] = [columns[from].left, bottom(from, columns.length)];
    for (const under of columns.slice(0, from)) {
      const spans = { left: under.left, right: under.left + right - tailLeft };
      const above = columns.slice(0, from).filter((column) => column.left < spans.right && column.right > spans.left);
      const dy = Math.max(...above.map((column) => column.bottom)) + ROW_GAP - top;
      const width = Math.max(columns[from - 1].right, spans.right) - left;
      const folded = overflow(width, Math.max(bottom(0, from), tailBottom + dy) - top, room);
      // Of folds as tall, the narrower: rows of even length rather than a short first row over a long second.
      if (folded < best.overflow || (folded === best.overflow && width < best.width)) best = { overflow: folded, width, from, dx: under.left - tailLeft, dy };
    }
  }
  // Still too big (a chain of more than ten layers): rows as wide as the room, each under the last, where they fit better.
  const rows = best.overflow > 1 ? inRows(columns, top, room) : null;
  if (rows && rows.overflow < best.overflow) {
    for (const [index, layer] of layers.entries()) for (const child of layer) [child.x, child.y] = [(child.x ?? 0) + rows.shifts[index].dx, (child.y ?? 0) + rows.shifts[index].dy];
    return nodes;
  }
  // A fold that fits the graph no better (a big graph, its height the limit either way) would only break its line.
  if (best.overflow >= overflow(right - left, bottom(0, columns.length) - top, room)) return nodes;
  for (const child of layers.slice(best.from).flat()) {
    child.x = (child.x ?? 0) + best.dx;
    child.y = (child.y ?? 0) + best.dy;
  }
  return nodes;
};

/**
 * The layers in rows, left to right and each row under the one before, a new row started where the
 * next layer would make its row wider than the room: each layer's shift, and how much the rows
 * overflow the room.
 */
const inRows = (columns: readonly { left: number; right: number; bottom: number }[], top: number, room: Size) => {
  const shifts: { dx: number; dy: number }[] = [];
  let [start, rowTop, rowBottom, width] = [0, 0, 0, 0];
  for (const [index, column] of columns.entries()) {
    if (index > start && column.right - columns[start].left > room.width) [start, rowTop] = [index, rowBottom + ROW_GAP];
    shifts.push({ dx: columns[0].left - columns[start].left, dy: rowTop });
    rowBottom = Math.max(rowBottom, rowTop + column.bottom - top);
    width = Math.max(width, column.right - columns[start].left);
  }
  return { shifts, overflow: overflow(width, rowBottom, room) };
};
