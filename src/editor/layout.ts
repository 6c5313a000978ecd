import dagre from '@dagrejs/dagre';
import type { GraphFile, Position } from '../graph/index.ts';
import { findBackEdges } from './flowAdapter.ts';

export interface NodeSize {
  width: number;
  height: number;
}

export type Positions = Map<string, Position>;
export type Sizes = ReadonlyMap<string, NodeSize>;

/** A guess for nodes the canvas has not measured yet (e.g. in the worker's tests). */
export const DEFAULT_SIZE: NodeSize = { width: 200, height: 160 };

/**
 * A layered left-to-right layout. Loop-back edges are left out of the ranking, so that a loop
 * reads as a line going back rather than pushing its target to the right.
 */
export const layoutGraph = (graph: GraphFile, sizes: Sizes = new Map()): Positions => {
  const layered = new dagre.graphlib.Graph({ multigraph: true });
  layered.setGraph({ rankdir: 'LR', nodesep: 50, ranksep: 170, marginx: 20, marginy: 20 });
  layered.setDefaultEdgeLabel(() => ({}));
  // Dagre keeps nodes in plain objects, where an id like `toString` would find a method: it gets names of its own.
  const names = new Map(graph.nodes.map((node, index) => [node.id, `n${index}`]));
  for (const node of graph.nodes) layered.setNode(names.get(node.id) as string, { ...(sizes.get(node.id) ?? DEFAULT_SIZE) });
  const back = findBackEdges(graph);
  graph.edges.forEach((edge, index) => {
    const source = names.get(edge.source);
    const target = names.get(edge.target);
    if (!back.has(edge.id) && source && target && source !== target) layered.setEdge(source, target, {}, `e${index}`);
  });
  dagre.layout(layered);
  const positions: Positions = new Map();
  for (const node of graph.nodes) {
    const placed = layered.node(names.get(node.id) as string);
    const size = sizes.get(node.id) ?? DEFAULT_SIZE;
    // Dagre gives centres; React Flow places a node by its top-left corner.
    positions.set(node.id, { x: Math.round(placed.x - size.width / 2), y: Math.round(placed.y - size.height / 2) });
  }
  return positions;
};

export interface LayoutRequest {
  graph: GraphFile;
  sizes: Sizes;
}

/** Lays out in a worker, so a large graph does not freeze the page; in place where workers do not exist. */
export const layoutInWorker = (request: LayoutRequest): Promise<Positions> => {
  if (typeof Worker === 'undefined') return Promise.resolve(layoutGraph(request.graph, request.sizes));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<Positions>) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the layout worker failed'));
    };
    worker.postMessage(request);
  });
};
