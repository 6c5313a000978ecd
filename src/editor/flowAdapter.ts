/** Our graph document as React Flow nodes and edges. React Flow stays at this edge: the store's graph is the truth. */
import { Position, type Edge, type EdgeMarker, type Node, type NodeHandle, type XYPosition } from '@xyflow/react';
import { describeWhen, kindDefinition, outcomesOf, own, type GraphEdge, type GraphFile, type GraphNode, type KindDefinition } from '../graph/index.ts';
import { backEdges } from '../graph/backEdges.ts';
import { visibleText } from '../graph/visible.ts';
import type { CanvasOverlay } from '../store/index.ts';
import {
  drawnAsLoop,
  edgeRoute,
  placeLoopsFrom,
  handleBoxes,
  labelSize,
  nodeHeight,
  nodeRect,
  nodeWidth,
  type LabelBasis,
  sourceHandleIndex,
  sourcePoint,
  summaryLines,
  targetPoint,
  type LabelRequest,
  type LabelText,
  type PlacedLabel,
  type Point,
  type Rect,
  type Skills,
  unionOf,
} from './geometry.ts';
import { finish, finishInSlices, type Pausable } from '../ui/pausable.ts';
import type { LoopBasis } from './loopMoves.ts';

/** The id of a node's title or tools row, which name the node (a node id is unique in its graph, and one editor canvas is on the page). */
export const nodeTextId = (id: string, part: 'title' | 'tools') => `node-${part}-${id}`;

/** The source handle of edges whose condition is not a plain outcome. */
export const GENERAL_HANDLE = 'out';

export interface AgentNodeData extends Record<string, unknown> {
  node: GraphNode;
  /** The graph's skills: the node's rows show the MCP tools it calls (geometry.ts, mcpToolsOf). */
  skills: Skills;
  definition: KindDefinition;
  summary: readonly string[];
  isEntry: boolean;
  /** The graph's `finally` node: it writes a final response after any early stop. */
  isFinally: boolean;
  visits: number;
  breakpoint: boolean;
}

export interface ConditionEdgeData extends Record<string, unknown> {
  label: string;
  /** The edge's own note (`label` in the file), shown under its condition. */
  note: string | null;
  backEdge: boolean;
  fired: boolean;
  firedReason: string | null;
  /** Why the edge was tried and not taken at the selected step. */
  notTaken: string | null;
  /** Its drawing says its condition (saidByDrawing): it is labelled only when there is more to say. */
  quiet: boolean;
  visits: number;
  breakpoint: boolean;
}

export type AgentFlowNode = Node<AgentNodeData, 'agent'>;
export type ConditionFlowEdge = Edge<ConditionEdgeData, 'condition'>;

export interface FlowExtras {
  overlay: CanvasOverlay | null;
  selectedNodes: readonly string[];
  selectedEdges: readonly string[];
  nodeBreakpoints: readonly string[];
  edgeBreakpoints: readonly string[];
}

export const NO_EXTRAS: FlowExtras = { overlay: null, selectedNodes: [], selectedEdges: [], nodeBreakpoints: [], edgeBreakpoints: [] };

/** The outcome handle an edge leaves from: its own outcome's, or the general one. */
export const sourceHandleOf = (edge: GraphEdge, source: GraphNode | undefined): string | null => {
  if (!source || kindDefinition(source.kind).terminal) return null;
  const when = edge.when;
  if (typeof when === 'object' && 'outcome' in when && outcomesOf(source).includes(when.outcome)) return when.outcome;
  return GENERAL_HANDLE;
};

/** Edges that close a loop: back edges of a depth-first search from the entry (graph/backEdges.ts). */
export const findBackEdges = (graph: GraphFile): Set<string> => backEdges(graph.nodes, graph.edges, [graph.entry]);

/**
 * The flow objects of the last call, each with the inputs it was made from. React Flow re-renders a
 * node or edge whose object changed, so an object is reused for as long as its inputs stay the same:
 * a drag move, which replaces one GraphNode, gives new objects for that node and its edges only.
 */
