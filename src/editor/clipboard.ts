import { duplicateNodes, GraphEdge, GraphNode, GRAPH_FORMAT, parseUntrusted, readJson, type GraphFile } from '../graph/index.ts';
import { z } from 'zod';

/** What Ctrl/Cmd+C takes: nodes and the edges among them. */
export interface NodeClip {
  format: typeof CLIP_FORMAT;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const CLIP_FORMAT = 'loopscope/nodes';

const NodeClipSchema = z.strictObject({ format: z.literal(CLIP_FORMAT), nodes: z.array(GraphNode), edges: z.array(GraphEdge) });

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

export type ClipboardText = { type: 'nodes'; clip: NodeClip } | { type: 'graph'; text: string } | { type: 'other' };

/** Tells copied nodes from a whole graph document; anything else is left to the browser. */
export const classifyClipboardText = (text: string): ClipboardText => {
  const parsed = readJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return { type: 'other' };
  const format = (parsed.value as { format?: unknown }).format;
  if (format === GRAPH_FORMAT) return { type: 'graph', text };
  if (format === CLIP_FORMAT) {
    const clip = parseUntrusted(NodeClipSchema, parsed.value);
    if (clip.ok) return { type: 'nodes', clip: clip.value as NodeClip };
  }
  return { type: 'other' };
};
