/**
 * What the editor's canvas loads after its first screen to place edges (flowAdapter.ts,
 * loadLabelPlacement), in one piece: the label placement and the routing round nodes it shares with
 * the server graph's canvas (ui/), what a label keeps clear of round an editor node, and the loops
 * placed again after a drop on a big graph.
 */
export { placeLabelsKeeping } from '../ui/labelPlacement.ts';
export { routeRoundNodes } from '../ui/edgeRouting.ts';
export { loopsAfterEdit } from './loopMoves.ts';
import { MARGIN } from '../ui/labelPlacement.ts';
import { ABOVE_NODE, handleCount, nodeRect, NODE_ROWS, outcomesTop, SOURCE_HANDLE_OUT, targetPoint, TARGET_HANDLE_SIZE, type Obstacle, type Skills } from './geometry.ts';
import type { GraphNode } from '../graph/index.ts';

/** How far the breakpoint toggle reaches past a node's right side. */
const TOGGLE_OUT = 10;
/** React Flow's reconnect anchor (radius 10) at a handle sticking out 4 to 6 px: what a node's handles reach past its sides. */
const EDGE_END_CLEARANCE = 16;
/** What a selected edge's source anchor (radius 10, beside its outcome handle) reaches past the node's right side: a label over it would take the drag. */
const SOURCE_ANCHOR_REACH = SOURCE_HANDLE_OUT + 20;
/** How much more a label covering a handle costs than one covering a node's text: it would take the pointer from the handle. */
const HANDLE_WEIGHT = 50;
/**
 * How much more a label covering a node's title, its badges (entry, heat count) and the run's
 * chips above it costs than one covering the rest of it: where a label finds no clear spot (a
 * run's reason makes it long), it covers a node's rows rather than what names the node and says what the run did there.
 */
const HEAD_WEIGHT = 10;

/**
 * What an edge label must keep clear of around a node: its box, with the run's status chips and the
 * breakpoint toggle above it; weighed more, its head (title and badges) with the chips; and, weighed far more, its handles (the outcome rows with
 * the source anchor a selected edge shows beside them, and the target handle with the reconnect anchor at it).
 */
export const nodeObstacles = (node: GraphNode, skills: Skills): Obstacle[] => {
  const rect = nodeRect(node, skills);
  const target = targetPoint(node, skills);
  const reach = Math.max(TOGGLE_OUT, SOURCE_HANDLE_OUT);
  const obstacles: Obstacle[] = [
    { x: rect.x, y: rect.y - ABOVE_NODE, width: rect.width + reach, height: rect.height + ABOVE_NODE, weight: 1 },
    { x: rect.x, y: rect.y - ABOVE_NODE, width: rect.width + reach, height: ABOVE_NODE + NODE_ROWS.borderTop + NODE_ROWS.head + NODE_ROWS.kind, weight: HEAD_WEIGHT },
    { x: target.x - EDGE_END_CLEARANCE, y: target.y - EDGE_END_CLEARANCE, width: EDGE_END_CLEARANCE + TARGET_HANDLE_SIZE + MARGIN, height: 2 * EDGE_END_CLEARANCE, weight: HANDLE_WEIGHT },
  ];
  const handles = handleCount(node);
  if (handles > 0) obstacles.push({ x: rect.x, y: rect.y + outcomesTop(node, skills), width: rect.width + SOURCE_ANCHOR_REACH, height: handles * NODE_ROWS.outcome, weight: HANDLE_WEIGHT });
  return obstacles;
};