export interface FlowCache {
  nodes: Map<string, Cached<AgentFlowNode>>;
  edges: Map<string, Cached<ConditionFlowEdge>>;
  /**
   * The last lists given out. A list whose every object was reused is given out again as the same
   * array: React Flow re-indexes every edge's connections when its `edges` prop changes, which a
   * drag move (edges unchanged, their routes held until the drop) would otherwise pay on each frame.
   */
  nodeList: AgentFlowNode[];
  edgeList: ConditionFlowEdge[];
  backEdges: { edges: GraphFile['edges']; entry: string; nodes: GraphFile['nodes']; back: Set<string> } | null;
  /** What the last lists were made from: a drag move changes one node of a big graph, and the rest need no look. */
  nodesFrom: { graph: GraphFile; extras: FlowExtras } | null;
  edgesFrom: { graph: GraphFile; extras: FlowExtras } | null;
}

interface Cached<T> {
  inputs: readonly unknown[];
  value: T;
}

export const createFlowCache = (): FlowCache => ({ nodes: new Map(), edges: new Map(), nodeList: [], edgeList: [], backEdges: null, nodesFrom: null, edgesFrom: null });

/**
 * The nodes of `next` that are not the very objects of `previous` at the same place, when every
 * node keeps its id and place (a move or an edit of some nodes); null when nodes came, went or
 * changed order.
 */
const replacedNodes = (previous: GraphFile, next: GraphFile): number[] | null => {
  if (previous.nodes.length !== next.nodes.length) return null;
  const replaced: number[] = [];
  for (let index = 0; index < next.nodes.length; index += 1) {
    const node = next.nodes[index];
    if (node === previous.nodes[index]) continue;
    if (node.id !== previous.nodes[index].id) return null;
    replaced.push(index);
  }
  return replaced;
};

const sameInputs = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/** `previous` when `next` holds the very same objects in the same order, else `next`. */
const sameList = <T>(previous: T[], next: T[]): T[] => (sameInputs(previous, next) ? previous : next);

/** The cached value of `id` when `inputs` are those it was made from; else a new one, kept for next time. */
const reuse = <T>(previous: Map<string, Cached<T>>, next: Map<string, Cached<T>>, id: string, inputs: readonly unknown[], make: () => T): T => {
  const cached = previous.get(id);
  const value = cached && sameInputs(cached.inputs, inputs) ? cached.value : make();
  next.set(id, { inputs, value });
  return value;
};

/**
 * Where React Flow finds each handle, from the geometry. Without them it mounts every node of the
 * graph once, however far out of view, to measure its handles: seconds for a big graph.
 */
const handlesOf = (node: GraphNode, skills: Skills, definition: KindDefinition): NodeHandle[] =>
  handleBoxes(node, skills, definition.terminal ? [] : [...outcomesOf(node), GENERAL_HANDLE]).map((box) => ({
    ...box,
    position: box.type === 'target' ? Position.Left : Position.Right,
  }));

