import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { addNode, connect, createNode, kindDefinition, moveNodes, NODE_KINDS, updateEdge, type NodeKind, type Position } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { edgeTypes } from './edges/index.ts';
import { GENERAL_HANDLE, toFlowEdges, toFlowNodes, type AgentFlowNode, type ConditionFlowEdge } from './flowAdapter.ts';
import { importFile } from './importExport.ts';
import { nodeTypes } from './nodes/index.ts';
import { deleteElements, useEditorShortcuts } from './shortcuts.ts';
import './editor.css';

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

const FIT_OPTIONS = { padding: 0.15, maxZoom: 1.2 };

type Size = { width: number; height: number };

export function Canvas() {
  const graph = useApp((state) => state.graph);
  const selection = useApp((state) => state.selection);
  const overlay = useApp((state) => state.overlay);
  const breakpoints = useApp((state) => state.breakpoints);
  const documentVersion = useApp((state) => state.documentVersion);
  const { screenToFlowPosition, fitView } = useReactFlow();
  const [measured, setMeasured] = useState<Record<string, Size>>({});
  // Fitting an empty canvas would zoom onto the first node dropped on it.
  const [fitOnOpen] = useState(() => graph.nodes.length > 0);
  // Each drag is its own undo step, however many moves it makes.
  const dragSession = useRef(0);
  useEditorShortcuts();

  const extras = useMemo(
    () => ({ overlay, selectedNodes: selection.nodes, selectedEdges: selection.edges, nodeBreakpoints: breakpoints.nodes, edgeBreakpoints: breakpoints.edges }),
    [overlay, selection, breakpoints],
  );
  const nodes = useMemo(
    () => toFlowNodes(graph, extras).map((node) => (measured[node.id] ? { ...node, measured: measured[node.id] } : node)),
    [graph, extras, measured],
  );
  const edges = useMemo(() => toFlowEdges(graph, extras), [graph, extras]);

  // The document open at mount is fitted by `fitView` below; only later ones need fitting here.
  const [mountedVersion] = useState(documentVersion);
  useEffect(() => {
    if (documentVersion === mountedVersion) return;
    // The new document's nodes are measured on the next frames; fitting before that sees nothing.
    const timer = setTimeout(() => void fitView({ ...FIT_OPTIONS, duration: 200 }), 60);
    return () => clearTimeout(timer);
  }, [documentVersion, mountedVersion, fitView]);

  const onNodesChange = useCallback((changes: NodeChange<AgentFlowNode>[]) => {
    const sizes: Record<string, Size> = {};
    const positions: Record<string, Position> = {};
    let selectionChanged = false;
    const selected = new Set(useApp.getState().selection.nodes);
    for (const change of changes) {
      if (change.type === 'dimensions' && change.dimensions) sizes[change.id] = change.dimensions;
      if (change.type === 'position' && change.position) positions[change.id] = { x: Math.round(change.position.x), y: Math.round(change.position.y) };
      if (change.type === 'select') {
        selectionChanged = true;
        if (change.selected) selected.add(change.id);
        else selected.delete(change.id);
      }
    }
    if (Object.keys(sizes).length > 0) setMeasured((previous) => ({ ...previous, ...sizes }));
    const moved = Object.keys(positions);
    if (moved.length > 0) useApp.getState().edit((current) => moveNodes(current, positions), `move:${moved.sort().join(',')}:${dragSession.current}`);
    if (selectionChanged) useApp.getState().select({ nodes: [...selected] });
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

  const onDelete = useCallback(({ nodes: gone, edges: goneEdges }: { nodes: AgentFlowNode[]; edges: ConditionFlowEdge[] }) => {
    deleteElements(gone.map((node) => node.id), goneEdges.map((edge) => edge.id));
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
        void importFile(file);
      }
    },
    [screenToFlowPosition],
  );

  return (
    <div className="canvas" onDragOver={onDragOver} onDrop={onDrop} aria-label="Canvas" role="region">
      <ReactFlow<AgentFlowNode, ConditionFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onReconnect={onReconnect}
        onDelete={onDelete}
        onNodeDragStart={() => {
          dragSession.current += 1;
        }}
        // Past a few hundred nodes, drawing only what is in view keeps dragging and panning smooth.
        onlyRenderVisibleElements={graph.nodes.length > LARGE_GRAPH}
        deleteKeyCode={['Backspace', 'Delete']}
        multiSelectionKeyCode={['Shift', 'Meta', 'Control']}
        selectionKeyCode="Shift"
        fitView={fitOnOpen}
        fitViewOptions={FIT_OPTIONS}
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={20} />
        <MiniMap pannable zoomable style={{ width: 150, height: 100 }} nodeColor={(node) => kindDefinition((node as AgentFlowNode).data.node.kind).color} ariaLabel="Minimap" />
        <Controls />
      </ReactFlow>
    </div>
  );
}
