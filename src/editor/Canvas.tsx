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
import { addNode, connect, createNode, moveNodes, NODE_KINDS, removeEdges, removeNodes, updateEdge, type GraphFile, type NodeKind, type Position } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { holdAutosave } from '../store/persistence.ts';
import { edgeTypes } from './edges/index.ts';
import { EdgeLabelLayer, findEdgeLabelLayer } from './edges/labelLayer.ts';
import { createEdgeLayoutStore, EdgeLayoutContext, type EdgeLayoutStore } from './edges/layoutStore.ts';
import { graphBounds, onFitRequest, viewportAround, viewportFor } from './fit.ts';
import { createFlowCache, edgeLayout, edgeLayoutInSlices, GENERAL_HANDLE, toFlowEdges, toFlowNodes, withPositions, type AgentFlowNode, type ConditionFlowEdge, type FlowCache } from './flowAdapter.ts';
import { nodeRect } from './geometry.ts';
import { nodeTypes } from './nodes/index.ts';
import { useDragPreview } from './dragPreview.ts';
import './editor.css';
import { onDemand } from '../ui/onDemand.ts';

// Dialogs and file reading load when first used: the first screen draws the graph only.
const connectDialog = onDemand(() => import('./ConnectDialog.tsx'));
const loadImports = () => import('./importExport.ts');

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

const LARGE_GRAPH = 200;
// Made once: a key list made on each render has React Flow take its key listeners off and on again.
const DELETE_KEYS = ['Backspace', 'Delete'];
const MULTI_SELECTION_KEYS = ['Shift', 'Meta', 'Control'];
const PRO_OPTIONS = { hideAttribution: true };
/**
 * Below this zoom loop-backs are drawn solid rather than dashed: their dashes are then a pixel or
 * two, and the browser dashes each long loop whole for every tile it crosses, which on a big graph
 * zoomed out made each frame's drawing take ~40 ms.
 */
const DASHES_FROM_ZOOM = 0.5;
const dashesTooSmall = (state: { transform: [number, number, number] }) => state.transform[2] < DASHES_FROM_ZOOM;

/**
 * React Flow 12 mounts its selection listener whenever its store holds a list of selection-change
 * handlers, and the empty list it starts with counts (`!![]`): the listener's selector then walks
 * every node and edge at every store update, each drag move among them (~2 ms a move at 5,000 nodes
 * and 7,500 edges, and more at a drag's start). The canvas takes selection from `onNodesChange` and
 * registers no such handler, so the empty list is dropped.
 */
const useNoSelectionListener = () => {
  const store = useStoreApi();
  // In the canvas's first render, before React Flow's: a listener once mounted reads the list in its effect.
  useState(() => {
    if (store.getState().onSelectionChangeHandlers.length === 0) store.setState({ onSelectionChangeHandlers: undefined as never });
  });
};

