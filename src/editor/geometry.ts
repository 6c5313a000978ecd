/**
 * The canvas's geometry, defined once: how big a node is, where its handles are, the path an edge
 * takes and where its label goes. The node component draws to these numbers, the layout sizes
 * nodes and labels by them, and label placement keeps labels clear of nodes and of each other.
 * Pure functions of the graph, so they are tested without a browser.
 */
import { kindDefinition, outcomesOf, own, type GraphEdge, type GraphFile, type GraphNode } from '../graph/index.ts';
import { toolOfSkill } from '../graph/skillTypes/index.ts';
import { visibleText } from '../graph/visible.ts';
import { ABOVE_NODE, edgeRoute, LOOP_REACH, LOOP_SWING, unionOf, type LabelBasis, type LabelRequest, type Obstacle, type PlacedLabel, type Point, type Rect } from '../ui/edgeGeometry.ts';
import type { Pausable } from '../ui/pausable.ts';

// An edge's geometry is shared with the server graph's canvas (ui/edgeGeometry.ts); the editor's modules keep asking here for it.
export { ABOVE_NODE, edgeRoute, LOOP_SWING, unionOf };
export type { LabelBasis, LabelRequest, Obstacle, PlacedLabel, Point, Rect };

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

/** The handle an edge leaves from, as an index into the node's handles. */
export const sourceHandleIndex = (node: GraphNode, edge: GraphEdge): number => {
  const outcomes = outcomesOf(node);
  const when = edge.when;
  const outcome = typeof when === 'object' && 'outcome' in when ? outcomes.indexOf(when.outcome) : -1;
  return outcome >= 0 ? outcome : outcomes.length;
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

/** How far below a node the bottom run of a loop passing under it goes. */
export const UNDER_NODE = 28;
/** How far apart the runs of loops over the same stretch are stacked: a label's height and a little. */
const LOOP_GAP = 28;
/** How close above a loop's run a node's top may be and still push the run under it. */
export const OVER_RUN = 40;

/** How many loops are placed between two chances for the page to take its turn. */
const LOOPS_PER_PART = 32;

/** Where a loop runs: the stretch it spans, and the level it starts looking from. */
const loopSpan = (loop: { from: Point; to: Point }) => ({
  left: Math.min(loop.to.x, loop.from.x) - LOOP_REACH,
  right: Math.max(loop.to.x, loop.from.x) + LOOP_REACH,
  start: Math.max(loop.from.y, loop.to.y) + 40,
});

export const tallestOf = (rects: Iterable<Rect>) => {
  let tallest = 0;
  for (const rect of rects) tallest = Math.max(tallest, rect.height);
  return tallest;
};

/** A loop as placed: where it runs, its level from the nodes alone, and its level once stacked. */
export interface PlacedLoop {
  id: string;
  /** What loops are stacked in order of: the shorter first, then as given. */
  order: [number, number];
  left: number;
  right: number;
  start: number;
  /** The level the nodes under it push it to, before the loops placed before it stack it. */
  pushed: number;
  level: number;
}

/**
 * Every loop's level, with what it was placed from: a drop of a few nodes places again only the
 * loops those nodes could push (loopMoves.ts), not every loop of a big graph (issue 57).
 */
export interface LoopPlacement {
  levels: ReadonlyMap<string, number>;
  loops: readonly PlacedLoop[];
  /** The nodes' boxes by top, and the tallest of them: what a loop looks at. */
  byTop: readonly Rect[];
  tallest: number;
}

export const inOrder = (a: PlacedLoop, b: PlacedLoop) => a.order[0] - b.order[0] || a.order[1] - b.order[1];

/** The index of the first of `sorted` (ascending by `key`) whose key is at least `value`. */
export const firstFrom = <T>(sorted: readonly T[], key: (item: T) => number, value: number) => {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (key(sorted[middle]) < value) low = middle + 1;
    else high = middle;
  }
  return low;
};
export const topOf = (rect: Rect) => rect.y;

/**
 * How far the nodes under a loop push it down. Top to bottom, so a node pushed under by the ones
 * above it is seen in turn. The run only goes down: a node whose top is more than the tallest node
 * above it ends above it and leaves it be, and once a node's top is below the run so is every later one's.
 */
