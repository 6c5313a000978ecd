/**
 * What the canvas does to the document when a person connects, reconnects, deletes or drops onto
 * it. None of it draws the first screen, so it loads just after the canvas's first commit, with
 * the shortcuts (a gesture made before then does nothing).
 */
import type { Connection } from '@xyflow/react';
import { addNode, connect, NODE_KINDS, removeEdges, removeNodes, updateEdge, type NodeKind, type Position } from '../graph/index.ts';
import { createNode } from '../graph/placement.ts';
import { useApp } from '../store/index.ts';
import { GENERAL_HANDLE, type AgentFlowNode, type ConditionFlowEdge } from './flowAdapter.ts';

/** The drag-and-drop type of a palette item. */
export const KIND_DRAG_TYPE = 'application/x-loopscope-kind';

const isKind = (value: string): value is NodeKind => (NODE_KINDS as readonly string[]).includes(value);

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

/** A palette item dropped adds its kind where it was let go; a file dropped is imported. */
export const drop = (event: React.DragEvent, toFlow: (point: Position) => Position) => {
  const kind = event.dataTransfer.getData(KIND_DRAG_TYPE);
  if (isKind(kind)) {
    event.preventDefault();
    addNodeAt(kind, toFlow({ x: event.clientX, y: event.clientY }));
    return;
  }
  const file = event.dataTransfer.files[0];
  if (file) {
    event.preventDefault();
    void import('./importExport.ts').then(({ importFile }) => importFile(file));
  }
};