export function Canvas() {
  const graph = useApp((state) => state.graph);
  const selection = useApp((state) => state.selection);
  const overlay = useApp((state) => state.overlay);
  const breakpoints = useApp((state) => state.breakpoints);
  const documentVersion = useApp((state) => state.documentVersion);
  const { screenToFlowPosition, setViewport } = useReactFlow();
  const zoomedOut = useStore(dashesTooSmall);
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
        dragSession.current += 1;
        setDragFrom(useApp.getState().graph);
      },
      onNodeDragStop: () => {
        release('drag');
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
  }, []);
  const { onMoveStart, onMoveEnd, onNodeDragStart, onNodeDragStop } = gestureHandlers;
  const [connectFrom, setConnectFrom] = useState<string | null>(null);
  useEffect(() => {
    // The shortcuts are not needed to draw the canvas: they load after its first commit (a key pressed before then does nothing).
    let stop: (() => void) | undefined;
    let unmounted = false;
    void import('./shortcuts.ts').then(({ listenForShortcuts }) => {
      if (!unmounted) stop = listenForShortcuts(setConnectFrom);
    });
    return () => {
      unmounted = true;
      stop?.();
    };
  }, []);
  const connectSource = connectFrom === null ? undefined : graph.nodes.find((node) => node.id === connectFrom);
  const connecting = connectDialog.useModule(connectSource !== undefined);

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
  const layout = useMemo(() => edgeLayout(layoutGraph, overlay), [layoutGraph, overlay]);
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
  const fit = useCallback(
    (duration = 0) => {
      const { graph: current, overlay: run } = useApp.getState();
      const element = container.current;
      if (!element || current.nodes.length === 0) return;
      viewFitted.current = true;
      const box = size.current ?? element.getBoundingClientRect();
      // A large graph opens on its entry: fitting every node would draw them all at once and freeze the page.
      const entry = current.nodes.length > LARGE_GRAPH ? (current.nodes.find((node) => node.id === current.entry) ?? current.nodes[0]) : null;
      const view = entry ? viewportAround(nodeRect(entry), box) : viewportFor(graphBounds(current, edgeLayout(current, run))!, box);
      void setViewport(view, { duration });
    },
    [setViewport],
  );
  useEffect(() => onFitRequest(() => fit(200)), [fit]);
  // The document on screen when the canvas mounts, and every one opened after it, at once: a new
  // graph has nothing on screen to move from, and an animated fit keeps a big graph redrawing.
  useEffect(() => fit(), [documentVersion, fit]);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let frame = 0;
    const observer = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.borderBoxSize[0];
      if (box) size.current = { width: box.inlineSize, height: box.blockSize };
      if (!viewFitted.current) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fit());
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
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

  const onConnect = useCallback((connection: Connection) => {
    const outcome = connection.sourceHandle && connection.sourceHandle !== GENERAL_HANDLE ? connection.sourceHandle : null;
    useApp.getState().edit((current) => connect(current, connection.source, connection.target, outcome));
  }, []);

  const onReconnect = useCallback((old: ConditionFlowEdge, connection: Connection) => {
    useApp.getState().edit((current) =>
      updateEdge(current, old.id, (edge) => {
        const outcome = connection.sourceHandle && connection.sourceHandle !== GENERAL_HANDLE ? connection.sourceHandle : null;
        const wasOutcome = typeof edge.when === 'object' && 'outcome' in edge.when;
        const { when, ...rest } = edge;
        // The handle an edge leaves from is its outcome; other conditions stay as they were.
        const nextWhen = outcome ? { outcome } : wasOutcome ? undefined : when;
        return { ...rest, source: connection.source, target: connection.target, ...(nextWhen === undefined ? {} : { when: nextWhen }) };
      }),
    );
  }, []);

  // Removes nodes (with their edges) and edges as one undoable edit.
  const onDelete = useCallback(({ nodes: gone, edges: goneEdges }: { nodes: AgentFlowNode[]; edges: ConditionFlowEdge[] }) => {
    if (gone.length === 0 && goneEdges.length === 0) return;
    const { edit, select } = useApp.getState();
    edit((graph) => removeEdges(removeNodes(graph, gone.map((node) => node.id)), goneEdges.map((edge) => edge.id)));
    select({ nodes: [], edges: [] });
  }, []);

  const onDragOver = useCallback((event: React.DragEvent) => {
    if (event.dataTransfer.types.includes(KIND_DRAG_TYPE) || event.dataTransfer.types.includes('Files')) {
      event.preventDefault();
      event.dataTransfer.dropEffect = event.dataTransfer.types.includes('Files') ? 'copy' : 'move';
    }
  }, []);

  const onDrop = useCallback(
    (event: React.DragEvent) => {
      const kind = event.dataTransfer.getData(KIND_DRAG_TYPE);
      if (isKind(kind)) {
        event.preventDefault();
        addNodeAt(kind, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
        return;
      }
      const file = event.dataTransfer.files[0];
      if (file) {
        event.preventDefault();
        void loadImports().then(({ importFile }) => importFile(file));
      }
    },
    [screenToFlowPosition],
  );

  return (
    <div className="canvas" ref={container} onDragOver={onDragOver} onDrop={onDrop} aria-label="Canvas" role="region">
      <EdgeLabelLayer.Provider value={labelLayer}>
        <EdgeLayoutContext.Provider value={layoutStore.current}>
          <ReactFlow<AgentFlowNode, ConditionFlowEdge>
            className={zoomedOut ? 'zoomed-out' : undefined}
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onReconnect={onReconnect}
            onDelete={onDelete}
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
        </EdgeLayoutContext.Provider>
      </EdgeLabelLayer.Provider>
      {connectSource && connecting && <connecting.ConnectDialog source={connectSource} onClose={() => setConnectFrom(null)} />}
      {graph.nodes.length === 0 && (
        <div className="canvas-hint" role="note">
          <p><strong>An empty graph.</strong> Drag a kind from the palette onto the canvas, or focus it and press Enter.</p>
          <p>The first node is the entry. Connect an outcome handle on a node's right to the next node, or select a node and press C.</p>
        </div>
      )}
    </div>
  );
}
