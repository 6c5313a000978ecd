/**
 * The canvas's geometry, defined once: how big a node is, where its handles are, the path an edge
 * takes and where its label goes. The node component draws to these numbers, the layout sizes
 * nodes and labels by them, and label placement keeps labels clear of nodes and of each other.
 * Pure functions of the graph, so they are tested without a browser.
 */
import { kindDefinition, outcomesOf, own, type GraphEdge, type GraphFile, type GraphNode } from '../graph/index.ts';
import { toolOfSkill } from '../graph/skillTypes/index.ts';
import { visibleText } from '../graph/visible.ts';
import type { Pausable } from './pausable.ts';

/** The narrowest and widest a node is, in flow pixels: its width is its title's (nodeWidth). */
export const MIN_NODE_WIDTH = 152;
export const MAX_NODE_WIDTH = 320;
/**
 * Heights of a node's parts, in flow pixels (the node's CSS uses these). An outcome row is its
 * source handle, 22 px: at the smallest fit zoom (fit.ts) that is 17 px on screen to grab.
 */
export const NODE_ROWS = { borderTop: 4, borderBottom: 1, head: 30, kind: 20, tools: 20, summaryPad: 8, summaryLine: 18, outcomesPad: 6, outcome: 22 } as const;
/**
 * The canvas's text sizes, in flow pixels (the node's and the labels' CSS use these): titles, and
 * every other text (rows, badges, labels). At the smallest fit zoom the body is still 10 px on screen.
 */
export const CANVAS_TEXT = { title: 15, body: 13 } as const;
/** The node's left and right borders, in flow pixels (the node's CSS uses this). */
export const NODE_BORDER_SIDE = 1;
/** More summary lines than this are cut, the last one saying how many are left out. */
export const MAX_SUMMARY_LINES = 3;
/** Source handles stick out past the node's right side by this much, the target handle past its left. */
export const SOURCE_HANDLE_OUT = 4;
const TARGET_HANDLE_OUT = 5;
/** The target handle's square, in flow pixels, as big as an outcome row (its dot is drawn smaller, at its left). */
export const TARGET_HANDLE_SIZE = NODE_ROWS.outcome;

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

