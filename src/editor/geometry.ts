/**
 * The canvas's geometry, defined once: how big a node is, where its handles are, the path an edge
 * takes and where its label goes. The node component draws to these numbers, the layout sizes
 * nodes and labels by them, and label placement keeps labels clear of nodes and of each other.
 * Pure functions of the graph, so they are tested without a browser.
 */
import { kindDefinition, type GraphEdge, type GraphNode } from '../graph/index.ts';
import type { Pausable } from './pausable.ts';

export const NODE_WIDTH = 184;
/** Heights of a node's parts, in flow pixels (the node's CSS uses these). */
export const NODE_ROWS = { borderTop: 4, borderBottom: 1, head: 30, kind: 18, summaryPad: 9, summaryLine: 17, outcomesPad: 7, outcome: 20 } as const;
/** The node's left and right borders, in flow pixels (the node's CSS uses this). */
export const NODE_BORDER_SIDE = 1;
/** More summary lines than this are cut, the last one saying how many are left out. */
export const MAX_SUMMARY_LINES = 3;
/** Source handles stick out past the node's right side by this much, the target handle past its left. */
const SOURCE_HANDLE_OUT = 4;
const TARGET_HANDLE_OUT = 5;
/** Handle squares, in flow pixels (the node's CSS uses these). */
const SOURCE_HANDLE_SIZE = 10;
const TARGET_HANDLE_SIZE = 12;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/**
 * Each node's summary lines, made once per node object (an edit replaces the node): the summary
 * formats the node's settings as text, and the geometry asks for it at every end of every edge.
 */
const summaries = new WeakMap<GraphNode, readonly string[]>();

/** The summary lines a node shows: the kind's, cut to MAX_SUMMARY_LINES. */
export const summaryLines = (node: GraphNode): readonly string[] => {
  const known = summaries.get(node);
  if (known) return known;
  const all = kindDefinition(node.kind).summary(node.config as never);
  const lines = all.length <= MAX_SUMMARY_LINES ? all : [...all.slice(0, MAX_SUMMARY_LINES - 1), `+${all.length - MAX_SUMMARY_LINES + 1} more`];
  summaries.set(node, lines);
  return lines;
};

/** The source handles of a node, top to bottom: one per outcome, then the general one. */
export const handleCount = (node: GraphNode) => {
  const definition = kindDefinition(node.kind);
  return definition.terminal ? 0 : definition.outcomes.length + 1;
};

export const nodeHeight = (node: GraphNode) => {
  const lines = summaryLines(node).length;
  const handles = handleCount(node);
  const { borderTop, borderBottom, head, kind, summaryPad, summaryLine, outcomesPad, outcome } = NODE_ROWS;
  return borderTop + head + kind + (lines ? summaryPad + lines * summaryLine : 0) + (handles ? outcomesPad + handles * outcome : 0) + borderBottom;
};

export const nodeRect = (node: GraphNode): Rect => ({ x: node.position.x, y: node.position.y, width: NODE_WIDTH, height: nodeHeight(node) });

/** Where an edge leaves a node: its source handle (`index` in handle order). */
export const sourcePoint = (node: GraphNode, index: number): Point => {
  const lines = summaryLines(node).length;
  const { borderTop, head, kind, summaryPad, summaryLine, outcome } = NODE_ROWS;
  const top = node.position.y + borderTop + head + kind + (lines ? summaryPad + lines * summaryLine : 0) + 3;
  return { x: node.position.x + NODE_WIDTH + SOURCE_HANDLE_OUT, y: top + (index + 0.5) * outcome };
};

/** The target handle sits halfway down the node inside its borders, as React Flow centres a handle. */
export const targetPoint = (node: GraphNode): Point => ({
  x: node.position.x - TARGET_HANDLE_OUT,
  y: node.position.y + NODE_ROWS.borderTop + (nodeHeight(node) - NODE_ROWS.borderTop - NODE_ROWS.borderBottom) / 2,
});

export interface HandleBox extends Rect {
  /** The outcome a source handle stands for (or the general handle's id); null for the target handle. */
  id: string | null;
  type: 'source' | 'target';
}

/**
 * Every handle's box relative to its node, where the node component draws it: an edge ends on the
 * middle of a box's outer side, at `targetPoint` / `sourcePoint`. `sources` are the source handle
 * ids top to bottom (none for a terminal node).
 */
