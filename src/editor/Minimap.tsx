import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useReactFlow, useStore, type ReactFlowState } from '@xyflow/react';
import { kindDefinition, type GraphNode, type Position } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { takeView } from '../ui/fitRequest.ts';
import { useDraggedPositions } from './dragPreview.ts';
import { withPositions } from './flowAdapter.ts';
import { nodeRect, type Rect, type Skills } from './geometry.ts';

/** The drawing's size in its own units; CSS stretches it (editor.css), as it did React Flow's minimap. */
const WIDTH = 200;
const HEIGHT = 150;
/** Margin around what is drawn, in minimap pixels. */
const OFFSET = 5;
/** Corner radius of a node, in flow pixels. */
const RADIUS = 5;

/** A rounded rectangle as a closed subpath. */
const rounded = ({ x, y, width, height }: Rect) =>
  `M${x + RADIUS},${y}h${width - 2 * RADIUS}a${RADIUS},${RADIUS} 0 0 1 ${RADIUS},${RADIUS}v${height - 2 * RADIUS}a${RADIUS},${RADIUS} 0 0 1 ${-RADIUS},${RADIUS}h${2 * RADIUS - width}a${RADIUS},${RADIUS} 0 0 1 ${-RADIUS},${-RADIUS}v${2 * RADIUS - height}a${RADIUS},${RADIUS} 0 0 1 ${RADIUS},${-RADIUS}z`;

/** A node's box and subpath, kept for as long as the node object is the same: a drag move replaces one node. */
const drawings = new WeakMap<GraphNode, { rect: Rect; d: string; skills: Skills }>();
const drawingOf = (node: GraphNode, skills: Skills) => {
  let drawing = drawings.get(node);
  if (drawing?.skills !== skills) {
    const rect = nodeRect(node, skills);
    drawing = { rect, d: rounded(rect), skills };
    drawings.set(node, drawing);
  }
  return drawing;
};

const NO_NODES: readonly GraphNode[] = [];

/** Nodes per path: a moved node redraws its own path only, not the whole graph's. */
const PER_PATH = 64;

/** One path: up to PER_PATH nodes of one kind colour, the box around them, and the nodes it was drawn from. */
interface NodePath {
  key: string;
  color: string;
  d: string;
  bounds: Rect;
  nodes: GraphNode[];
  /** The skills it was drawn with: a node's height depends on them. */
  skills: Skills;
}

const boundsOf = (rects: readonly Rect[]): Rect => {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const rect of rects) {
    [left, top] = [Math.min(left, rect.x), Math.min(top, rect.y)];
    [right, bottom] = [Math.max(right, rect.x + rect.width), Math.max(bottom, rect.y + rect.height)];
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
};

/**
 * The nodes as a few paths of one kind colour each, and the box around them all. A path whose
 * nodes are the very objects of the last drawing's path of the same key is that path again: a drag
 * move replaces one node, and joining every node's subpath on each move was whole-graph work.
 */
const drawNodes = (nodes: readonly GraphNode[], skills: Skills, last: ReadonlyMap<string, NodePath>) => {
  const byColor = new Map<string, GraphNode[][]>();
  for (const node of nodes) {
    const color = kindDefinition(node.kind).color;
    const groups = byColor.get(color) ?? [];
    if (groups.length === 0) byColor.set(color, groups);
    if (groups.length === 0 || groups[groups.length - 1].length === PER_PATH) groups.push([]);
    groups[groups.length - 1].push(node);
  }
  const paths = new Map<string, NodePath>();
  for (const [color, groups] of byColor)
    groups.forEach((group, index) => {
      const key = `${color}:${index}`;
      const before = last.get(key);
      if (before?.skills === skills && before.nodes.length === group.length && before.nodes.every((node, at) => node === group[at])) return void paths.set(key, before);
      paths.set(key, pathOf(key, color, group, skills));
    });
  return withBounds(paths);
};

const pathOf = (key: string, color: string, nodes: GraphNode[], skills: Skills): NodePath => {
  const drawn = nodes.map((node) => drawingOf(node, skills));
  return { key, color, d: drawn.map((drawing) => drawing.d).join(''), bounds: boundsOf(drawn.map((drawing) => drawing.rect)), nodes, skills };
};

