/**
 * The bench's canvas baseline: React Flow as its docs show it, with nothing of Loopscope. It draws
 * the graph the bench hands it (bench/graphs.ts `bareGraph`: the canvas's node sizes, positions and
 * handles) as plain nodes and default edges, draws only what is in view above 200 nodes as the
 * canvas does, and takes the canvas's size and view from the URL so both show the same nodes.
 *   ?graph=<url of a BareGraph JSON>&w=&h=&x=&y=&zoom=
 * Without `graph` it waits for a file chosen in its Import JSON input.
 */
import { memo, useCallback, useEffect, useState, type ChangeEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { applyNodeChanges, Background, Handle, Position, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Node, type NodeChange, type NodeProps, type Viewport } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { BareGraph } from '../graphs.ts';

const LARGE_GRAPH = 200;
const HANDLE_TOP = 60;
const HANDLE_STEP = 20;

type BareNode = Node<{ label: string; handles: string[] }, 'bare'>;

const BareNodeView = memo(function BareNodeView({ data }: NodeProps<BareNode>) {
  return (
    <>
      <Handle type="target" position={Position.Left} />
      <div>{data.label}</div>
      {data.handles.map((id, index) => <Handle key={id} id={id} type="source" position={Position.Right} style={{ top: HANDLE_TOP + index * HANDLE_STEP }} />)}
    </>
  );
});
const nodeTypes = { bare: BareNodeView };

const nodesOf = (graph: BareGraph, highlighted: string | null): BareNode[] =>
  graph.nodes.map((node) => ({
    id: node.id,
    type: 'bare',
    position: { x: node.x, y: node.y },
    data: { label: node.label, handles: node.handles },
    className: node.id === highlighted ? 'highlighted' : undefined,
    style: { width: node.width, height: node.height, border: '1px solid #889', background: node.id === highlighted ? '#fde68a' : '#fff', borderRadius: 6, padding: 8 },
  }));
const edgesOf = (graph: BareGraph): Edge[] => graph.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target, sourceHandle: edge.sourceHandle }));

const params = new URLSearchParams(location.search);
const number = (name: string) => (params.has(name) ? Number(params.get(name)) : null);
const size = { width: number('w') ?? window.innerWidth, height: number('h') ?? window.innerHeight };
const zoom = number('zoom');
const initialView: Viewport | null = zoom === null ? null : { x: number('x') ?? 0, y: number('y') ?? 0, zoom };

declare global {
  interface Window {
    bare: { setViewport: (view: Viewport) => void; highlight: (id: string | null) => void };
  }
}

function Bare() {
  const [graph, setGraph] = useState<BareGraph | null>(null);
  const [nodes, setNodes] = useState<BareNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const { setViewport, fitView } = useReactFlow();

  const open = useCallback((next: BareGraph) => {
    setGraph(next);
    setNodes(nodesOf(next, null));
    setEdges(edgesOf(next));
  }, []);

  useEffect(() => {
    const url = params.get('graph');
    if (url) void fetch(url).then((response) => response.json()).then(open);
  }, [open]);
  useEffect(() => {
    if (!graph) return;
    if (initialView) void setViewport(initialView);
    else void fitView();
  }, [graph, setViewport, fitView]);
  useEffect(() => {
    window.bare = {
      setViewport: (view) => void setViewport(view),
      // What the debugger does when a step is selected: one node drawn another way.
      highlight: (id) => setNodes((current) => current.map((node) => (node.id === id || node.className ? { ...node, className: node.id === id ? 'highlighted' : undefined, style: { ...node.style, background: node.id === id ? '#fde68a' : '#fff' } } : node))),
    };
  }, [setViewport]);

  const onNodesChange = useCallback((changes: NodeChange<BareNode>[]) => setNodes((current) => applyNodeChanges(changes, current)), []);
  const onImport = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (file) open(JSON.parse(await file.text()) as BareGraph);
  };

  return (
    <div style={{ width: size.width, height: size.height, position: 'relative' }}>
      <input type="file" aria-label="Import JSON" onChange={(event) => void onImport(event)} style={{ position: 'absolute', zIndex: 10, right: 0 }} />
      {graph && <h1 style={{ position: 'absolute', zIndex: 10, margin: 0, fontSize: 14 }}>{graph.name}</h1>}
      <ReactFlow nodes={nodes} edges={edges} nodeTypes={nodeTypes} onNodesChange={onNodesChange} onlyRenderVisibleElements={nodes.length > LARGE_GRAPH} minZoom={0.1} proOptions={{ hideAttribution: true }}>
        <Background gap={20} />
      </ReactFlow>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <ReactFlowProvider>
    <Bare />
  </ReactFlowProvider>,
);