export const handleBoxes = (node: GraphNode, sources: readonly string[]): HandleBox[] => {
  const { x, y } = node.position;
  const target = targetPoint(node);
  return [
    { id: null, type: 'target', x: target.x - x, y: target.y - y - TARGET_HANDLE_SIZE / 2, width: TARGET_HANDLE_SIZE, height: TARGET_HANDLE_SIZE },
    ...sources.map((id, index): HandleBox => {
      const point = sourcePoint(node, index);
      return { id, type: 'source', x: point.x - x - SOURCE_HANDLE_SIZE, y: point.y - y - SOURCE_HANDLE_SIZE / 2, width: SOURCE_HANDLE_SIZE, height: SOURCE_HANDLE_SIZE };
    }),
  ];
};

/** The handle an edge leaves from, as an index into the node's handles. */
export const sourceHandleIndex = (node: GraphNode, edge: GraphEdge): number => {
  const definition = kindDefinition(node.kind);
  const when = edge.when;
  const outcome = typeof when === 'object' && 'outcome' in when ? definition.outcomes.indexOf(when.outcome) : -1;
  return outcome >= 0 ? outcome : definition.outcomes.length;
};

/**
 * An edge's path: a bezier curve as React Flow draws one, left to right; or, for a loop back to a
 * node on its left, a route out right, down under the nodes it passes (`loopY`), and in from the left.
 */
export interface EdgeRoute {
  path: string;
  at: (t: number) => Point;
  /** Loops have a straight bottom run, where their label belongs. */
  loop: boolean;
  /**
   * The path in parts drawn one after another, each with how far along the route it starts (its
   * dash offset, so dashes run on across the joins). A loop's bottom run is a part of its own:
   * Skia dashes a whole path for every tile it crosses, except a single straight line, which it
   * dashes only within the tile. A dashed loop under a wide graph drawn in one piece made each
   * tile a drag or pan redrew cost ~3 ms instead of ~1 ms.
   */
  parts: readonly RoutePart[];
}

export interface RoutePart {
  d: string;
  startsAt: number;
}

const controlOffset = (distance: number) => (distance >= 0 ? 0.5 * distance : 0.25 * 25 * Math.sqrt(-distance));

const cubic = (p0: Point, p1: Point, p2: Point, p3: Point) => (t: number): Point => {
  const u = 1 - t;
  return {
    x: u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x,
    y: u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y,
  };
};

const LOOP_REACH = 60;
/** How far a loop's curve swings out past its ends (three quarters of its control reach). */
export const LOOP_SWING = 0.75 * LOOP_REACH;
/**
 * The length of a loop's hook (out by LOOP_REACH and back, `drop` down): the integral of its speed,
 * 3·|(R(1 − 2t), 2t(1 − t)·drop)|, by the midpoint rule. Within a pixel of the true length, so the
 * next part's dashes start where this part's end.
 */
const hookLength = (drop: number) => {
  const samples = 32;
  let sum = 0;
  for (let index = 0; index < samples; index += 1) {
    const t = (index + 0.5) / samples;
    sum += Math.hypot(LOOP_REACH * (1 - 2 * t), 2 * t * (1 - t) * drop);
  }
  return (3 * sum) / samples;
};

export const edgeRoute = (source: Point, target: Point, loopY: number | null): EdgeRoute => {
  if (loopY !== null) {
    const { x: sx, y: sy } = source;
    const { x: tx, y: ty } = target;
    const downLength = hookLength(loopY - sy);
    const parts = [
      { d: `M ${sx},${sy} C ${sx + LOOP_REACH},${sy} ${sx + LOOP_REACH},${loopY} ${sx},${loopY}`, startsAt: 0 },
      { d: `M ${sx},${loopY} L ${tx},${loopY}`, startsAt: downLength },
      { d: `M ${tx},${loopY} C ${tx - LOOP_REACH},${loopY} ${tx - LOOP_REACH},${ty} ${tx},${ty}`, startsAt: downLength + Math.abs(sx - tx) },
    ];
    return {
      path: parts.map((part) => part.d).join(' '),
      // Along the bottom run, from the source's end to the target's.
      at: (t) => ({ x: sx + (tx - sx) * t, y: loopY }),
      loop: true,
      parts,
    };
  }
  const offset = controlOffset(target.x - source.x);
  const c1 = { x: source.x + offset, y: source.y };
  const c2 = { x: target.x - offset, y: target.y };
  const path = `M${source.x},${source.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${target.x},${target.y}`;
  return { path, at: cubic(source, c1, c2, target), loop: false, parts: [{ d: path, startsAt: 0 }] };
};

/** A back edge is drawn as a loop when its target is not well to the right of its source. */
export const drawnAsLoop = (source: Point, target: Point) => target.x < source.x + 40;