export const toFlowNodes = (graph: GraphFile, extras: FlowExtras = NO_EXTRAS, cache: FlowCache = createFlowCache()): AgentFlowNode[] => {
  const selected = new Set(extras.selectedNodes);
  const breakpoints = new Set(extras.nodeBreakpoints);
  const overlay = extras.overlay;
  const parted = new Set(overlay?.parting?.nodes);
  const from = cache.nodesFrom;
  cache.nodesFrom = { graph, extras };
  // The same run marks, breakpoints, entry and finally, and the same nodes in the same order but
  // for some replaced or selected or no longer: only those are made again, the others keep their
  // objects (a drag starts by selecting the node it takes).
  const marksKept = from && from.extras.overlay === overlay && from.extras.nodeBreakpoints === extras.nodeBreakpoints && from.graph.entry === graph.entry && from.graph.finally === graph.finally && from.graph.skills === graph.skills;
  const replaced = marksKept ? replacedNodes(from.graph, graph) : null;
  if (replaced && from && from.extras.selectedNodes !== extras.selectedNodes) {
    const before = new Set(from.extras.selectedNodes);
    const flipped = new Set([...extras.selectedNodes.filter((id) => !before.has(id)), ...from.extras.selectedNodes.filter((id) => !selected.has(id))]);
    if (flipped.size > 0) graph.nodes.forEach((node, index) => flipped.has(node.id) && replaced.push(index));
  }
  const next = replaced ? cache.nodes : new Map<string, Cached<AgentFlowNode>>();
  const flowNode = (node: GraphNode) => {
    // `current` comes only from the run overlay (SPEC §5); `parted` marks where two compared runs part.
    const className = [overlay?.currentNode === node.id ? 'current' : '', parted.has(node.id) ? 'parted' : ''].filter(Boolean).join(' ') || undefined;
    const isSelected = selected.has(node.id);
    const isEntry = node.id === graph.entry;
    const isFinally = node.id === graph.finally;
    const visits = own(overlay?.nodeVisits, node.id) ?? 0;
    const breakpoint = breakpoints.has(node.id);
    const skills = graph.skills;
    return reuse(cache.nodes, next, node.id, [node, skills, className, isSelected, isEntry, isFinally, visits, breakpoint], (): AgentFlowNode => ({
      id: node.id,
      type: 'agent',
      position: node.position,
      selected: isSelected,
      className,
      // The geometry knows each node's size: React Flow need not mount it hidden to measure it first.
      measured: { width: nodeWidth(node), height: nodeHeight(node, skills) },
      handles: handlesOf(node, skills, kindDefinition(node.kind)),
      // Named by its title and its tools row (AgentNode.tsx), so a screen reader hears what it calls.
      domAttributes: { 'aria-labelledby': `${nodeTextId(node.id, 'title')} ${nodeTextId(node.id, 'tools')}` },
      data: { node, skills, definition: kindDefinition(node.kind), summary: summaryLines(node), isEntry, isFinally, visits, breakpoint },
    }));
  };
  if (replaced) {
    if (replaced.length === 0) return cache.nodeList;
    const flowNodes = [...cache.nodeList];
    for (const index of replaced) flowNodes[index] = flowNode(graph.nodes[index]);
    cache.nodeList = flowNodes;
    return flowNodes;
  }
  const flowNodes = graph.nodes.map(flowNode);
  cache.nodes = next;
  cache.nodeList = sameList(cache.nodeList, flowNodes);
  return cache.nodeList;
};

/**
 * Nodes (flow nodes, or the document's) with some of them at other places, the nodes being dragged:
 * only those get new objects, so what draws them (React Flow, the minimap) redraws them alone.
 */
export const withPositions = <N extends { id: string; position: XYPosition }>(nodes: N[], positions: ReadonlyMap<string, XYPosition>): N[] =>
  nodes.map((node) => {
    const position = positions.get(node.id);
    return position && (position.x !== node.position.x || position.y !== node.position.y) ? { ...node, position } : node;
  });

/**
 * Whether an edge's drawing says all its label would: it has no condition, or it leaves the outcome
 * row its condition names, and it has no note. Such an edge goes unlabelled unless there is more to
 * say (it is drawn as a loop, far from its row; a run tried it, or it fired for a reason of its
 * own; it has a breakpoint or a problem; it is selected), as in the editors that name an output at
 * its port: fewer labels, each clear of nodes and handles.
 */
export const saidByDrawing = (edge: GraphEdge, source: GraphNode | undefined): boolean => {
  if (edge.label) return false;
  if (edge.when === undefined || edge.when === 'always') return true;
  const handle = sourceHandleOf(edge, source);
  return handle !== null && handle !== GENERAL_HANDLE;
};

/**
 * What an edge's label says: the condition, the edge's note, and at a run's selected step why it
 * fired; null when the edge has no label (saidByDrawing, not a loop, nothing from the run).
 */
export const edgeLabelText = (edge: GraphEdge, overlay: CanvasOverlay | null, shape: { source: GraphNode | undefined; loop: boolean }): LabelText | null => {
  const label = describeWhen(edge.when);
  const fired = overlay?.firedEdge === edge.id;
  const reason = fired && overlay.firedReason && overlay.firedReason !== label ? overlay.firedReason : null;
  const visits = own(overlay?.edgeVisits, edge.id) ?? 0;
  const notTaken = own(overlay?.triedEdges, edge.id) !== undefined;
  if (!shape.loop && !reason && !notTaken && saidByDrawing(edge, shape.source)) return null;
  return {
    // Sized as drawn: the file's names with their escapes (ConditionEdge.tsx, Shown).
    lines: [label, ...(edge.label ? [edge.label] : []), ...(reason ? [reason] : [])].map(visibleText),
    // The badges beside the condition: the not-taken cross, the heat count.
    extra: (notTaken ? 18 : 0) + (visits > 0 ? 30 : 0),
  };
};

