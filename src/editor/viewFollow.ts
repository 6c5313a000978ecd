/**
 * The editor's view following what is drawn (issue 53). Loaded after the canvas's first commit
 * (Canvas.tsx); the rules are in docs/canvas.md, "Reading and fitting".
 *
 * - **An edit that draws past the view brings it in.** After an edit or a step of a run, when the
 *   drawing (nodes, loops, labels: fit.ts graphBounds) reaches past the part of the canvas a fit may
 *   use, a view still fitted (the person has not panned or zoomed since it was fitted or opened) is
 *   fitted whole again where its text stays 10 px or more, else kept readable and panned to show
 *   what grew; a view the person moved keeps its zoom and pans just enough to show the sides of
 *   the drawing that grew, where they fit at that zoom. A drawing that did not grow past the view
 *   (an edge removed) moves nothing, nor does a node moved or its settings changed, nor anything
 *   while the person pans.
 * - **Fit View reads.** Where the whole graph fits only with its text under 10 px, Fit View lays
 *   it out as Auto layout does and, where that fits readable, keeps it, as one edit Undo takes
 *   back, and says so on the canvas. Where no layout fits readable, it shows the whole graph small.
 */
import type { Viewport } from '@xyflow/react';
import { moveNodes, type GraphFile } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { freeRoom, type Room } from '../ui/freeRoom.ts';
import { onFitRequest, onViewTaken, requestFit } from '../ui/fitRequest.ts';
import { useViewSlot } from '../ui/viewSlot.ts';
import { FIT_MARGIN, graphBounds, LARGE_GRAPH, MIN_FIT_ZOOM, viewportFor } from './fit.ts';
import { edgeLayout } from './flowAdapter.ts';
import { nodeRect, type Rect } from './geometry.ts';
import { layoutInWorker } from './runLayout.ts';

/** What the canvas lends the view's rules. */
export interface FollowedCanvas {
  element: HTMLElement;
  /** Whether the view is still the fit's: the person has not panned or zoomed it since. */
  fitted: { current: boolean };
  getViewport: () => Viewport;
  setViewport: (view: Viewport) => unknown;
}

/** How far a drawing may reach past the room before it counts as out of view: a hair, not a label. */
const SLACK = 1;

/**
 * Along one axis, the translation that shows the sides of `[start, end]` (flow units) that grew past
 * `[low, high]` (screen), at `zoom`, `margin` inside them; the same translation when none did. A
 * grown end is shown first, then a grown start over it: the start (the entry's side) wins a tie.
 */
const panAlong = (start: number, end: number, grew: { start: boolean; end: boolean }, translate: number, zoom: number, low: number, high: number, margin: number) => {
  let next = translate;
  if (grew.end && end * zoom + next > high + SLACK) next = high - margin - end * zoom;
  if (grew.start && start * zoom + next < low - SLACK) next = low + margin - start * zoom;
  return next;
};

/** Whether `bounds` (flow) lie inside `room` (screen, relative to the canvas) at `view`. */
export const inView = (bounds: Rect, view: Viewport, room: Room) =>
  bounds.x * view.zoom + view.x >= room.x - SLACK &&
  (bounds.x + bounds.width) * view.zoom + view.x <= room.x + room.width + SLACK &&
  bounds.y * view.zoom + view.y >= room.y - SLACK &&
  (bounds.y + bounds.height) * view.zoom + view.y <= room.y + room.height + SLACK;

/**
 * The view a person moved, panned at its zoom just enough to show the sides of the drawing that grew
 * from `before` to `after` past `room`; null when nothing grew out of view. Each side is brought
 * in FIT_MARGIN inside the room, less where the room is narrow.
 */
export const panToGrowth = (before: Rect | null, after: Rect, view: Viewport, room: Room): Viewport | null => {
  const grewX = { start: !before || after.x < before.x - SLACK, end: !before || after.x + after.width > before.x + before.width + SLACK };
  const grewY = { start: !before || after.y < before.y - SLACK, end: !before || after.y + after.height > before.y + before.height + SLACK };
  const margin = (span: number, size: number) => Math.max(0, Math.min(FIT_MARGIN, (size - span * view.zoom) / 2));
  const x = panAlong(after.x, after.x + after.width, grewX, view.x, view.zoom, room.x, room.x + room.width, margin(after.width, room.width));
  const y = panAlong(after.y, after.y + after.height, grewY, view.y, view.zoom, room.y, room.y + room.height, margin(after.height, room.height));
  return x === view.x && y === view.y ? null : { x, y, zoom: view.zoom };
};

