import dagre from '@dagrejs/dagre';
import type { GraphFile, Position } from '../graph/index.ts';
import { findBackEdges } from './flowAdapter.ts';

export interface NodeSize {
  width: number;
  height: number;
}

export type Positions = Record<string, Position>;

/** A guess for nodes the canvas has not measured yet (e.g. in the worker's tests). */
export const DEFAULT_SIZE: NodeSize = { width: 200, height: 160 };

/**
 * A layered left-to-right layout. Loop-back edges are left out of the ranking, so that a loop
 * reads as a line going back rather than pushing its target to the right.
 */
export const layoutGraph = (graph: GraphFile, sizes: Record<string, NodeSize> = {}): Positions => {
  const layered = new dagre.graphlib.Graph({ multigraph: true });
  layered.setGraph({ rankdir: 'LR', nodesep: 50, ranksep: 170, marginx: 20, marginy: 20 });
  layered.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) layered.setNode(node.id, { ...(sizes[node.id] ?? DEFAULT_SIZE) });
  const back = findBackEdges(graph);
  const ids = new Set(graph.nodes.map((node) => node.id));
  for (const edge of graph.edges)
    if (!back.has(edge.id) && ids.has(edge.source) && ids.has(edge.target) && edge.source !== edge.target)
      layered.setEdge(edge.source, edge.target, {}, edge.id);
  dagre.layout(layered);
  const positions: Positions = {};
  for (const node of graph.nodes) {
    const placed = layered.node(node.id);
    const size = sizes[node.id] ?? DEFAULT_SIZE;
    // Dagre gives centres; React Flow places a node by its top-left corner.
    positions[node.id] = { x: Math.round(placed.x - size.width / 2), y: Math.round(placed.y - size.height / 2) };
  }
  return positions;
};

export interface LayoutRequest {
  graph: GraphFile;
  sizes: Record<string, NodeSize>;
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