export interface EdgeLayout {
  labels: ReadonlyMap<string, PlacedLabel>;
  loops: ReadonlyMap<string, number>;
  /** What the labels were placed for: the next layout of the same nodes keeps those that still hold. */
  labelBasis: ReadonlyMap<string, LabelBasis>;
  /** The box every placed label is drawn in (none when labels are not placed): the view fits it too. */
  labelExtent: Rect | null;
  /** The labels are not placed yet (their placement loads after the first screen): none is drawn until they are. */
  labelsPending: boolean;
}

/** What is placed after the first screen: the labels, and the detours of edges round the nodes in their way. */
type LabelPlacement = typeof import('./edgePlacement.ts');
let placement: LabelPlacement | null = null;
let placementLoading: Promise<void> | null = null;

/**
 * Loads where labels go (edgePlacement.ts): the canvas asks after its first commit, the tests
 * first. Until then a layout places no label and says so (`labelsPending`): the first screen draws
 * the graph, its labels a moment later, in their places.
 */
export const loadLabelPlacement = (): Promise<void> =>
  (placementLoading ??= import('./edgePlacement.ts').then((loaded) => {
    placement = loaded;
    lastLayout = lastRoutes = null;
  }));

/** The same nodes in the same order, moved or edited or not. */
const sameNodeIds = (previous: GraphFile['nodes'], next: GraphFile['nodes']) =>
  previous === next || (previous.length === next.length && previous.every((node, index) => node.id === next[index].id));

/** Past this many edges labels go to the middle of their edge unchecked: placing them costs more than it gives. */
export const PLACE_LABELS_UP_TO = 400;

/**
 * The last answer, kept because the canvas asks twice for the graph it opens: once to draw it and
 * once, in the effect after, to fit the view to it, which would place every loop
 * and label a second time.
 */
let lastLayout: { graph: GraphFile; overlay: CanvasOverlay | null; layout: EdgeLayout } | null = null;

/**
 * Routes and label places for every edge: loops under the nodes they pass, labels clear of
 * nodes and of each other. Depends on the graph and the run overlay only, not on the selection.
 */
export const edgeLayout = (graph: GraphFile, overlay: CanvasOverlay | null = null): EdgeLayout => finish(layoutOf(graph, overlay));

/**
 * edgeLayout placed between frames: on a big graph placing every loop again takes tens of ms, which
 * after a drop held the frame that shows it. The answer is kept, so edgeLayout then gives it at once.
 */
export const edgeLayoutInSlices = (graph: GraphFile, overlay: CanvasOverlay | null): Promise<EdgeLayout> => finishInSlices(layoutOf(graph, overlay));

function* layoutOf(graph: GraphFile, overlay: CanvasOverlay | null): Pausable<EdgeLayout> {
  if (lastLayout?.graph === graph && lastLayout.overlay === overlay) return lastLayout.layout;
  // After a drop or an edit of the same nodes, the labels it does not concern stay where they were.
  const layout = yield* placeEdges(graph, overlay, lastLayout && sameNodeIds(lastLayout.graph.nodes, graph.nodes) ? lastLayout.layout.labelBasis : undefined);
  lastLayout = { graph, overlay, layout };
  return layout;
}

/** The layout's own back edges, kept while a drop keeps the edges (toFlowEdges keeps its own). */
const layoutCache = createFlowCache();

/** How many nodes or edges are gone through between two chances for the page to take its turn. */
const ITEMS_PER_PART = 512;

function* placeEdges(graph: GraphFile, overlay: CanvasOverlay | null, previous?: ReadonlyMap<string, LabelBasis>): Pausable<EdgeLayout> {
  // On a graph too big for its labels to be placed, a drop that no loop passes near keeps every loop.
  if (graph.edges.length > PLACE_LABELS_UP_TO) return { labels: new Map(), loops: keptLoops(graph) ?? (yield* placeAllLoops(graph)).loops, labelBasis: new Map(), labelExtent: null, labelsPending: false };
  const { nodes, ends, loops, obstacles } = yield* routesOf(graph);
  if (!placement) return { labels: new Map(), loops, labelBasis: new Map(), labelExtent: null, labelsPending: true };
  const requests: LabelRequest[] = [];
  for (const edge of graph.edges) {
    const end = ends.get(edge.id);
    if (!end) continue;
    const loopY = loops.get(edge.id) ?? null;
    const text = edgeLabelText(edge, overlay, { source: nodes.get(edge.source), loop: loopY !== null });
    if (text) requests.push({ id: edge.id, route: edgeRoute(end.from, end.to, loopY), size: labelSize(text) });
  }
  const { placed, basis, boxes } = placement.placeLabelsKeeping(obstacles, requests, previous);
  return { labels: placed, loops, labelBasis: basis, labelExtent: boxes.size > 0 ? unionOf(boxes.values()) : null, labelsPending: false };
}