/** Edge label text, in flow pixels: the label's CSS uses these. */
export const LABEL_FONT = 13;
const LABEL_CHAR = 0.58 * LABEL_FONT;
const LABEL_PAD_X = 18;
export const LABEL_LINE = 18;
const LABEL_PAD_Y = 6;

export interface LabelText {
  lines: string[];
  /** Badges (a heat count, a problem mark, a breakpoint) beside the first line. */
  extra: number;
}

/** A label's box, from its text: a fair upper bound of what the browser draws. */
export const labelSize = ({ lines, extra }: LabelText) => ({
  width: Math.ceil(Math.max(...lines.map((line, index) => line.length * (index === 0 ? LABEL_CHAR : LABEL_CHAR * 0.85)), 20) + LABEL_PAD_X + extra),
  height: lines.length * LABEL_LINE + LABEL_PAD_Y,
});

export interface PlacedLabel {
  /** Where on the route (0 source … 1 target) the label's centre sits, and its shift from there. */
  t: number;
  dx: number;
  dy: number;
}

export interface LabelRequest {
  id: string;
  route: EdgeRoute;
  size: { width: number; height: number };
}

const MARGIN = 6;
/** React Flow's reconnect anchor (radius 10) at a handle sticking out 4 to 6 px, less the margin. */
const EDGE_END_CLEARANCE = 10;
const overlapArea = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) + MARGIN) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) + MARGIN);

/**
 * A coarse grid of boxes, so a label is checked only against what is near it. Placing the labels
 * again is most of a drop's work, so a look-up makes no strings and no sets: cells have number
 * keys, and each box notes the last look-up that counted it (a box spans several cells).
 */
const spatialIndex = (cell: number) => {
  const cells = new Map<number, { rect: Rect; countedBy: number }[]>();
  // Two cells sharing a key would only cost time: a box's overlap is measured, not assumed.
  const key = (x: number, y: number) => x * 4_194_304 + y;
  let lookUp = 0;
  const eachCell = (rect: Rect, visit: (key: number) => void) => {
    const [left, right, top, bottom] = [Math.floor(rect.x / cell), Math.floor((rect.x + rect.width) / cell), Math.floor(rect.y / cell), Math.floor((rect.y + rect.height) / cell)];
    for (let x = left; x <= right; x += 1) for (let y = top; y <= bottom; y += 1) visit(key(x, y));
  };
  return {
    add: (rect: Rect) => {
      const entry = { rect, countedBy: 0 };
      eachCell(rect, (at) => {
        const list = cells.get(at);
        if (list) list.push(entry);
        else cells.set(at, [entry]);
      });
    },
    overlap: (rect: Rect) => {
      lookUp += 1;
      let total = 0;
      eachCell(rect, (at) => {
        for (const entry of cells.get(at) ?? []) {
          if (entry.countedBy === lookUp) continue;
          entry.countedBy = lookUp;
          total += overlapArea(rect, entry.rect);
        }
      });
      return total;
    },
  };
};

const CURVE_STOPS = [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85];
const LOOP_STOPS = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];

/** A label's place and what it was placed for: its route, its size and what the spot cost. */
export interface LabelBasis {
  label: PlacedLabel;
  path: string;
  width: number;
  height: number;
  cost: number;
}

/** A cost under this is a spot that covers nothing (`placeLabels` weighs covered area by a thousand). */
const CLEAR = 1000;

/**
 * Places each label on its edge where it covers no node and no label placed before it: along the
 * edge first, then just above or below it. Where every spot is taken, the least covered one.
 */
export const placeLabels = (nodes: readonly Rect[], labels: readonly LabelRequest[]): Map<string, PlacedLabel> => placeLabelsKeeping(nodes, labels).placed;

/**
 * `placeLabels`, where a label placed before (`previous`) on the same route with the same size stays
 * where it was unless its spot now covers more than it did: after a drop or an edit only the labels
 * it concerns are placed again (looking for a place is up to 63 look-ups a label, keeping one is
 * one; in a crowded graph most labels cover something wherever they go, and looked at every spot),
 * and the others do not move about the canvas. `basis` is what to pass as `previous` the next time.
 */