/**
 * A fitted view the drawing grew past: fitted whole again where that is readable (or no smaller
 * than the view was), else at the readable zoom (or the view's, if smaller), about the room's
 * centre, panned to show what grew.
 */
export const refitted = (before: Rect | null, after: Rect, view: Viewport, room: Room): Viewport | null => {
  const whole = viewportFor(after, room, 'whole');
  const zoom = Math.min(view.zoom, MIN_FIT_ZOOM);
  if (whole.zoom >= zoom) return whole;
  const [centreX, centreY] = [room.x + room.width / 2, room.y + room.height / 2];
  const scaled = { x: centreX - ((centreX - view.x) * zoom) / view.zoom, y: centreY - ((centreY - view.y) * zoom) / view.zoom, zoom };
  return panToGrowth(before, after, scaled, room) ?? scaled;
};

/** Whether `after` reaches past `before` on some side. */
const grewPast = (before: Rect, after: Rect) =>
  after.x < before.x - SLACK ||
  after.y < before.y - SLACK ||
  after.x + after.width > before.x + before.width + SLACK ||
  after.y + after.height > before.y + before.height + SLACK;

/** The room of the canvas a fit may use (freeRoom.ts), as the canvas is now. */
const roomOf = (element: HTMLElement) => {
  const box = element.getBoundingClientRect();
  return freeRoom(element, { width: box.width, height: box.height });
};

const boundsOf = (graph: GraphFile, overlay: Parameters<typeof edgeLayout>[1]) => graphBounds(graph, edgeLayout(graph, overlay));

/**
 * Brings into view what an edit or a run's step draws past it, as the rule above says, in the same
 * task as the edit: the view a person sees next already shows it. Returns the way to stop.
 */
export const followDrawing = (canvas: FollowedCanvas) => {
  const { graph, overlay } = useApp.getState();
  let before = graph.nodes.length > LARGE_GRAPH ? null : boundsOf(graph, overlay);
  return useApp.subscribe((state, previous) => {
    if (state.graph === previous.graph && state.overlay === previous.overlay) return;
    // Nor a move or a node's settings (the same nodes and edges): the person put the node there, and
    // a drop's routes are placed between frames (Canvas.tsx), not in its own task. `before` stays.
    if (state.overlay === previous.overlay && state.graph.edges === previous.graph.edges && state.graph.nodes.length === previous.graph.nodes.length) return;
    if (state.graph.nodes.length === 0 || state.graph.nodes.length > LARGE_GRAPH) return void (before = null);
    const after = boundsOf(state.graph, state.overlay);
    const grownFrom = before;
    before = after;
    // A graph opened is fitted by the canvas itself; a view the person is panning is theirs (a live run's steps go on meanwhile).
    if (!after || state.documentVersion !== previous.documentVersion || canvas.element.querySelector('.react-flow__pane.dragging')) return;
    // A node added (dropped, pasted, added by key) is placed in view by its own rule (canvasEdits.ts):
    // the view holds still while the person places nodes where they look, and so does one that
    // drew nothing past what was drawn before (an edge between two nodes in view).
    if (state.overlay === previous.overlay && state.graph.edges === previous.graph.edges) return;
    if (grownFrom && !grewPast(grownFrom, after)) return;
    const room = roomOf(canvas.element);
    const view = canvas.getViewport();
    if (inView(after, view, room)) return;
    const next = canvas.fitted.current ? refitted(grownFrom, after, view, room) : panToGrowth(grownFrom, after, view, room);
    if (next) canvas.setViewport(next);
  });
};

/**
 * Whether some layout of `graph` could fit `room` readable: its nodes' area is no more than the
 * room's at the readable zoom (a cheap bound: a graph past it is not laid out in vain).
 */
const mayFitReadable = (graph: GraphFile, room: Room) =>
  graph.nodes.reduce((area, node) => {
    const { width, height } = nodeRect(node, graph.skills);
    return area + width * height;
  }, 0) *
    MIN_FIT_ZOOM ** 2 <=
  room.width * room.height;