/**
 * The last graph's loops and routes, and the loops' basis: they depend on the graph alone, so a
 * step of a run shown (a new overlay, the same graph) places the labels again and nothing else.
 * Placed again on every step, they were the largest part of the canvas's script between a step clicked and its frame.
 */
let lastRoutes: (Routes & { graph: GraphFile; basis: LoopBasis | null }) | null = null;
interface Routes {
  nodes: Map<string, GraphNode>;
  ends: Map<string, { from: Point; to: Point }>;
  loops: Map<string, number>;
  /** What labels keep clear of (none until the placement has loaded, which forgets these). */
  obstacles: ReturnType<LabelPlacement['nodeObstacles']>;
}

function* routesOf(graph: GraphFile): Pausable<Routes> {
  if (lastRoutes?.graph === graph) {
    loopBasis = lastRoutes.basis;
    return lastRoutes;
  }
  const { nodes, rects, ends, loops } = yield* placeAllLoops(graph);
  // A curve that would pass under a node it does not join goes round it; on a graph too big for its
  // labels to be placed, shown small, curves stay curves: looking for a way round costs more than it gives.
  if (placement) yield* placement.routeRoundNodes(graph.edges, ends, rects, loops);
  lastRoutes = { graph, basis: loopBasis, nodes, ends, loops, obstacles: placement ? graph.nodes.flatMap((node) => placement!.nodeObstacles(node, graph.skills)) : [] };
  return lastRoutes;
}

/** Where an edge's ends are drawn: a terminal node's edges leave from its input side. */
export const endsOf = (edge: GraphEdge, source: GraphNode, target: GraphNode, skills: Skills) => ({
  from: kindDefinition(source.kind).terminal ? targetPoint(source, skills) : sourcePoint(source, skills, sourceHandleIndex(source, edge)),
  to: targetPoint(target, skills),
});

/** What the last loops were placed from (loopMoves.ts). */
let loopBasis: LoopBasis | null = null;

/** The loops of `graph` from the last ones, placed again only where the edit since reached (loopMoves.ts); null when they must all be. */
const keptLoops = (graph: GraphFile): ReadonlyMap<string, number> | null =>
  // Until the placement has loaded (the first moments of the page), every loop is placed again.
  loopBasis && placement ? placement.loopsAfterEdit(loopBasis, graph, backEdgesOf(graph, layoutCache), endsOf) : null;

/** Every edge's ends and every loop's level, from scratch. */
function* placeAllLoops(graph: GraphFile) {
  const nodes = new Map<string, GraphNode>();
  const rects = new Map<string, Rect>();
  for (const node of graph.nodes) {
    nodes.set(node.id, node);
    rects.set(node.id, nodeRect(node, graph.skills));
    if (nodes.size % ITEMS_PER_PART === 0) yield;
  }
  const ends = new Map<string, { from: Point; to: Point }>();
  const loopEnds: { id: string; from: Point; to: Point; at: number }[] = [];
  const back = backEdgesOf(graph, layoutCache);
  const edgesOf = new Map<string, { edge: GraphEdge; at: number }[]>();
  for (const [at, edge] of graph.edges.entries()) {
    if (at % ITEMS_PER_PART === ITEMS_PER_PART - 1) yield;
    const source = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (!source || !target) continue;
    for (const id of new Set([edge.source, edge.target])) {
      const list = edgesOf.get(id);
      if (list) list.push({ edge, at });
      else edgesOf.set(id, [{ edge, at }]);
    }
    const end = endsOf(edge, source, target, graph.skills);
    ends.set(edge.id, end);
    if (drawnAsLoop(end.from, end.to, back.has(edge.id))) loopEnds.push({ id: edge.id, ...end, at });
  }
  const placement = yield* placeLoopsFrom(loopEnds, rects.values());
  loopBasis = { graph, placement, rects, edgesOf, indexOf: new Map(graph.nodes.map((node, index) => [node.id, index])), back };
  return { nodes, rects, ends, loops: new Map(placement.levels) };
}

