import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  Background,
  ReactFlow,
  useReactFlow,
  useStore,
  useStoreApi,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { moveNodes, type GraphFile, type Position } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { holdAutosave } from '../hooks/saving.ts';
import { edgeTypes } from './edges/index.ts';
import { EdgeLabelLayer, findEdgeLabelLayer } from './edges/labelLayer.ts';
import { createEdgeLayoutStore, EdgeLayoutContext, type EdgeLayoutStore } from './edges/layoutStore.ts';
import { graphBounds, LARGE_GRAPH, viewportAround, viewportFor, type FitMode } from './fit.ts';
import { onFitRequest } from '../ui/fitRequest.ts';
import { refitWhileFitted } from '../ui/refitWhileFitted.ts';
import { createFlowCache, edgeLayout, edgeLayoutInSlices, loadLabelPlacement, toFlowEdges, toFlowNodes, withPositions, type AgentFlowNode, type ConditionFlowEdge, type FlowCache } from './flowAdapter.ts';
import { CANVAS_TEXT, nodeRect } from './geometry.ts';
import { CanvasDrawing, OUTLINE_BELOW_ZOOM, problemMarks, runStatuses } from './detail.ts';
import { nodeTypes } from './nodes/index.ts';
import { useDragPreview } from './dragPreview.ts';
import { useNoSelectionListener } from './reactFlowInternals.ts';
import './editor.css';
import { onDemand } from '../ui/onDemand.ts';
import { deferred } from '../ui/deferred.ts';
import { acceptDrop, readDrop } from './dropTarget.ts';
import { keepEarlyShortcuts, type EarlyShortcuts } from './shortcutKeys.ts';

// Dialogs load when first used: the first screen draws the graph only.
const connectDialog = onDemand(() => import('./ConnectDialog.tsx'));
const canvasHint = onDemand(() => import('./CanvasHint.tsx'));
/** What loads after the canvas's first commit: the document edits of its gestures, and what a fit may use of it. */
type Deferred = typeof import('./canvasEdits.ts') & typeof import('../ui/freeRoom.ts');
type CanvasExtras = typeof import('./canvasExtras.tsx');

/** The canvas's text sizes, for the nodes' and labels' CSS. */
const CANVAS_STYLE = { '--title-size': `${CANVAS_TEXT.title}px`, '--body-size': `${CANVAS_TEXT.body}px` } as React.CSSProperties;
// Made once: a key list made on each render has React Flow take its key listeners off and on again.
const DELETE_KEYS = ['Backspace', 'Delete'];
const MULTI_SELECTION_KEYS = ['Shift', 'Meta', 'Control'];
const PRO_OPTIONS = { hideAttribution: true };
const hasProblems = (state: { problems: readonly unknown[] | null }) => (state.problems?.length ?? 0) > 0;
const inOutline = (state: { transform: [number, number, number] }) => state.transform[2] < OUTLINE_BELOW_ZOOM;
/** A connection never goes from a node to itself: dropped back on the node it started from, it is let go. */
const isValidConnection = (connection: Connection | ConditionFlowEdge) => connection.source !== connection.target;
/**
 * A pan holds the pointer on the pane it started on. Otherwise each move is hit-tested against the
 * canvas as last drawn, before the view follows the pointer: near a node, every move went over the
 * node and, once the view moved, back out to the pane, each time two pairs of boundary events and
 * a hover restyle. Holding the pointer, a pan hit-tests nothing (a 1,000-node pan's hit tests
 * 134 → 50 ms in A/B; docs/performance.md). React Flow holds it itself for a selection box.
 */
const holdPanPointer = (event: React.PointerEvent) => {
  const target = event.target as Element;
  if (event.button === 0 && target.classList.contains('react-flow__pane')) target.setPointerCapture(event.pointerId);
};