const withBounds = (paths: ReadonlyMap<string, NodePath>) => ({ paths, bounds: paths.size > 0 ? boundsOf([...paths.values()].map((path) => path.bounds)) : null });

/**
 * The drawing with the nodes being dragged taken out of their paths, and those nodes: made once a
 * drag (its nodes are the same on every move), so that a move draws the dragged nodes alone
 * (withMoving) rather than a whole path of up to PER_PATH nodes again.
 */
const withoutNodes = (drawing: { paths: ReadonlyMap<string, NodePath> }, ids: ReadonlySet<string>) => {
  const paths = new Map<string, NodePath>();
  const taken: GraphNode[] = [];
  for (const [key, path] of drawing.paths) {
    const kept = path.nodes.filter((node) => !ids.has(node.id));
    if (kept.length === path.nodes.length) paths.set(key, path);
    else {
      taken.push(...path.nodes.filter((node) => ids.has(node.id)));
      if (kept.length > 0) paths.set(key, pathOf(key, path.color, kept, path.skills));
    }
  }
  return { ...withBounds(paths), taken };
};

/** The dragged nodes where they are now, a path each, over the drawing without them. */
const withMoving = (still: ReturnType<typeof withoutNodes>, positions: ReadonlyMap<string, Position>, skills: Skills) =>
  withBounds(new Map([...still.paths, ...withPositions(still.taken, positions).map((node): [string, NodePath] => [`moving:${node.id}`, pathOf(`moving:${node.id}`, kindDefinition(node.kind).color, [node], skills)])]));

/** The view's rectangle in flow coordinates, as a string so that an unchanged view is equal. */
const selectView = (state: ReactFlowState) => {
  const [x, y, zoom] = state.transform;
  return `${-x / zoom} ${-y / zoom} ${state.width / zoom} ${state.height / zoom}`;
};

const union = (a: Rect, b: Rect | null): Rect => {
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
};

/**
 * The box rounded outward to a grid of about a sixteenth of its size (a power of two, in flow
 * pixels): a pan moves the view, so the box around the view and the graph changed on every move,
 * and with it the viewBox, and every path was laid out again; rounded, it changes when the view
 * crosses a grid line, a few times in a long pan.
 */
const snappedOutward = (box: Rect): Rect => {
  const step = 2 ** Math.ceil(Math.log2(Math.max(box.width, box.height, 1) / 16));
  const x = Math.floor(box.x / step) * step;
  const y = Math.floor(box.y / step) * step;
  return { x, y, width: Math.ceil((box.x + box.width) / step) * step - x, height: Math.ceil((box.y + box.height) / step) * step - y };
};

/**
 * The whole graph in small, the part in view unmasked; dragging it pans the canvas, the wheel
 * zooms it. Drawn from the document as a few paths rather than React Flow's MiniMap, which keeps
 * one element and one store subscription per node: on a big graph each drag or pan frame paid
 * for all of them.
 */