/** Loops depend on the edges, the entry and the order of node ids only: a move keeps the last answer. */
const backEdgesOf = (graph: GraphFile, cache: FlowCache): Set<string> => {
  const last = cache.backEdges;
  if (last && last.edges === graph.edges && last.entry === graph.entry && sameNodeIds(last.nodes, graph.nodes)) {
    last.nodes = graph.nodes;
    return last.back;
  }
  const back = findBackEdges(graph);
  cache.backEdges = { edges: graph.edges, entry: graph.entry, nodes: graph.nodes, back };
  return back;
};

/**
 * One marker object for every edge, so that it never counts as a change. Written as the enum's
 * value: reading React Flow's enum here would pull React Flow into the layout worker, which uses this file.
 */
const MARKER_END: EdgeMarker = { type: 'arrowclosed', width: 18, height: 18 };

/**
 * The edges as React Flow objects. Their loop heights and label places (edgeLayout) are not in
 * them: the edges read those apart (edges/layoutStore.ts), so placing them again makes no new objects.
 */
export const toFlowEdges = (graph: GraphFile, extras: FlowExtras = NO_EXTRAS, cache: FlowCache = createFlowCache()): ConditionFlowEdge[] => {
  const from = cache.edgesFrom;
  cache.edgesFrom = { graph, extras };
  // The same edge marks (a node selected or not gives none), and nodes moved or edited but for what
  // an edge takes from them (its source's outcomes): the same list.
  const marksKept = from && from.extras.overlay === extras.overlay && from.extras.selectedEdges === extras.selectedEdges && from.extras.edgeBreakpoints === extras.edgeBreakpoints;
  if (from && marksKept && from.graph.edges === graph.edges && from.graph.entry === graph.entry) {
    const replaced = replacedNodes(from.graph, graph);
    const sameOutcomes = (index: number) => {
      const [before, after] = [from.graph.nodes[index], graph.nodes[index]];
      return before.kind === after.kind && before.config === after.config;
    };
    if (replaced?.every(sameOutcomes)) return cache.edgeList;
  }
  const back = backEdgesOf(graph, cache);
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const overlay = extras.overlay;
  const selected = new Set(extras.selectedEdges);
  const breakpoints = new Set(extras.edgeBreakpoints);
  const next = new Map<string, Cached<ConditionFlowEdge>>();
  const flowEdges = graph.edges.map((edge) => {
    const fired = overlay?.firedEdge === edge.id;
    const animated = fired && !overlay.still;
    const parting = overlay?.parting;
    const backEdge = back.has(edge.id);
    const className = [
      backEdge ? 'back-edge' : 'forward-edge', fired ? 'fired' : '',
      parting?.leftEdge === edge.id ? 'parted-left' : '', parting?.rightEdge === edge.id ? 'parted-right' : '',
    ].filter(Boolean).join(' ');
    const sourceHandle = sourceHandleOf(edge, nodes.get(edge.source));
    const isSelected = selected.has(edge.id);
    const firedReason = fired ? overlay.firedReason : null;
    const notTaken = own(overlay?.triedEdges, edge.id) ?? null;
    const visits = own(overlay?.edgeVisits, edge.id) ?? 0;
    const breakpoint = breakpoints.has(edge.id);
    const inputs = [edge, className, animated, sourceHandle, isSelected, firedReason, notTaken, visits, breakpoint];
    return reuse(cache.edges, next, edge.id, inputs, (): ConditionFlowEdge => ({
      id: edge.id,
      type: 'condition',
      source: edge.source,
      target: edge.target,
      sourceHandle,
      selected: isSelected,
      className,
      animated,
      markerEnd: MARKER_END,
      // The target end always; the source end once the edge is selected: its anchor sits on the
      // outcome handle, and would otherwise swallow every new connection drawn from that row.
      reconnectable: isSelected ? true : 'target',
      data: { label: describeWhen(edge.when), note: edge.label ?? null, backEdge, fired, firedReason, notTaken, quiet: saidByDrawing(edge, nodes.get(edge.source)), visits, breakpoint },
    }));
  });
  cache.edges = next;
  cache.edgeList = sameList(cache.edgeList, flowEdges);
  return cache.edgeList;
};