export const pushedBy = (loop: Pick<PlacedLoop, 'left' | 'right' | 'start'>, byTop: readonly Rect[], tallest: number) => {
  let y = loop.start;
  for (let index = firstFrom(byTop, topOf, y - tallest - UNDER_NODE); index < byTop.length; index += 1) {
    const rect = byTop[index];
    if (rect.y >= y + OVER_RUN) break;
    if (rect.x < loop.right && rect.x + rect.width > loop.left) y = Math.max(y, rect.y + rect.height + UNDER_NODE);
  }
  return y;
};

/** The loop's level once stacked apart from the runs of the loops placed before it. */
export const stacked = (loop: PlacedLoop, before: readonly PlacedLoop[], count: number) => {
  let y = loop.pushed;
  for (let index = 0; index < count; index += 1) {
    const run = before[index];
    if (run.left < loop.right && run.right > loop.left && Math.abs(run.level - y) < LOOP_GAP) y = run.level + LOOP_GAP;
  }
  return y;
};

export const placedLoop = (loop: { id: string; from: Point; to: Point }, at: number): PlacedLoop => ({ id: loop.id, order: [loop.from.x - loop.to.x, at], ...loopSpan(loop), pushed: 0, level: 0 });

/**
 * Nodes and runs are filed in windows of twice this width, one starting every COLUMN: a loop whose
 * stretch lies inside one window looks only at what is filed there. On a 10,000-node grid a loop
 * under one column had looked at half of the graph's nodes and at every run placed before it:
 * seconds for the graph on a busy machine, on every edit. A wider loop looks at all of them.
 */
const COLUMN = 512;
/** The windows a stretch from `left` to `right` reaches into. */
const windowsOf = (left: number, right: number) => {
  const windows: number[] = [];
  for (let window = Math.floor(left / COLUMN) - 1; window <= Math.floor(right / COLUMN); window += 1) windows.push(window);
  return windows;
};
/** The window a stretch lies wholly inside, or null. */
const windowHolding = (left: number, right: number) => {
  const window = Math.floor(left / COLUMN);
  return right <= (window + 2) * COLUMN ? window : null;
};

/**
 * Loops run under every node between their ends; loops over the same stretch are stacked apart.
 * A loop looks only at the nodes near its run's height (nodes sorted by top: those ending well
 * above it cannot push it down, those starting below it cannot either) among those filed in the
 * window of its stretch, and at the runs placed there before it, so placing every loop of a big
 * graph again is not every loop times every node. Work that can stop between loops (`finish` it,
 * or run it between frames after a drop).
 */
export function* placeLoops(loops: readonly { id: string; from: Point; to: Point }[], rects: Iterable<Rect>): Pausable<Map<string, number>> {
  return new Map((yield* placeLoopsFrom(loops, rects)).levels);
}

/** placeLoops, keeping what it placed them from for a drop (loopMoves.ts). */
export function* placeLoopsFrom(loops: readonly { id: string; from: Point; to: Point; at?: number }[], rects: Iterable<Rect>): Pausable<LoopPlacement> {
  const byTop = [...rects].sort((a, b) => a.y - b.y);
  const tallest = tallestOf(byTop);
  type Filed = { rects: Rect[]; runs: PlacedLoop[] };
  const everything: Filed = { rects: byTop, runs: [] };
  const windows = new Map<number, Filed>();
  const windowAt = (window: number) => windows.get(window) ?? windows.set(window, { rects: [], runs: [] }).get(window)!;
  for (const rect of byTop) for (const window of windowsOf(rect.x, rect.x + rect.width)) windowAt(window).rects.push(rect);
  const ordered = loops.map((loop, index) => placedLoop(loop, loop.at ?? index)).sort(inOrder);
  const levels = new Map<string, number>();
  for (const loop of ordered) {
    // What lies outside the window of a loop's stretch can neither push nor stack it, so the
    // window's nodes (filed by top, as byTop) and runs give what all of them would.
    const holding = windowHolding(loop.left, loop.right);
    const { rects: near, runs } = holding === null ? everything : windowAt(holding);
    loop.pushed = pushedBy(loop, near, tallest);
    loop.level = stacked(loop, runs, runs.length);
    everything.runs.push(loop);
    for (const window of windowsOf(loop.left, loop.right)) windowAt(window).runs.push(loop);
    levels.set(loop.id, loop.level);
    if (levels.size % LOOPS_PER_PART === 0) yield;
  }
  return { levels, loops: ordered, byTop, tallest };
}

