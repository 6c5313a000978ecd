import type { GraphEdge, GraphFile, GraphNode } from '../graph/index.ts';
import { duplicateNodes } from '../graph/placement.ts';

/** What Ctrl/Cmd+C takes: nodes and the edges among them. */
export interface NodeClip {
  format: typeof CLIP_FORMAT;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const CLIP_FORMAT = 'loopscope/nodes';

export const copyNodes = (graph: GraphFile, ids: readonly string[]): NodeClip | null => {
  const chosen = new Set(ids);
  const nodes = graph.nodes.filter((node) => chosen.has(node.id));
  if (nodes.length === 0) return null;
  const edges = graph.edges.filter((edge) => chosen.has(edge.source) && chosen.has(edge.target));
  return structuredClone({ format: CLIP_FORMAT, nodes, edges });
};

/** Pastes a clip as fresh copies; `times` offsets repeated pastes so they do not stack exactly. */
export const pasteNodes = (graph: GraphFile, clip: NodeClip, times = 1) =>
  duplicateNodes(graph, clip.nodes, clip.edges, { x: 40 * times, y: 40 * times });
