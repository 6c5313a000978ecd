/** Our graph document as React Flow nodes and edges. React Flow stays at this edge: the store's graph is the truth. */
import { MarkerType, type Edge, type Node } from '@xyflow/react';
import { describeWhen, kindDefinition, outcomesOf, own, type GraphEdge, type GraphFile, type GraphNode, type KindDefinition } from '../graph/index.ts';
import type { CanvasOverlay } from '../store/index.ts';
import {
  drawnAsLoop,
  edgeRoute,
  labelSize,
  loopLevels,
  nodeRect,
  placeLabels,
  sourceHandleIndex,
  sourcePoint,
  summaryLines,
  targetPoint,
  type LabelRequest,
  type LabelText,
  type PlacedLabel,
  type Point,
  type Rect,
} from './geometry.ts';

/** The source handle of edges whose condition is not a plain outcome. */
export const GENERAL_HANDLE = 'out';

export interface AgentNodeData extends Record<string, unknown> {
  node: GraphNode;
  definition: KindDefinition;
  summary: string[];
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
  visits: number;
  breakpoint: boolean;
  /** Where the label sits, clear of nodes and other labels. */
  place: PlacedLabel;
  /** The height of the bottom run of an edge drawn as a loop under the nodes; null for a curve. */
  loopY: number | null;
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

/**
 * Edges that close a loop: back edges of a depth-first search from the entry (then from any node
 * it did not reach), tried in file order so the answer is stable.
 */
export const findBackEdges = (graph: GraphFile): Set<string> => {
  const outgoing = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    const list = outgoing.get(edge.source);
    if (list) list.push(edge);
    else outgoing.set(edge.source, [edge]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<string>();
  const visit = (start: string) => {
    // Iterative, so that a long chain of nodes does not overflow the call stack.
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const edges = outgoing.get(frame.id) ?? [];
      if (frame.next >= edges.length) {
        state.set(frame.id, 'done');
        stack.pop();
        continue;
      }
      const edge = edges[frame.next++];
      const seen = state.get(edge.target);
      if (seen === 'open') back.add(edge.id);
      else if (seen === undefined) {
        state.set(edge.target, 'open');
        stack.push({ id: edge.target, next: 0 });
      }
    }
  };
  const ids = new Set(graph.nodes.map((node) => node.id));
  if (ids.has(graph.entry)) visit(graph.entry);
  for (const node of graph.nodes) if (!state.has(node.id)) visit(node.id);
  return back;
};

export const toFlowNodes = (graph: GraphFile, extras: FlowExtras = NO_EXTRAS): AgentFlowNode[] => {
  const selected = new Set(extras.selectedNodes);
  const breakpoints = new Set(extras.nodeBreakpoints);
  const overlay = extras.overlay;
  const parted = new Set(overlay?.parting?.nodes);
  return graph.nodes.map((node) => {
    const definition = kindDefinition(node.kind);
    return {
      id: node.id,
      type: 'agent',
      position: node.position,
      selected: selected.has(node.id),
      // `current` comes only from the run overlay (SPEC §5); `parted` marks where two compared runs part.
      className: [overlay?.currentNode === node.id ? 'current' : '', parted.has(node.id) ? 'parted' : ''].filter(Boolean).join(' ') || undefined,
      data: {
        node,
        definition,
        summary: summaryLines(node),
        isEntry: node.id === graph.entry,
        isFinally: node.id === graph.finally,
        visits: own(overlay?.nodeVisits, node.id) ?? 0,
        breakpoint: breakpoints.has(node.id),
      },
    };
  });
};

/** What an edge's label says: the condition, the edge's note, and at a run's selected step why it fired. */
export const edgeLabelText = (edge: GraphEdge, overlay: CanvasOverlay | null): LabelText => {
  const label = describeWhen(edge.when);
  const fired = overlay?.firedEdge === edge.id;
  const reason = fired && overlay.firedReason && overlay.firedReason !== label ? overlay.firedReason : null;
  const visits = own(overlay?.edgeVisits, edge.id) ?? 0;
  const notTaken = own(overlay?.triedEdges, edge.id) !== undefined;
  return {
    lines: [label, ...(edge.label ? [edge.label] : []), ...(reason ? [reason] : [])],
    // The badges beside the condition: the not-taken cross, the heat count.
    extra: (notTaken ? 18 : 0) + (visits > 0 ? 30 : 0),
  };
};

export interface EdgeLayout {
  labels: ReadonlyMap<string, PlacedLabel>;
  loops: ReadonlyMap<string, number>;
}

const MIDDLE: PlacedLabel = { t: 0.5, dx: 0, dy: 0 };

/** Past this many edges labels go to the middle of their edge unchecked: placing them costs more than it gives. */
export const PLACE_LABELS_UP_TO = 400;

/**
 * Routes and label places for every edge: loops under the nodes they pass, labels clear of
 * nodes and of each other. Depends on the graph and the run overlay only, not on the selection.
 */
export const edgeLayout = (graph: GraphFile, overlay: CanvasOverlay | null = null): EdgeLayout => {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const rects = new Map<string, Rect>(graph.nodes.map((node) => [node.id, nodeRect(node)]));
  const ends = new Map<string, { from: Point; to: Point }>();
  for (const edge of graph.edges) {
    const source = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (!source || !target) continue;
    ends.set(edge.id, { from: kindDefinition(source.kind).terminal ? targetPoint(source) : sourcePoint(source, sourceHandleIndex(source, edge)), to: targetPoint(target) });
  }
  const loops = loopLevels(
    [...ends].filter(([, end]) => drawnAsLoop(end.from, end.to)).map(([id, end]) => ({ id, ...end })),
    rects.values(),
  );
  if (graph.edges.length > PLACE_LABELS_UP_TO) return { labels: new Map(), loops };
  const requests: LabelRequest[] = [];
  for (const edge of graph.edges) {
    const end = ends.get(edge.id);
    if (!end) continue;
    requests.push({ id: edge.id, route: edgeRoute(end.from, end.to, loops.get(edge.id) ?? null), size: labelSize(edgeLabelText(edge, overlay)) });
  }
  return { labels: placeLabels([...rects.values()], requests), loops };
};

export const toFlowEdges = (graph: GraphFile, extras: FlowExtras = NO_EXTRAS, layout: EdgeLayout = edgeLayout(graph, extras.overlay)): ConditionFlowEdge[] => {
  const back = findBackEdges(graph);
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const overlay = extras.overlay;
  const selected = new Set(extras.selectedEdges);
  const breakpoints = new Set(extras.edgeBreakpoints);
  return graph.edges.map((edge) => {
    const fired = overlay?.firedEdge === edge.id;
    const parting = overlay?.parting;
    const classes = [
      back.has(edge.id) ? 'back-edge' : 'forward-edge', fired ? 'fired' : '',
      parting?.leftEdge === edge.id ? 'parted-left' : '', parting?.rightEdge === edge.id ? 'parted-right' : '',
    ].filter(Boolean).join(' ');
    return {
      id: edge.id,
      type: 'condition',
      source: edge.source,
      target: edge.target,
      sourceHandle: sourceHandleOf(edge, nodes.get(edge.source)),
      selected: selected.has(edge.id),
      className: classes,
      animated: fired,
      markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
      // Only the target end: a source end's anchor would sit on the outcome handle and swallow new connections from it.
      reconnectable: 'target',
      data: {
        label: describeWhen(edge.when),
        note: edge.label ?? null,
        backEdge: back.has(edge.id),
        fired,
        firedReason: fired ? overlay.firedReason : null,
        notTaken: own(overlay?.triedEdges, edge.id) ?? null,
        visits: own(overlay?.edgeVisits, edge.id) ?? 0,
        breakpoint: breakpoints.has(edge.id),
        place: layout.labels.get(edge.id) ?? MIDDLE,
        loopY: layout.loops.get(edge.id) ?? null,
      },
    };
  });
};