/** A note on the canvas with one button; it goes at the next edit or run. */
const sayOnCanvas = (element: HTMLElement, text: string, action: string, onClick: () => void) => {
  element.querySelector('.fit-note')?.remove();
  const note = element.ownerDocument.createElement('p');
  note.className = 'fit-note';
  note.setAttribute('role', 'status');
  note.textContent = text;
  const button = element.ownerDocument.createElement('button');
  button.type = 'button';
  button.textContent = action;
  button.addEventListener('click', onClick);
  note.append(button);
  element.append(note);
  const stop = useApp.subscribe((state, previous) => {
    if (state.graph === previous.graph && state.overlay === previous.overlay) return;
    stop();
    note.remove();
  });
};

/**
 * Whether the canvas can show the graph on screen whole only with its text under 10 px, where some
 * layout of it might read: none is looked for a graph of one node, too big, or a server's.
 */
const unreadableAsPlaced = (room: Room) => {
  const { graph, overlay, foreign } = useApp.getState();
  const bounds = graph.nodes.length > 1 && graph.nodes.length <= LARGE_GRAPH && foreign === null ? boundsOf(graph, overlay) : null;
  return bounds !== null && viewportFor(bounds, room, 'whole').zoom < MIN_FIT_ZOOM && mayFitReadable(graph, room);
};

/** The graph on screen laid out as Auto layout would for `room`, where that fits it whole readable and the graph is unchanged meanwhile. */
const readableLayout = async (room: Room): Promise<GraphFile | null> => {
  const { graph } = useApp.getState();
  const positions = await layoutInWorker({ graph, canvas: { width: room.width, height: room.height } });
  const state = useApp.getState();
  if (state.graph !== graph) return null;
  const laid = moveNodes(graph, positions);
  return viewportFor(boundsOf(laid, state.overlay)!, room, 'whole').zoom >= MIN_FIT_ZOOM ? laid : null;
};

/** Puts the graph laid out in place, as one edit Undo takes back, says so, and fits it. */
const layOut = (element: HTMLElement, laid: GraphFile) => {
  useApp.getState().edit(() => laid);
  sayOnCanvas(element, 'Laid out to fit readable.', 'Undo', () => useApp.getState().undo());
  requestFit();
};

/**
 * Fit View (the canvas fits the whole graph at once, Canvas.tsx): where that draws the text under
 * 10 px, the graph is laid out as Auto layout would, and kept if it then fits readable, unless the
 * graph was edited meanwhile. Returns the way to stop.
 */
export const readableFitView = (canvas: FollowedCanvas) =>
  onFitRequest(() => {
    const room = roomOf(canvas.element);
    if (unreadableAsPlaced(room)) void readableLayout(room).then((laid) => laid && layOut(canvas.element, laid));
  });

/**
 * A graph opened (imported, chosen under Graphs, or on screen when the canvas first draws) that its
 * canvas shows whole only with its text under 10 px: where a layout of it reads, the canvas offers
 * it ("Lay out to fit": one click, one edit Undo takes back). Its positions are its author's: they
 * are not rewritten unasked. Returns the way to stop.
 */
export const offerLayoutOnOpen = (canvas: FollowedCanvas) => {
  const offer = () => {
    const room = roomOf(canvas.element);
    if (!unreadableAsPlaced(room)) return;
    const { documentVersion } = useApp.getState();
    void readableLayout(room).then((laid) => {
      if (laid && useApp.getState().documentVersion === documentVersion) sayOnCanvas(canvas.element, 'Too big to read whole as placed.', 'Lay out to fit', () => layOut(canvas.element, laid));
    });
  };
  offer();
  return useApp.subscribe((state, previous) => {
    if (state.documentVersion !== previous.documentVersion) offer();
  });
};

/**
 * A zoom by a button or the minimap is the person's, as their own pan or zoom is (unless the
 * controls drive a canvas drawn over this one): the view is no longer fitted.
 */
const takenByZoom = (canvas: FollowedCanvas) =>
  onViewTaken(() => {
    if (!useViewSlot.getState().taken) canvas.fitted.current = false;
  });

/** The rules, for the canvas: returns the way to stop them. */
export const followView = (canvas: FollowedCanvas) => {
  const stops = [followDrawing(canvas), readableFitView(canvas), offerLayoutOnOpen(canvas), takenByZoom(canvas)];
  return () => stops.forEach((stop) => stop());
};