export const placeLabelsKeeping = (nodes: readonly Rect[], labels: readonly LabelRequest[], previous: ReadonlyMap<string, LabelBasis> = new Map()) => {
  const index = spatialIndex(160);
  // A node's obstacle reaches past its sides to its edges' ends, where the handles and the
  // reconnect anchors are: a label there would take the pointer from them.
  for (const node of nodes) index.add({ ...node, x: node.x - EDGE_END_CLEARANCE, width: node.width + 2 * EDGE_END_CLEARANCE });
  const placed = new Map<string, PlacedLabel>();
  const basis = new Map<string, LabelBasis>();
  const rectAt = (route: EdgeRoute, size: LabelRequest['size'], t: number, dy: number): Rect => {
    const centre = route.at(t);
    return { x: centre.x - size.width / 2, y: centre.y + dy - size.height / 2, width: size.width, height: size.height };
  };
  // A small preference for the middle of the edge and for sitting on it.
  const costOf = (rect: Rect, t: number, dy: number) => index.overlap(rect) * 1000 + Math.abs(t - 0.5) + Math.abs(dy) / 50;
  for (const { id, route, size } of labels) {
    const before = previous.get(id);
    if (before && before.path === route.path && before.width === size.width && before.height === size.height) {
      const rect = rectAt(route, size, before.label.t, before.label.dy);
      const cost = costOf(rect, before.label.t, before.label.dy);
      if (cost <= before.cost) {
        placed.set(id, before.label);
        basis.set(id, { ...before, cost });
        index.add(rect);
        continue;
      }
    }
    let best: { label: PlacedLabel; rect: Rect; cost: number } | null = null;
    // On the edge, then just above or below it, then further off where nodes crowd it.
    const step = size.height / 2 + 8;
    const shifts = [0, -step, step, -2 * step, 2 * step, -3 * step, 3 * step];
    outer: for (const dy of shifts)
      for (const t of route.loop ? LOOP_STOPS : CURVE_STOPS) {
        const rect = rectAt(route, size, t, dy);
        const cost = costOf(rect, t, dy);
        if (!best || cost < best.cost) best = { label: { t, dx: 0, dy }, rect, cost };
        if (cost < CLEAR) break outer;
      }
    if (best) {
      placed.set(id, best.label);
      basis.set(id, { label: best.label, path: route.path, width: size.width, height: size.height, cost: best.cost });
      index.add(best.rect);
    }
  }
  return { placed, basis };
};

/** The index of the first of `sorted` (ascending) that is at least `value`. */
const firstAtLeast = (sorted: readonly number[], value: number) => {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
};

/** How far below a node the bottom run of a loop passing under it goes. */
const UNDER_NODE = 36;
/** How close above a loop's run a node's top may be and still push the run under it. */
const OVER_RUN = 40;

/** How many loops are placed between two chances for the page to take its turn. */
const LOOPS_PER_PART = 32;

/**
 * Loops run under every node between their ends; loops over the same stretch are stacked apart.
 * A loop looks only at the nodes near its run's height (nodes sorted by top: those ending well
 * above it cannot push it down, those starting below it cannot either), so placing every loop of
 * a big graph again, as each drop does, is not every loop times every node. Work that can stop
 * between loops (`finish` it, or run it between frames after a drop).
 */
export function* placeLoops(loops: readonly { id: string; from: Point; to: Point }[], rects: Iterable<Rect>): Pausable<Map<string, number>> {
  const levels = new Map<string, number>();
  const byTop = [...rects].sort((a, b) => a.y - b.y);
  const tops = byTop.map((rect) => rect.y);
  const tallest = byTop.reduce((most, rect) => Math.max(most, rect.height), 0);
  const runs: { left: number; right: number; y: number }[] = [];
  const ordered = [...loops].sort((a, b) => a.from.x - a.to.x - (b.from.x - b.to.x));
  for (const loop of ordered) {
    const left = Math.min(loop.to.x, loop.from.x) - LOOP_REACH;
    const right = Math.max(loop.to.x, loop.from.x) + LOOP_REACH;
    let y = Math.max(loop.from.y, loop.to.y) + 40;
    // Top to bottom, so a node pushed under by the ones above it is seen in turn. The run only goes
    // down: a node whose top is more than the tallest node above it ends above it and leaves it be,
    // and once a node's top is below the run so is every later one's.
    for (let index = firstAtLeast(tops, y - tallest - UNDER_NODE); index < byTop.length; index += 1) {
      const rect = byTop[index];
      if (rect.y >= y + OVER_RUN) break;
      if (rect.x < right && rect.x + rect.width > left) y = Math.max(y, rect.y + rect.height + UNDER_NODE);
    }
    for (const run of runs) if (run.left < right && run.right > left && Math.abs(run.y - y) < 34) y = run.y + 34;
    runs.push({ left, right, y });
    levels.set(loop.id, y);
    if (levels.size % LOOPS_PER_PART === 0) yield;
  }
  return levels;
}