export function Minimap() {
  // Drawn after the canvas: on opening a big graph the drawing was ~20 ms of the canvas's first render.
  const nodes = useDeferredValue(useApp((state) => state.graph.nodes), NO_NODES);
  // A node's height depends on the skills it calls (geometry.ts, mcpToolsOf).
  const skills = useDeferredValue(useApp((state) => state.graph.skills));
  const [vx, vy, vw, vh] = useStore(selectView).split(' ').map(Number);
  const { getViewport, setViewport, zoomTo } = useReactFlow();
  const lastPaths = useRef<ReadonlyMap<string, NodePath>>(new Map());
  const documentDrawing = useMemo(() => drawNodes(nodes, skills, lastPaths.current), [nodes, skills]);
  lastPaths.current = documentDrawing.paths;
  // Nodes being dragged are drawn where they are now, in a render that waits for the canvas's (a
  // transition: dragPreview.ts): taken out of their paths once a drag, and drawn alone on each move.
  const dragged = useDraggedPositions();
  const draggedIds = dragged ? [...dragged.keys()].join('\n') : '';
  const still = useMemo(() => (draggedIds ? withoutNodes(documentDrawing, new Set(draggedIds.split('\n'))) : null), [documentDrawing, draggedIds]);
  const drawn = useMemo(() => (still && dragged ? withMoving(still, dragged, skills) : documentDrawing), [documentDrawing, still, dragged, skills]);
  const inView = { x: vx, y: vy, width: vw, height: vh };
  const box = snappedOutward(union(inView, drawn.bounds));
  // As React Flow's minimap: the box fitted into the drawing, centred, with a margin.
  const scale = Math.max(box.width / WIDTH, box.height / HEIGHT) || 1;
  const offset = OFFSET * scale;
  const x = box.x - (scale * WIDTH - box.width) / 2 - offset;
  const y = box.y - (scale * HEIGHT - box.height) / 2 - offset;
  const width = scale * WIDTH + 2 * offset;
  const height = scale * HEIGHT + 2 * offset;
  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const panFrom = useRef<{ x: number; y: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const viewBox = `${x} ${y} ${width} ${height}`;
  // The minimap's size on screen, to place the view's window in its pixels (the drawing is fitted
  // into it, centred, as an SVG viewBox is by default).
  const [shown, setShown] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setShown({ width: entry.contentRect.width, height: entry.contentRect.height }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const fit = shown && Math.min(shown.width / width, shown.height / height);
  // The nodes are drawn apart from the view's mask, in a layer of their own (editor.css): a pan
  // moves the mask on every frame, and in one drawing with it every node's path was rasterized
  // again each time (5–12 ms a pan frame at 10,000 nodes, a profile's raster tasks; bare React
  // Flow has no minimap). Made once per drawing, the nodes are not rendered again on a pan either.
  const nodeDrawing = useMemo(
    () => (
      <svg viewBox={viewBox} className="minimap-nodes">
        {[...drawn.paths.values()].map(({ key, color, d }) => (
          <path key={key} className="react-flow__minimap-node" d={d} style={{ fill: color }} shapeRendering="crispEdges" />
        ))}
      </svg>
    ),
    [drawn, viewBox],
  );
  // The wheel zooms the canvas, not the panel the minimap sits in: a listener that may prevent scrolling.
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      takeView();
      const perUnit = event.deltaMode === 1 ? 0.05 : event.deltaMode ? 1 : 0.002;
      void zoomTo(getViewport().zoom * 2 ** (-event.deltaY * perUnit));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [getViewport, zoomTo]);

  return (
    <div
      className="react-flow__minimap"
      role="img"
      aria-label="Minimap"
      ref={frame}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        event.currentTarget.setPointerCapture(event.pointerId);
        panFrom.current = { x: event.clientX, y: event.clientY };
        takeView();
      }}
      onPointerMove={(event) => {
        const from = panFrom.current;
        if (!from) return;
        panFrom.current = { x: event.clientX, y: event.clientY };
        // The view follows the pointer across the minimap, as in React Flow's pannable minimap.
        const current = getViewport();
        const step = scaleRef.current * Math.max(current.zoom, Math.log(current.zoom));
        void setViewport({ x: current.x - (event.clientX - from.x) * step, y: current.y - (event.clientY - from.y) * step, zoom: current.zoom });
      }}
      onPointerUp={() => (panFrom.current = null)}
      onPointerCancel={() => (panFrom.current = null)}
    >
      {nodeDrawing}
      {/* The view's window, the rest dimmed by its shadow, in a layer of its own moved by a transform
          (editor.css): a pan moves it on every frame, and drawn as an SVG mask it was laid out and
          painted again each time, with the page around it (at 10,000 nodes ~2 ms of the mask and a
          whole-page paint 5× bare React Flow's, a profile of the pan). Its size changes with the zoom. */}
      {shown && fit !== null && (
        <div
          className="minimap-window"
          style={{
            width: inView.width * fit, height: inView.height * fit,
            transform: `translate(${(shown.width - width * fit) / 2 + (inView.x - x) * fit}px, ${(shown.height - height * fit) / 2 + (inView.y - y) * fit}px)`,
          }}
        />
      )}
    </div>
  );
}
