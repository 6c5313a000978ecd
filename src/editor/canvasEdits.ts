/**
 * What the canvas does to the document when a person connects, reconnects, deletes or drops onto
 * it. None of it draws the first screen, so it loads just after the canvas's first commit, with
 * the shortcuts (a gesture made before then does nothing).
 */
import type { Connection } from '@xyflow/react';
import { addNode, connect, NODE_KINDS, removeEdges, removeNodes, updateEdge, type GraphFile, type NodeKind, type Position } from '../graph/index.ts';
import { createNode, type Box } from '../graph/placement.ts';
import { useApp } from '../store/index.ts';
import { GENERAL_HANDLE, type AgentFlowNode, type ConditionFlowEdge } from './flowAdapter.ts';
import { nodeRect } from './geometry.ts';

/** The drag-and-drop type of a palette item. */
export const KIND_DRAG_TYPE = 'application/x-loopscope-kind';

const isKind = (value: string): value is NodeKind => (NODE_KINDS as readonly string[]).includes(value);

/** How far inside the canvas's edges a node added by a drop is kept, in screen pixels. */
const DROP_MARGIN = 16;

/** The part of the flow the canvas shows (less `margin` screen pixels each side), or null when there is no canvas. */
export const shownFlow = (toFlow: (point: Position) => Position, margin = 0): Box | null => {
  const pane = document.querySelector('.canvas .react-flow')?.getBoundingClientRect();
  if (!pane) return null;
  const from = toFlow({ x: pane.left + margin, y: pane.top + margin });
  const to = toFlow({ x: pane.right - margin, y: pane.bottom - margin });
  return { x: from.x, y: from.y, width: to.x - from.x, height: to.y - from.y };
};

/**
 * The box of a new node of `kind` centred on `point`, moved just enough to lie whole inside `room`
 * where it fits (else from room's top left): a node is added where the person looks, never with
 * only its corner on screen.
 */
export const centredOn = (graph: GraphFile, kind: NodeKind, point: Position, room: Box | null): Box => {
  const { width, height } = nodeRect(createNode(graph, kind, point), graph.skills);
  const within = (centre: number, size: number, from: number, span: number) => Math.round(Math.max(from, Math.min(centre - size / 2, from + span - size)));
  const x = room ? within(point.x, width, room.x, room.width) : Math.round(point.x - width / 2);
  const y = room ? within(point.y, height, room.y, room.height) : Math.round(point.y - height / 2);
  return { x, y, width, height };
};

/** Adds a node of a kind at a point of the flow and selects it, as one undoable edit. */
export const addNodeAt = (kind: NodeKind, position: Position) => {
  const { edit, select } = useApp.getState();
  let id = '';
  edit((graph) => {
    const node = createNode(graph, kind, position);
    id = node.id;
    return addNode(graph, node);
  });
  select({ nodes: [id], edges: [] });
};

/** The outcome a connection's source handle stands for (none for the general handle). */
const outcomeOf = (connection: Connection) => (connection.sourceHandle && connection.sourceHandle !== GENERAL_HANDLE ? connection.sourceHandle : null);

export const connectEdge = (connection: Connection) => {
  useApp.getState().edit((current) => connect(current, connection.source, connection.target, outcomeOf(connection)));
};

export const reconnectEdge = (old: ConditionFlowEdge, connection: Connection) => {
  useApp.getState().edit((current) =>
    updateEdge(current, old.id, (edge) => {
      const outcome = outcomeOf(connection);
      const wasOutcome = typeof edge.when === 'object' && 'outcome' in edge.when;
      const { when, ...rest } = edge;
      // The handle an edge leaves from is its outcome; other conditions stay as they were.
      const nextWhen = outcome ? { outcome } : wasOutcome ? undefined : when;
      return { ...rest, source: connection.source, target: connection.target, ...(nextWhen === undefined ? {} : { when: nextWhen }) };
    }),
  );
};

/** Removes nodes (with their edges) and edges as one undoable edit. */
export const removeElements = ({ nodes: gone, edges: goneEdges }: { nodes: AgentFlowNode[]; edges: ConditionFlowEdge[] }) => {
  if (gone.length === 0 && goneEdges.length === 0) return;
  const { edit, select } = useApp.getState();
  edit((graph) => removeEdges(removeNodes(graph, gone.map((node) => node.id)), goneEdges.map((edge) => edge.id)));
  select({ nodes: [], edges: [] });
};

/** A palette item or a file dragged over the canvas may be dropped there. */
export const acceptDrop = (event: React.DragEvent) => {
  if (event.dataTransfer.types.includes(KIND_DRAG_TYPE) || event.dataTransfer.types.includes('Files')) {
    event.preventDefault();
    event.dataTransfer.dropEffect = event.dataTransfer.types.includes('Files') ? 'copy' : 'move';
  }
};

/** A palette item dropped adds its kind centred where it was let go, whole in view; a file dropped is imported. */
export const drop = (event: React.DragEvent, toFlow: (point: Position) => Position) => {
  const kind = event.dataTransfer.getData(KIND_DRAG_TYPE);
  if (isKind(kind)) {
    event.preventDefault();
    const { x, y } = centredOn(useApp.getState().graph, kind, toFlow({ x: event.clientX, y: event.clientY }), shownFlow(toFlow, DROP_MARGIN));
    addNodeAt(kind, { x, y });
    return;
  }
  const file = event.dataTransfer.files[0];
  if (file) {
    event.preventDefault();
    void import('./importExport.ts').then(({ importFile }) => importFile(file));
  }
};
