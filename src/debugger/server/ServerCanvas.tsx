/**
 * A graph on a LangGraph server that Loopscope did not make, drawn from the server's description
 * in place of the editor's canvas (SPEC §8): LangGraph nodes by their names (no Loopscope kind),
 * `__start__` and `__end__`, plain edges solid, conditional edges dashed to each target, subgraphs
 * as groups. The run shown marks the node of the selected step and the edge that fired, as on a
 * Loopscope graph. Its own React Flow, node and edge types: loaded only when such a graph is shown.
 */
import { createContext, memo, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import {
  Background,
  BaseEdge,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeChange,
  type NodeProps,
  MiniMap,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { visibleText } from '../../graph/visible.ts';
import type { DrawnEdge, DrawnGroup, DrawnNode, ServerDrawing } from '../../runtime/serverGraph.ts';
import { useApp, type CanvasOverlay } from '../../store/index.ts';
import { useServer, type ServerConnection } from '../../server/langgraphServer.ts';
import { onFitRequest, onViewTaken, takeView } from '../../ui/fitRequest.ts';
import { freeRoom } from '../../ui/freeRoom.ts';
import { Shown } from '../../ui/Shown.tsx';
import { refitWhileFitted } from '../../ui/refitWhileFitted.ts';
import { viewportInRoom } from '../../ui/viewportInRoom.ts';
import { ZoomAndFit } from '../../ui/viewControls.tsx';
import { useViewSlot } from '../../ui/viewSlot.ts';
import { edgeRoute, type PlacedLabel } from '../../ui/edgeGeometry.ts';
import { collapseDrawing, type CollapsedDrawing } from './collapse.ts';
import { serverEdgeLayout } from './edgeLayout.ts';
import { groupBox, keepPlaces, keptPlaces, layOutDrawing, loopEdges, sizeOf, type Point } from './drawingLayout.ts';
import './server.css';

interface LangGraphNodeData extends Record<string, unknown> {
  node: DrawnNode;
  current: boolean;
  /** The run waits on an `interrupt()` in this node. */
  waiting: boolean;
  visits: number;
  /** Null when the node cannot take a breakpoint (a subgraph's node, __start__, __end__). */
  breakpoint: boolean | null;
  /** The node threw in the run shown (the run stopped there). */
  failed: boolean;
  /** A folded subgraph drawn as this node: how many nodes it holds (collapse.ts); null for a node. */
  inside: number | null;
}
interface GroupData extends Record<string, unknown> {
  group: DrawnGroup;
  current: boolean;
  waiting: boolean;
}
interface LangGraphEdgeData extends Record<string, unknown> {
  edge: DrawnEdge;
  fired: boolean;
  reason: string | null;
  notTaken: boolean;
  /** How many tasks the fired edge started at once (a `Send` fan-out): shown as ×N. */
  times: number;
  /** The run shown started tasks of its target with `Send` (a fan-out: one task per Send, each with its own input). */
  fanOut: boolean;
  /** The level of its detour or loop, or null for a curve (edgeLayout.ts). */
  level: number | null;
  /** Where its label goes, when it has one. */
  place: PlacedLabel | undefined;
}
type LangGraphFlowNode = Node<LangGraphNodeData, 'langgraph'>;
type GroupFlowNode = Node<GroupData, 'langgraphGroup'>;
/** A group's fold button, a node of its own over the group's corner: the group lies behind the pane, which would take its clicks (React Flow leaves such a node no pointer events of its own: the button takes them, server.css). */
type FoldFlowNode = Node<{ group: string }, 'langgraphFold'>;
type LangGraphFlowEdge = Edge<LangGraphEdgeData, 'langgraph'>;

const toggleBreakpoint = (name: string) => {
  const { breakpoints } = useServer.getState();
  useServer.setState({ breakpoints: breakpoints.includes(name) ? breakpoints.filter((other) => other !== name) : [...breakpoints, name] });
};

/** Folds and unfolds the subgraphs (DrawnGraph): the group whose button was pressed last takes the focus on its button drawn anew. */
const Folding = createContext<{ focus: string | null; toggle: (group: string) => void }>({ focus: null, toggle: () => {} });

/** A subgraph's button that folds it to one node or unfolds it, by mouse or keyboard. */
function FoldButton({ group, open }: { group: string; open: boolean }) {
  const { focus, toggle } = useContext(Folding);
  return (
    <button
      type="button"
      className="lg-fold nodrag"
      aria-expanded={open}
      aria-label={`${open ? 'Collapse' : 'Expand'} subgraph ${visibleText(group)}`}
      title={open ? 'Collapse this subgraph to one node' : 'Expand this subgraph to its nodes'}
      // The button pressed is drawn anew (a group becomes a node): the focus stays on it, so Enter undoes it.
      autoFocus={focus === group}
      onClick={(event) => {
        event.stopPropagation();
        toggle(group);
      }}
    >
      {open ? '−' : '+'}
    </button>
  );
}

function FoldNodeView({ data }: NodeProps<FoldFlowNode>) {
  return <FoldButton group={data.group} open />;
}

function LangGraphNodeView({ data }: NodeProps<LangGraphFlowNode>) {
  const { node, current, waiting, visits, breakpoint, failed, inside } = data;
  return (
    <div
      className={`lg-node lg-${node.type}${inside !== null ? ' lg-folded' : ''}${current ? ' current' : ''}${waiting ? ' waiting' : ''}${breakpoint ? ' has-breakpoint' : ''}${failed ? ' failed' : ''}`}
      aria-description={failed ? 'failed' : undefined}
      style={sizeOf(node)}
      title={visibleText(node.id)}
      {...(inside !== null ? { role: 'group', 'aria-label': `Subgraph ${visibleText(node.id)}, collapsed` } : {})}
    >
      {node.type !== 'start' && <Handle type="target" position={Position.Left} isConnectable={false} />}
      <div className="lg-node-head">
        {inside !== null && <FoldButton group={node.id} open={false} />}
        <span className="lg-node-name"><Shown text={node.name} /></span>
        {visits > 0 && <span className="heat-badge" title={`ran ${visits} times in this run`}>×{visits}</span>}
        {breakpoint !== null && (
          <button
            type="button"
            className={`breakpoint-toggle nodrag${breakpoint ? ' on' : ''}`}
            aria-label={`Toggle breakpoint on ${visibleText(node.name)}`}
            aria-pressed={breakpoint}
            title={breakpoint ? 'Remove breakpoint' : 'Runs on the server pause before this node (interruptBefore)'}
            onClick={(event) => {
              event.stopPropagation();
              toggleBreakpoint(node.name);
            }}
          />
        )}
      </div>
      {node.tools.length > 0 && <div className="lg-node-line" title={visibleText(node.tools.join(', '))}>tools: <Shown text={node.tools.join(', ')} /></div>}
      {node.interrupt && <div className="lg-node-line">interrupt <Shown text={node.interrupt} /></div>}
      {inside !== null && !waiting && <div className="lg-node-line">subgraph of {inside} node{inside === 1 ? '' : 's'}, collapsed</div>}
      {waiting && <div className="lg-node-line lg-waiting">waits on interrupt()</div>}
      {node.type !== 'end' && <Handle type="source" position={Position.Right} isConnectable={false} />}
    </div>
  );
}

function GroupView({ data }: NodeProps<GroupFlowNode>) {
  return (
    <div className={`lg-group${data.current ? ' current' : ''}${data.waiting ? ' waiting' : ''}`} role="group" aria-label={`Subgraph ${visibleText(data.group.id)}`}>
      <span className="lg-group-name"><Shown text={data.group.name} /> <span className="muted">subgraph{data.waiting ? ', waits on interrupt()' : ''}</span></span>
    </div>
  );
}

/**
 * An edge's label: the branch's name when the server gives one (a path map's key), "Send" on a
 * fan-out, and ×N on the edge as it starts N tasks. SVG text holds no element: the name is the string visibleText makes of it.
 */
const edgeLabel = (edge: DrawnEdge, times: number | null, fanOut: boolean) =>
  [edge.label && visibleText(edge.label), fanOut ? `Send${times ? ` ×${times}` : ''}` : times && `×${times}`].filter(Boolean).join(' ');
/** How far a fan-out's other strokes run beside its path. */
const FAN_STROKES = [-5, 5];
/** A label's box, drawn in the SVG (server.css: 11 px monospace). */
const labelBox = (label: string) => ({ width: label.length * 6.4 + 12, height: 20 });

function LangGraphEdgeView({ id, sourceX, sourceY, targetX, targetY, data, markerEnd }: EdgeProps<LangGraphFlowEdge>) {
  // Round the nodes it does not join (edgeLayout.ts): a curve, a detour, or a loop back above or below them.
  const route = edgeRoute({ x: sourceX, y: sourceY }, { x: targetX, y: targetY }, data?.level ?? null);
  // Why it fired is the step detail's and the timeline's to say.
  const times = data?.fired && data.times > 1 ? data.times : null;
  const label = data ? edgeLabel(data.edge, times, data.fanOut) : '';
  const place = data?.place;
  const at = route.at(place?.t ?? 0.5);
  const centre = { x: at.x + (place?.dx ?? 0), y: at.y + (place?.dy ?? 0) };
  // Drawn in the SVG: a label layer of React Flow's own would be React Flow code on the first screen's bundle.
  const { width } = labelBox(label);
  return (
    <>
      {/* A fan-out is drawn as several strokes, one task per Send. */}
      {data?.fanOut && FAN_STROKES.map((shift) => <path key={shift} d={route.path} transform={`translate(0 ${shift})`} className="lg-fan-stroke" />)}
      <BaseEdge id={id} path={route.path} markerEnd={markerEnd} />
      {/* A label placed off its edge (no room on it) is tied to its point on the edge (ui/labelPlacement.ts, farSpot). */}
      {label && (centre.x !== at.x || centre.y !== at.y) && <path d={`M ${at.x},${at.y} L ${centre.x},${centre.y}`} className="lg-edge-leader" />}
      {label && (
        <g className={`lg-edge-label${data?.fired ? ' fired' : ''}${times ? ' fan-out' : ''}`} transform={`translate(${centre.x} ${centre.y})`} data-edge-id={id}>
          <title>{data?.fired && data.reason ? `${label}: ${visibleText(data.reason)}` : label}</title>
          <rect x={-width / 2} y={-10} width={width} height={20} rx={6} />
          <text textAnchor="middle" dominantBaseline="central">{label}</text>
        </g>
      )}
    </>
  );
}

// At module scope: new objects on each render would have React Flow remount every node and edge.
const nodeTypes = { langgraph: memo(LangGraphNodeView), langgraphGroup: memo(GroupView), langgraphFold: memo(FoldNodeView) };
const edgeTypes = { langgraph: memo(LangGraphEdgeView) };
// The enum's value: React Flow's enum would be one more piece of it on the first screen's bundle.
const MARKER = { type: 'arrowclosed' as never, width: 18, height: 18 };
const PRO_OPTIONS = { hideAttribution: true };
// Room for the loops drawn under the nodes, which the nodes' bounds leave out: a tenth of the room on each side.
const FIT_MARGIN = 0.1;
const [MIN_ZOOM, MAX_ZOOM] = [0.1, 2];
const own = (record: Readonly<Record<string, number>> | undefined, key: string) => (record && Object.hasOwn(record, key) ? record[key] : 0);

/** Where a group's fold button sits in its top left corner, and its size (server.css, .lg-fold). */
const [FOLD_INSET, FOLD_SIZE] = [6, 20];

/** The flow nodes: groups behind, sized around their nodes, then the nodes at their places. */
const flowNodes = (drawing: ServerDrawing, inside: ReadonlyMap<string, number>, places: ReadonlyMap<string, Point>, overlay: CanvasOverlay | null, breakpoints: readonly string[], failed: readonly string[], waiting: ReadonlySet<string>): (LangGraphFlowNode | GroupFlowNode | FoldFlowNode)[] => {
  const parted = new Set(overlay?.parting?.nodes);
  const groups = drawing.groups.flatMap((group): (GroupFlowNode | FoldFlowNode)[] => {
    const box = groupBox(drawing, group.id, places);
    if (!box) return [];
    const current = overlay?.currentNode === group.id;
    return [{
      id: `group ${group.id}`, type: 'langgraphGroup', position: { x: box.x, y: box.y }, width: box.width, height: box.height, style: { width: box.width, height: box.height },
      draggable: false, selectable: false, focusable: false, zIndex: -1, className: parted.has(group.id) ? 'parted' : undefined,
      data: { group, current, waiting: waiting.has(group.id) },
    }, {
      id: `fold ${group.id}`, type: 'langgraphFold', position: { x: box.x + FOLD_INSET, y: box.y + FOLD_INSET }, width: FOLD_SIZE, height: FOLD_SIZE,
      draggable: false, selectable: false, focusable: false, data: { group: group.id },
    }];
  });
  const nodes = drawing.nodes.map((node): LangGraphFlowNode => {
    const folded = inside.get(node.id) ?? null;
    // A folded subgraph is marked for what its own nodes do.
    const holds = (id: string | null | undefined) => id === node.id || (folded !== null && typeof id === 'string' && id.startsWith(`${node.id}:`));
    return {
      id: node.id, type: 'langgraph', position: places.get(node.id) ?? { x: 0, y: 0 }, ...sizeOf(node),
      className: parted.has(node.id) ? 'parted' : undefined,
      data: {
        node, current: holds(overlay?.currentNode), waiting: [...waiting].some(holds), visits: own(overlay?.nodeVisits, node.id),
        breakpoint: node.type === 'node' && node.group === null && folded === null ? breakpoints.includes(node.name) : null,
        failed: failed.some(holds), inside: folded,
      },
    };
  });
  return [...groups, ...nodes];
};

const flowEdges = (drawing: ServerDrawing, places: ReadonlyMap<string, Point> | null, overlay: CanvasOverlay | null, times: number, sent: ReadonlySet<string>): LangGraphFlowEdge[] => {
  const loops = loopEdges(drawing);
  const rects = new Map(drawing.nodes.flatMap((node) => {
    const place = places?.get(node.id);
    return place ? [[node.id, { ...place, ...sizeOf(node) }] as const] : [];
  }));
  const fanOutTimes = (edge: DrawnEdge) => (overlay?.firedEdge === edge.id && times > 1 ? times : null);
  const fanOut = (edge: DrawnEdge) => edge.conditional && sent.has(edge.target);
  const layout = serverEdgeLayout(drawing.edges.map((edge) => {
    const label = edgeLabel(edge, fanOutTimes(edge), fanOut(edge));
    return { id: edge.id, source: edge.source, target: edge.target, loop: loops.has(edge.id), label: label ? labelBox(label) : null };
  }), rects);
  return drawing.edges.map((edge) => {
    const fired = overlay?.firedEdge === edge.id;
    const notTaken = overlay?.triedEdges !== undefined && Object.hasOwn(overlay.triedEdges, edge.id);
    const parting = overlay?.parting;
    return {
      id: edge.id, type: 'langgraph', source: edge.source, target: edge.target, markerEnd: MARKER,
      className: [edge.conditional ? 'conditional' : 'plain', fired ? 'fired' : '', notTaken ? 'not-taken' : '', parting?.leftEdge === edge.id ? 'parted-left' : '', parting?.rightEdge === edge.id ? 'parted-right' : ''].filter(Boolean).join(' '),
      animated: fired,
      ...(fanOut(edge) ? { ariaLabel: `Send fan-out from ${visibleText(edge.source)} to ${visibleText(edge.target)}: one ${visibleText(edge.target)} task per Send${fired && times > 1 ? `, ${times} in this step` : ''}` } : {}),
      data: { edge, fired, fanOut: fanOut(edge), reason: fired ? overlay?.firedReason ?? null : null, notTaken, times, level: layout.levels.get(edge.id) ?? null, place: layout.labels.get(edge.id) },
    };
  });
};

type AppState = ReturnType<typeof useApp.getState>;
const shownRun = (state: AppState) => state.runs.find((run) => run.id === state.activeRunId);

/** The nodes that threw in the run shown, one a line (a string, so the canvas redraws only when they change). */
const failedNodes = (state: AppState) => shownRun(state)?.trace.steps.filter((step) => step.server?.error !== undefined).map((step) => step.node).join('\n') ?? '';

/** The nodes the run shown started with `Send`, one a line (a string, so the canvas redraws only when they change). */
const sentNodes = (state: AppState) => [...new Set(shownRun(state)?.trace.steps.filter((step) => step.server?.send).map((step) => step.node))].join('\n');

/** How many tasks of one node the selected step's edge started at once (a Send fan-out), else 1. */
const fanOut = (state: AppState) => {
  const server = state.selectedStep === null ? undefined : shownRun(state)?.trace.steps[state.selectedStep - 1]?.server;
  const target = server?.chose[0]?.split(':').at(-1);
  return target === undefined ? 1 : Math.max(1, server?.next.filter((name) => name === target).length ?? 1);
};

function DrawnGraph({ canvas }: { canvas: NonNullable<ServerConnection['canvas']> }) {
  const { drawing, origin, assistantId, graphId } = canvas;
  const overlay = useApp((state) => state.overlay);
  const breakpoints = useServer((state) => state.breakpoints);
  const failedKey = useApp(failedNodes);
  const failed = useMemo(() => (failedKey ? failedKey.split('\n') : []), [failedKey]);
  const times = useApp(fanOut);
  const sentKey = useApp(sentNodes);
  const sent = useMemo(() => new Set(sentKey ? sentKey.split('\n') : []), [sentKey]);
  /** Whether the fit of what is laid out, once React Flow has measured its nodes, has been made (again after a subgraph folds or unfolds). */
  const fitted = useRef(false);
  // The subgraphs the person folded, and the one whose fold button takes the focus once it is drawn again.
  const [folded, setFolded] = useState<{ groups: ReadonlySet<string>; focus: string | null }>({ groups: new Set(), focus: null });
  const shown = useMemo(() => collapseDrawing(drawing, folded.groups), [drawing, folded.groups]);
  // Places kept apart for each set of folded groups: folding and unfolding again finds the person's own places.
  const slot = folded.groups.size === 0 ? assistantId : `${assistantId} folded ${[...folded.groups].toSorted().join(' ')}`;
  /** What is drawn: a view of the drawing (folded or not) and its places, kept until the next view is laid out, so the canvas never blanks. */
  const [laid, setLaid] = useState<{ view: CollapsedDrawing; places: ReadonlyMap<string, Point> } | null>(() => {
    const kept = keptPlaces(origin, assistantId, drawing);
    return kept ? { view: shown, places: kept } : null;
  });
  const places = laid?.places ?? null;
  const view = laid?.view.drawing ?? drawing;
  const [layoutError, setLayoutError] = useState<string | null>(null);
  useEffect(() => {
    if (laid?.view === shown) return;
    const kept = keptPlaces(origin, slot, shown.drawing);
    // Laid out again: the view fits the graph as it is now drawn once its nodes are measured (onNodesChange).
    const show = (next: ReadonlyMap<string, Point>) => {
      fitted.current = false;
      setLaid({ view: shown, places: next });
    };
    if (kept) return void show(kept);
    let current = true;
    layOutDrawing(shown.drawing).then(
      (next) => {
        if (!current) return;
        keepPlaces(origin, slot, shown.drawing, next);
        show(next);
      },
      (error: unknown) => current && setLayoutError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
  }, [laid, shown, origin, slot]);
  const fold = useMemo(() => ({
    focus: folded.focus,
    toggle: (group: string) => setFolded((before) => {
      const groups = new Set(before.groups);
      if (!groups.delete(group)) groups.add(group);
      return { groups, focus: group };
    }),
  }), [folded.focus]);
  // The nodes a thread on screen waits in, on an interrupt() (a subgraph's: its group, the task the parent graph runs).
  const interrupts = useServer((state) => state.thread?.interrupts);
  const waiting = useMemo(() => new Set((interrupts ?? []).map((interrupt) => interrupt.node)), [interrupts]);
  const inside = laid?.view.inside;
  const nodes = useMemo(() => (places && inside ? flowNodes(view, inside, places, overlay, breakpoints, failed, waiting) : []), [view, inside, places, overlay, breakpoints, failed, waiting]);
  const edges = useMemo(() => flowEdges(view, places, overlay, times, sent), [view, places, overlay, times, sent]);
  const flow = useRef<HTMLDivElement>(null);
  const { getNodes, getNodesBounds, setViewport } = useReactFlow();
  // Until the person pans or zooms, the view follows the canvas's size and the room the panels over it leave, as the editor's canvas does.
  const viewFitted = useRef(true);
  /** Shows the whole graph in the part of the canvas nothing covers (the server panel, a prompt: ui/freeRoom.ts). */
  const fitInRoom = useCallback((duration: number) => {
    const element = flow.current;
    if (!element) return;
    viewFitted.current = true;
    const room = freeRoom(element, element.getBoundingClientRect());
    const fit = { margin: { x: FIT_MARGIN * room.width, y: FIT_MARGIN * room.height }, minZoom: () => MIN_ZOOM, maxZoom: MAX_ZOOM };
    // Set, not asked of React Flow's fitView: that waits for a change of the nodes, which a controlled flow like this one may not make.
    void setViewport(viewportInRoom(getNodesBounds(getNodes()), room, fit), { duration });
  }, [getNodes, getNodesBounds, setViewport]);
  useEffect(() => onFitRequest(() => fitInRoom(200)), [fitInRoom]);
  // A zoom by a button is the person's, as their own pan or zoom is.
  useEffect(
    () =>
      onViewTaken(() => {
        viewFitted.current = false;
      }),
    [],
  );
  const laidOut = places !== null;
  useEffect(() => {
    const element = flow.current;
    if (!laidOut || !element) return;
    return refitWhileFitted(element, { isFitted: () => viewFitted.current && fitted.current, fit: fitInRoom });
  }, [laidOut, fitInRoom]);
  // Zoom, fit and the minimap beside the canvas drive this canvas while it is drawn over the editor's.
  useEffect(() => {
    useViewSlot.setState({ taken: true });
    return () => useViewSlot.setState({ taken: false });
  }, []);
  const viewSlot = useViewSlot((state) => state.slot);
  // Fitted once React Flow has measured its nodes, as the editor's canvas fits a graph opened; again on Fit View.
  const onNodesChange = useCallback((changes: NodeChange<LangGraphFlowNode | GroupFlowNode | FoldFlowNode>[]) => {
    if (!fitted.current && changes.some((change) => change.type === 'dimensions')) {
      fitted.current = true;
      requestAnimationFrame(() => fitInRoom(0));
    }
    const moved = changes.filter((change) => change.type === 'position' && change.position);
    if (moved.length === 0) return;
    setLaid((before) => {
      if (!before) return before;
      const next = new Map(before.places);
      for (const change of moved) if (change.type === 'position' && change.position) next.set(change.id, { x: Math.round(change.position.x), y: Math.round(change.position.y) });
      // Kept when the drag ends: the person's places are this assistant's from then on.
      if (moved.some((change) => change.type === 'position' && change.dragging === false)) keepPlaces(origin, slot, before.view.drawing, next);
      return { ...before, places: next };
    });
  }, [origin, slot, fitInRoom]);
  // A pan or zoom of the person's (an event; a fit has none): the view is theirs until Fit View.
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event) viewFitted.current = false;
  }, []);
  return (
    <section className="lg-canvas" aria-label="LangGraph graph">
      <p className="lg-canvas-head">
        <strong>{visibleText(graphId)}</strong> <span className="muted">LangGraph graph on {origin}, drawn from the server's description: solid edges always go, dashed ones are conditional{sent.size > 0 && ', a triple stroke (Send) fans out to one task per Send'}</span>
      </p>
      {layoutError && <p role="alert">The graph could not be laid out: {layoutError}</p>}
      {places ? (
        <Folding.Provider value={fold}>
        <ReactFlow
          ref={flow}
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          nodesConnectable={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          proOptions={PRO_OPTIONS}
          onMoveStart={onMoveStart}
        >
          <Background gap={24} />
        </ReactFlow>
        </Folding.Provider>
      ) : !layoutError && <p className="muted lg-laying-out">Laying the graph out…</p>}
      {viewSlot && createPortal(
        <>
          <ZoomAndFit onFit={() => fitInRoom(200)} />
          {/* A pan or zoom on the minimap takes the view: React Flow reports no event for it (its wheel stops there, hence the capture). */}
          <div className="minimap-events" onPointerDownCapture={takeView} onWheelCapture={takeView}>
            <MiniMap pannable zoomable ariaLabel="Minimap" />
          </div>
        </>,
        viewSlot,
      )}
    </section>
  );
}

/** The server graph on the canvas while its stand-in document is the one open. */
export function ServerCanvas() {
  const canvas = useServer((state) => state.canvas);
  const documentId = useApp((state) => state.documentId);
  if (!canvas || canvas.documentId !== documentId) return null;
  return (
    <ReactFlowProvider>
      <DrawnGraph key={`${canvas.origin} ${canvas.assistantId}`} canvas={canvas} />
    </ReactFlowProvider>
  );
}