/** The smallest box holding every one of `rects` (at least one). */
export const unionOf = (rects: Iterable<Rect>): Rect => {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const rect of rects) {
    left = Math.min(left, rect.x);
    top = Math.min(top, rect.y);
    right = Math.max(right, rect.x + rect.width);
    bottom = Math.max(bottom, rect.y + rect.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
};

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

/** The graph's skills by name: a node's rows depend on them (mcpToolsOf). */
export type Skills = GraphFile['skills'];

/** Where a node names a skill it does not call itself: a plan's actions (Act calls them), a recovery's next skill, the loop's decider. */
const NOT_CALLED = /^config\.(plans|rules)|decider$/;
const callsTool = (skill: Skills[string] | undefined) => skill !== undefined && toolOfSkill(skill) !== null;
const toolsCalled = new WeakMap<GraphNode, { skills: Skills; names: readonly string[] }>();

/**
 * The skills a node calls itself that call an MCP tool (of type `mcp`) (its own skill or skills, its judge, its inner
 * loop's tools), once each: the node shows them in a row of its own (the tools row), between its
 * kind and its summary. Made once per node and skills objects, as summaryLines.
 */
export const mcpToolsOf = (node: GraphNode, skills: Skills): readonly string[] => {
  const known = toolsCalled.get(node);
  if (known?.skills === skills) return known.names;
  const names = [...new Set(kindDefinition(node.kind).skillRefs(node.config as never).filter(({ skill, where }) => !NOT_CALLED.test(where) && callsTool(own(skills, skill))).map(({ skill }) => skill))];
  toolsCalled.set(node, { skills, names });
  return names;
};

/** The height of the rows above a node's summary: its head, its kind, and its tools row when it calls MCP tools. */
const rowsAbove = (node: GraphNode, skills: Skills) =>
  NODE_ROWS.borderTop + NODE_ROWS.head + NODE_ROWS.kind + (mcpToolsOf(node, skills).length ? NODE_ROWS.tools : 0);

/** The source handles of a node, top to bottom: one per outcome (its own: an inner loop adds max_iter), then the general one. */
export const handleCount = (node: GraphNode) => (kindDefinition(node.kind).terminal ? 0 : outcomesOf(node).length + 1);

export const nodeHeight = (node: GraphNode, skills: Skills) => {
  const lines = summaryLines(node).length;
  const handles = handleCount(node);
  const { borderBottom, summaryPad, summaryLine, outcomesPad, outcome } = NODE_ROWS;
  return rowsAbove(node, skills) + (lines ? summaryPad + lines * summaryLine : 0) + (handles ? outcomesPad + handles * outcome : 0) + borderBottom;
};

/** What a node's head holds beside its title, in flow pixels (editor.css): borders, padding, the kind icon and its gap. */
export const TITLE_CHROME = 2 * NODE_BORDER_SIDE + 8 + 2 + 18 + 6;

/**
 * A title's width in the canvas's title font (650 weight, CANVAS_TEXT.title), a fair upper bound
 * from its length (0.66 em a character: the widest common fonts average 0.64 for words): the
 * geometry has no fonts (it runs in the layout worker and in tests), and a title drawn wider than
 * its node would be ended in an ellipsis. Checked against the browser's fonts by the journeys
 * (e2e/readable.spec.ts: no title of the templates is cut).
 */
export const titleWidth = (title: string) => [...title].length * 0.66 * CANVAS_TEXT.title;

const titles = new WeakMap<GraphNode, string>();

/**
 * A node's title as the canvas draws it: its label's control and format characters as their escapes
 * (src/graph/visible.ts). Made once per node object, as summaryLines: the geometry asks for a node's
 * width at every end of its edges.
 */
export const nodeTitle = (node: GraphNode): string => {
  let title = titles.get(node);
  if (title === undefined) titles.set(node, (title = visibleText(node.label ?? node.id)));
  return title;
};

/**
 * A node's width: as wide as its title, so a title is never cut (up to MAX_NODE_WIDTH), and no
 * narrower than MIN_NODE_WIDTH, room for its rows. Narrow nodes for short titles keep a graph
 * small enough to be read whole on a laptop's canvas.
 */
export const nodeWidth = (node: GraphNode): number =>
  Math.min(MAX_NODE_WIDTH, Math.max(MIN_NODE_WIDTH, 4 * Math.ceil((TITLE_CHROME + titleWidth(nodeTitle(node))) / 4)));

export const nodeRect = (node: GraphNode, skills: Skills): Rect => ({ x: node.position.x, y: node.position.y, width: nodeWidth(node), height: nodeHeight(node, skills) });

/** The top of a node's first outcome row, from the node's top (the rows' container has a 1 px border and 2 px above them). */
export const outcomesTop = (node: GraphNode, skills: Skills) => {
  const lines = summaryLines(node).length;
  return rowsAbove(node, skills) + (lines ? NODE_ROWS.summaryPad + lines * NODE_ROWS.summaryLine : 0) + 3;
};

/** Where an edge leaves a node: its source handle (`index` in handle order). */
export const sourcePoint = (node: GraphNode, skills: Skills, index: number): Point => ({
  x: node.position.x + nodeWidth(node) + SOURCE_HANDLE_OUT,
  y: node.position.y + outcomesTop(node, skills) + (index + 0.5) * NODE_ROWS.outcome,
});

/** The target handle sits halfway down the node inside its borders, as React Flow centres a handle. */
export const targetPoint = (node: GraphNode, skills: Skills): Point => ({
  x: node.position.x - TARGET_HANDLE_OUT,
  y: node.position.y + NODE_ROWS.borderTop + (nodeHeight(node, skills) - NODE_ROWS.borderTop - NODE_ROWS.borderBottom) / 2,
});

export interface HandleBox extends Rect {
  /** The outcome a source handle stands for (or the general handle's id); null for the target handle. */
  id: string | null;
  type: 'source' | 'target';
}

/**
 * Every handle's box relative to its node, where the node component draws it: an edge ends on the
 * middle of a box's outer side, at `targetPoint` / `sourcePoint`. `sources` are the source handle
 * ids top to bottom (none for a terminal node). A source handle is its whole outcome row, so the
 * row is what a person grabs; the target handle is a square as tall as a row, its dot at its left.
 */
export const handleBoxes = (node: GraphNode, skills: Skills, sources: readonly string[]): HandleBox[] => {
  const { x, y } = node.position;
  const target = targetPoint(node, skills);
  return [
    { id: null, type: 'target', x: target.x - x, y: target.y - y - TARGET_HANDLE_SIZE / 2, width: TARGET_HANDLE_SIZE, height: TARGET_HANDLE_SIZE },
    ...sources.map((id, index): HandleBox => {
      const point = sourcePoint(node, skills, index);
      // From just past the target handle's square, which stands over the rows of a short node.
      const left = TARGET_HANDLE_SIZE - TARGET_HANDLE_OUT;
      return { id, type: 'source', x: left, y: point.y - y - NODE_ROWS.outcome / 2, width: point.x - x - left, height: NODE_ROWS.outcome };
    }),
  ];
};

/** Where the run's status chips (above a node) and the node's breakpoint toggle (on its top right corner) reach above it. */
export const ABOVE_NODE = 24;
/** A box a label should keep clear of, and how much covering it costs (by area): labelPlacement.ts. */
export interface Obstacle extends Rect {
  weight?: number;
}

/** The handle an edge leaves from, as an index into the node's handles. */
export const sourceHandleIndex = (node: GraphNode, edge: GraphEdge): number => {
  const outcomes = outcomesOf(node);
  const when = edge.when;
  const outcome = typeof when === 'object' && 'outcome' in when ? outcomes.indexOf(when.outcome) : -1;
  return outcome >= 0 ? outcome : outcomes.length;
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

export const LOOP_REACH = 60;
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

/**
 * A back edge is drawn as a loop when its target is not well to the right of its source; a forward
 * edge only when its target is behind its source: one to a node close on its right is a curve.
 */
export const drawnAsLoop = (source: Point, target: Point, back = true) => target.x < source.x + (back ? 40 : 0);

/** Edge label text, in flow pixels: the label's CSS uses these. Every line is the canvas's body size. */
export const LABEL_FONT = CANVAS_TEXT.body;
const LABEL_CHAR = 0.58 * LABEL_FONT;
const LABEL_PAD_X = 18;
export const LABEL_LINE = 18;
const LABEL_PAD_Y = 6;
/**
 * Room kept in every label for its breakpoint toggle, shown while the edge is selected (the edge's
 * own menu): a selected label grows into room its place already counted, so it covers nothing new.
 */
export const LABEL_TOGGLE = 24;

export interface LabelText {
  lines: string[];
  /** Badges (a heat count, a problem mark, a breakpoint) beside the first line. */
  extra: number;
}

/** A label's box, from its text: a fair upper bound of what the browser draws. */
export const labelSize = ({ lines, extra }: LabelText) => ({
  width: Math.ceil(Math.max(...lines.map((line) => line.length * LABEL_CHAR), 20) + LABEL_PAD_X + LABEL_TOGGLE + extra),
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

/** A label's place and what it was placed for: its route, its size and what the spot cost. */
export interface LabelBasis {
  label: PlacedLabel;
  path: string;
  width: number;
  height: number;
  cost: number;
}

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
const UNDER_NODE = 28;
/** How far apart the runs of loops over the same stretch are stacked: a label's height and a little. */
const LOOP_GAP = 28;
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
    for (const run of runs) if (run.left < right && run.right > left && Math.abs(run.y - y) < LOOP_GAP) y = run.y + LOOP_GAP;
    runs.push({ left, right, y });
    levels.set(loop.id, y);
    if (levels.size % LOOPS_PER_PART === 0) yield;
  }
  return levels;
}
