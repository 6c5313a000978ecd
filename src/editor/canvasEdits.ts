/**
 * What the canvas does to the document when a person connects, reconnects, deletes or drops onto
 * it. None of it draws the first screen, so it loads just after the canvas's first commit, with
 * the shortcuts; a gesture made before then is kept and made once it has (Canvas.tsx).
 */
import type { Connection, useStoreApi } from '@xyflow/react';
import { addNode, connect, NODE_KINDS, removeEdges, removeNodes, type GraphFile, type NodeKind, type Position } from '../graph/index.ts';
import { rewireEdge } from '../graph/inspectorOps.ts';
import { createNode, type Box } from '../graph/placement.ts';
import { useApp } from '../store/index.ts';
import type { Dropped } from './dropTarget.ts';
import { GENERAL_HANDLE, type AgentFlowNode, type ConditionFlowEdge } from './flowAdapter.ts';
import { nodeRect } from './geometry.ts';

type StoreApi = ReturnType<typeof useStoreApi>;

const isKind = (value: string): value is NodeKind => (NODE_KINDS as readonly string[]).includes(value);

/** How far inside the canvas's edges a node added by a drop is kept, in screen pixels. */
const DROP_MARGIN = 16;
/** How far the view pans in a frame, at most, while a gesture's pointer is past the canvas's edge (React Flow's own speed). */
const EDGE_PAN_SPEED = 15;
/** How far past the edge the pointer is when the pan reaches full speed, in screen pixels. */
const EDGE_PAN_RAMP = 40;

/**
 * How far the view pans this frame while a connection or a node is dragged with the pointer at
 * `pointer` (client pixels), for a canvas whose box on screen is `box`: nothing while the pointer
 * is inside the canvas, so that every node the canvas shows can be reached and dropped on without
 * the view sliding under the pointer (React Flow pans within 40 px of the edge, where a drop or a
 * fit may place nodes); past the edge, towards it, faster the further past.
 */
export const panPastEdge = (pointer: Position, box: Box): Position => {
  const along = (at: number, from: number, to: number) => {
    const past = at < from ? at - from : at > to ? at - to : 0;
    return past === 0 ? 0 : -Math.sign(past) * EDGE_PAN_SPEED * Math.min(1, Math.abs(past) / EDGE_PAN_RAMP);
  };
  return { x: along(pointer.x, box.x, box.x + box.width), y: along(pointer.y, box.y, box.y + box.height) };
};

/** The end of the gesture followPastEdge follows, while one lasts: the page has one pointer. */
let followed: (() => void) | undefined;

/**
 * Follows the pointer of a connection or node drag over the whole page, from its start to its end
 * (the call with no arguments). While a connection is dragged, every node's body is its target
 * (editor.css): the canvas says when. Past the canvas's edge, a connection's view is panned here by
 * panPastEdge on each frame; a dragged node's by React Flow, which pans (and moves the node with
 * it) while its store's flag is on, read on each frame: on here while the pointer is past the edge only.
 */
export function followPastEdge(canvas?: HTMLElement, store?: StoreApi, gesture?: 'connect' | 'drag') {
  followed?.();
  followed = undefined;
  if (!canvas || !store) return;
  let by: Position = { x: 0, y: 0 };
  let frame = 0;
  const isPast = () => by.x !== 0 || by.y !== 0;
  const move = (event: PointerEvent) => {
    const { x, y, width, height } = canvas.getBoundingClientRect();
    by = panPastEdge({ x: event.clientX, y: event.clientY }, { x, y, width, height });
    if (gesture === 'drag' && store.getState().autoPanOnNodeDrag !== isPast()) store.setState({ autoPanOnNodeDrag: isPast() });
  };
  const step = () => {
    if (isPast()) void store.getState().panBy(by);
    frame = requestAnimationFrame(step);
  };
  // Pointer events, each before its mouse event: React Flow follows a drag by the mouse events (which
  // a node drag's listener stops from reaching the page), and reads the flag set here in the same move.
  document.addEventListener('pointermove', move);
  if (gesture === 'connect') frame = requestAnimationFrame(step);
  canvas.classList.toggle('is-connecting', gesture === 'connect');
  followed = () => {
    canvas.classList.remove('is-connecting');
    document.removeEventListener('pointermove', move);
    cancelAnimationFrame(frame);
    // Set only when it changes: each setting runs every subscriber of React Flow's store.
    if (store.getState().autoPanOnNodeDrag) store.setState({ autoPanOnNodeDrag: false });
  };
}

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
  useApp.getState().edit((current) => rewireEdge(current, old.id, connection.source, connection.target, outcomeOf(connection)));
};

/** Removes nodes (with their edges) and edges as one undoable edit. */
export const removeElements = ({ nodes: gone, edges: goneEdges }: { nodes: AgentFlowNode[]; edges: ConditionFlowEdge[] }) => {
  if (gone.length === 0 && goneEdges.length === 0) return;
  const { edit, select } = useApp.getState();
  edit((graph) => removeEdges(removeNodes(graph, gone.map((node) => node.id)), goneEdges.map((edge) => edge.id)));
  select({ nodes: [], edges: [] });
};

/** A palette item dropped adds its kind centred where it was let go, whole in view; a file dropped is imported. */
export const drop = ({ kind, file, at }: Dropped, toFlow: (point: Position) => Position) => {
  if (isKind(kind)) {
    const { x, y } = centredOn(useApp.getState().graph, kind, toFlow(at), shownFlow(toFlow, DROP_MARGIN));
    addNodeAt(kind, { x, y });
    return;
  }
  if (file) void import('./importExport.ts').then(({ importFile }) => importFile(file));
};