export function Canvas() {
  const graph = useApp((state) => state.graph);
  const selection = useApp((state) => state.selection);
  const overlay = useApp((state) => state.overlay);
  const breakpoints = useApp((state) => state.breakpoints);
  const documentVersion = useApp((state) => state.documentVersion);
  const { screenToFlowPosition, setViewport, getViewport } = useReactFlow();
  const store = useStoreApi();
  const zoomedOut = useStore(inOutline);
  useNoSelectionListener();
  // Flow objects kept from one render to the next while their inputs stay the same.
  const flowCache = useRef<FlowCache>(null);
  flowCache.current ??= createFlowCache();
  // While a node is dragged, routes and label places stay those of the graph the drag started
  // from: placing every label again on each move is whole-graph work. They are redone on drop.
  const [dragFrom, setDragFrom] = useState<GraphFile | null>(null);
  // Each drag is its own undo step, however many moves it makes.
  const dragSession = useRef(0);
  // A drag and a pan or zoom each hold autosaves back until they end: a save mid-gesture is a hitch.
  const held = useRef<{ drag: (() => void) | null; move: (() => void) | null }>({ drag: null, move: null });
  useEffect(() => () => Object.values(held.current).forEach((free) => free?.()), []);
  // What connecting, deleting and dropping do to the document (canvasEdits.ts), and the room a fit
  // may use (freeRoom.ts): a gesture made before they have loaded is made once they have.
  const [edits] = useState(() => deferred<Deferred>());
  // React Flow copies each of these props into its store when it changes, and every copy runs all
  // of its store's subscribers (some walk every edge): made once, they are not copied on each drag move.
  const gestureHandlers = useMemo(() => {
    const hold = (gesture: 'drag' | 'move') => void (held.current[gesture] ??= holdAutosave());
    const release = (gesture: 'drag' | 'move') => {
      held.current[gesture]?.();
      held.current[gesture] = null;
    };
    return {
      onMoveStart: (event: MouseEvent | TouchEvent | null) => {
        hold('move');
        // Only the person's own pans and zooms come with an event.
        if (event) viewFitted.current = false;
      },
      onMoveEnd: () => release('move'),
      onNodeDragStart: () => {
        hold('drag');
        edits.call((loaded) => loaded.followPastEdge(container.current!, store, 'drag'));
        dragSession.current += 1;
        setDragFrom(useApp.getState().graph);
      },
      onNodeDragStop: () => {
        release('drag');
        edits.call((loaded) => loaded.followPastEdge());
        // The drop's own frame shows the node where it was let go; routes and labels are placed
        // again after it, between frames (placing every loop of a big graph takes tens of ms), and
        // drawn in a render of their own. Unless another drag has started since: it keeps its own.
        const session = dragSession.current;
        const { graph: dropped, overlay: run } = useApp.getState();
        void edgeLayoutInSlices(dropped, run).then(() => {
          if (dragSession.current === session) startTransition(() => setDragFrom(null));
        });
      },
    };
  }, [store, edits]);
  const { onMoveStart, onMoveEnd, onNodeDragStart, onNodeDragStop } = gestureHandlers;
  const [connectFrom, setConnectFrom] = useState<string | null>(null);
  // What the canvas draws after its first commit (canvasExtras.tsx): the breakpoint toggles, the outline.
  const [drawnLater, setDrawnLater] = useState<CanvasExtras | null>(null);
  // Labels are placed once their placement has loaded, just after the first commit (flowAdapter.ts).
  const [labelsPlaceable, setLabelsPlaceable] = useState(false);
  useEffect(() => {
    // The shortcuts and the edits are not needed to draw the canvas: they load after its first
    // commit. A gesture made before then waits for the edits; a shortcut pressed, for the shortcuts.
    let stop: (() => void) | undefined;
    let unmounted = false;
    const early: EarlyShortcuts = { pressed: [], pasted: [] };
    const stopKeeping = keepEarlyShortcuts(early);
    void Promise.all([import('./canvasEdits.ts'), import('../ui/freeRoom.ts')]).then(([loaded, room]) => edits.loaded({ ...loaded, ...room }));
    void loadLabelPlacement().then(() => !unmounted && startTransition(() => setLabelsPlaceable(true)));
    void import('./canvasExtras.tsx').then((loaded) => !unmounted && startTransition(() => setDrawnLater(loaded)));
    void import('./shortcuts.ts').then(({ listenForShortcuts }) => {
      stopKeeping();
      if (!unmounted) stop = listenForShortcuts(setConnectFrom, early);
    });
    return () => {
      unmounted = true;
      stopKeeping();
      stop?.();
    };
  }, [edits]);
  const connectSource = connectFrom === null ? undefined : graph.nodes.find((node) => node.id === connectFrom);
  const connecting = connectDialog.useModule(connectSource !== undefined);
  const hint = canvasHint.useModule(graph.nodes.length === 0);
  const marks = problemMarks.useModule(useApp(hasProblems));
  const statuses = runStatuses.useModule(overlay !== null);
  const drawing = useMemo(() => ({ outline: zoomedOut, later: drawnLater, marks, statuses }), [zoomedOut, drawnLater, marks, statuses]);

  const extras = useMemo(
    () => ({ overlay, selectedNodes: selection.nodes, selectedEdges: selection.edges, nodeBreakpoints: breakpoints.nodes, edgeBreakpoints: breakpoints.edges }),
    [overlay, selection, breakpoints],
  );
  const documentNodes = useMemo(() => toFlowNodes(graph, extras, flowCache.current!), [graph, extras]);
  // While nodes are dragged their places live here (and in the drag preview, for the minimap), not in
  // the document: a move then renders the canvas alone, in React's own task after the frame (a state
  // update; a store's is rendered inside the pointer event), instead of editing the document and
  // running every panel's store selectors. The drop is the one edit.
  const [dragged, setDragged] = useState<ReadonlyMap<string, Position> | null>(null);
  const nodes = useMemo(() => (dragged ? withPositions(documentNodes, dragged) : documentNodes), [documentNodes, dragged]);
  const edges = useMemo(() => toFlowEdges(graph, extras, flowCache.current!), [graph, extras]);
  // Routes and label places depend on the graph and the run only: selecting does not move labels.
  // The edges read them from this store, so placing them again gives React Flow no new edges.
  const layoutGraph = dragFrom ?? graph;
  // edgeLayout places labels once their placement module has loaded (flowAdapter.ts): the flag, not read here, lays them out again then.
  // oxlint-disable-next-line react-hooks/exhaustive-deps
  const layout = useMemo(() => edgeLayout(layoutGraph, overlay), [layoutGraph, overlay, labelsPlaceable]);
  const layoutStore = useRef<EdgeLayoutStore>(null);
  layoutStore.current ??= createEdgeLayoutStore(layout);
  useLayoutEffect(() => layoutStore.current!.set(layout), [layout]);

  const container = useRef<HTMLDivElement>(null);
  const [labelLayer, setLabelLayer] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => setLabelLayer(findEdgeLabelLayer(container.current)), []);
  // Until the person pans or zooms, the view follows the document and the canvas's size.
  const viewFitted = useRef(true);
  /**
   * The canvas's size as its ResizeObserver last told it: a graph opened in the same task as its
   * DOM changes is fitted without reading the size from layout, which would lay the page out there
   * and then, and again for the frame.
   */
  const size = useRef<{ width: number; height: number } | null>(null);
  /** How the view was last fitted: a resize fits again the same way. */
  const fitMode = useRef<FitMode>('readable');
  const fit = useCallback(
    (duration = 0, mode: FitMode = fitMode.current) => {
      const { graph: current, overlay: run } = useApp.getState();
      const element = container.current;
      if (!element || current.nodes.length === 0) return;
      viewFitted.current = true;
      fitMode.current = mode;
      const box = size.current ?? element.getBoundingClientRect();
      // A large graph opens on its entry: fitting every node would draw them all at once and freeze the page.
      const entry = current.nodes.length > LARGE_GRAPH ? (current.nodes.find((node) => node.id === current.entry) ?? current.nodes[0]) : null;
      const view = entry ? viewportAround(nodeRect(entry, current.skills), box) : viewportFor(graphBounds(current, edgeLayout(current, run))!, edits.current?.freeRoom(element, box) ?? box, mode);
      void setViewport(view, { duration });
    },
    [setViewport, edits],
  );
  // Fit View and Auto layout show the whole graph.
  useEffect(() => onFitRequest(() => fit(200, 'whole')), [fit]);
  // A zoom by a button or the minimap is the person's; an edit drawn past the view is brought in;
  // Fit View lays out a graph it cannot show readable (viewFollow.ts, loaded after the first commit).
  useEffect(() => {
    const view = import('./viewFollow.ts').then(({ followView }) => followView({ element: container.current!, fitted: viewFitted, getViewport, setViewport }));
    return () => void view.then((stop) => stop());
  }, [getViewport, setViewport]);
  // The document on screen when the canvas mounts, and every one opened after it, at once and
  // readable: a new graph has nothing on screen to move from, and an animated fit keeps a big graph redrawing.
  useEffect(() => fit(0, 'readable'), [documentVersion, fit]);
  // Once the labels have their places, a view still fitted fits them too.
  useEffect(() => {
    if (labelsPlaceable && viewFitted.current) fit();
  }, [labelsPlaceable, fit]);
  // A view still fitted fits again when the canvas or a panel over it changes (ui/refitWhileFitted.ts).
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    return refitWhileFitted(element, { isFitted: () => viewFitted.current, fit, onResize: (box) => void (size.current = box) });
  }, [fit]);

  const onNodesChange = useCallback((changes: NodeChange<AgentFlowNode>[]) => {
    // Sizes come from the geometry (toFlowNodes), so React Flow's measurements are not kept.
    const positions = new Map<string, Position>();
    let dragging = false;
    let selectionChanged = false;
    const selected = new Set(useApp.getState().selection.nodes);
    for (const change of changes) {
      if (change.type === 'position' && change.position) {
        positions.set(change.id, { x: Math.round(change.position.x), y: Math.round(change.position.y) });
        dragging ||= change.dragging === true;
      }
      if (change.type === 'select') {
        selectionChanged = true;
        if (change.selected) selected.add(change.id);
        else selected.delete(change.id);
      }
    }
    if (selectionChanged) useApp.getState().select({ nodes: [...selected] });
    if (positions.size === 0) return;
    if (dragging) {
      const next = new Map([...(useDragPreview.getState().positions ?? []), ...positions]);
      setDragged(next);
      useDragPreview.setState({ positions: next });
      return;
    }
    // A drop (React Flow ends a drag with every dragged node's last place) or a keyboard move.
    const moved = [...positions.keys()];
    useApp.getState().edit((current) => moveNodes(current, positions), `move:${moved.sort().join(',')}:${dragSession.current}`);
    setDragged(null);
    useDragPreview.setState({ positions: null });
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<ConditionFlowEdge>[]) => {
    const selected = new Set(useApp.getState().selection.edges);
    let selectionChanged = false;
    for (const change of changes) {
      if (change.type !== 'select') continue;
      selectionChanged = true;
      if (change.selected) selected.add(change.id);
      else selected.delete(change.id);
    }
    if (selectionChanged) useApp.getState().select({ edges: [...selected] });
  }, []);

  // Made once, each calling the edits once they have loaded.
  const documentEdits = useMemo(
    () => ({
      onConnect: (connection: Connection) => edits.call((loaded) => loaded.connectEdge(connection)),
      onReconnect: (old: ConditionFlowEdge, connection: Connection) => edits.call((loaded) => loaded.reconnectEdge(old, connection)),
      onDelete: (removed: { nodes: AgentFlowNode[]; edges: ConditionFlowEdge[] }) => edits.call((loaded) => loaded.removeElements(removed)),
      onConnectStart: () => edits.call((loaded) => loaded.followPastEdge(container.current!, store, 'connect')),
      onConnectEnd: () => edits.call((loaded) => loaded.followPastEdge()),
    }),
    [store, edits],
  );
  // A drop is read while its event lasts, and made once the edits have loaded.
  const onDrop = useCallback(
    (event: React.DragEvent) => {
      const dropped = readDrop(event);
      if (dropped) edits.call((loaded) => loaded.drop(dropped, screenToFlowPosition));
    },
    [screenToFlowPosition, edits],
  );

  return (
    <div className="canvas" ref={container} style={CANVAS_STYLE} onDragOver={acceptDrop} onDrop={onDrop} onPointerDown={holdPanPointer} aria-label="Canvas" role="region">
      <EdgeLabelLayer.Provider value={labelLayer}>
        <EdgeLayoutContext.Provider value={layoutStore.current}>
          <CanvasDrawing.Provider value={drawing}>
            <ReactFlow<AgentFlowNode, ConditionFlowEdge>
              className={zoomedOut ? 'zoomed-out' : undefined}
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              edgeTypes={edgeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={documentEdits.onConnect}
              // The view slides under a connection only once its pointer is past the canvas's edge (the canvas pans it), a dragged node's likewise.
              autoPanOnConnect={false}
              autoPanOnNodeDrag={false}
              onConnectStart={documentEdits.onConnectStart}
              onConnectEnd={documentEdits.onConnectEnd}
              isValidConnection={isValidConnection}
              // A click on an outcome row selects its node: a connection is made by dragging only.
              connectOnClick={false}
              // Zoomed out the edges have no reconnect anchors: a screenful of a big graph is then as light as React Flow's own edges.
              onReconnect={zoomedOut ? undefined : documentEdits.onReconnect}
              onReconnectStart={documentEdits.onConnectStart}
              onReconnectEnd={documentEdits.onConnectEnd}
              onDelete={documentEdits.onDelete}
              onMoveStart={onMoveStart}
              onMoveEnd={onMoveEnd}
              onNodeDragStart={onNodeDragStart}
              onNodeDragStop={onNodeDragStop}
              // Past a few hundred nodes, drawing only what is in view keeps dragging and panning smooth.
              onlyRenderVisibleElements={graph.nodes.length > LARGE_GRAPH}
              deleteKeyCode={DELETE_KEYS}
              multiSelectionKeyCode={MULTI_SELECTION_KEYS}
              selectionKeyCode="Shift"
              minZoom={0.1}
              proOptions={PRO_OPTIONS}
            >
              <Background gap={20} />
            </ReactFlow>
          </CanvasDrawing.Provider>
        </EdgeLayoutContext.Provider>
      </EdgeLabelLayer.Provider>
      {connectSource && connecting && <connecting.ConnectDialog source={connectSource} onClose={() => setConnectFrom(null)} />}
      {hint && graph.nodes.length === 0 && <hint.CanvasHint />}
    </div>
  );
}
