import { duplicateNodes, GraphEdge, GraphNode, GRAPH_FORMAT, LIMITS, parseUntrusted, type GraphFile, type ParseProblem } from '../graph/index.ts';
import { lazySchema } from '../graph/lazySchema.ts';

/** What Ctrl/Cmd+C takes: nodes and the edges among them. */
export interface NodeClip {
  format: typeof CLIP_FORMAT;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const CLIP_FORMAT = 'loopscope/nodes';

const NodeClipSchema = lazySchema((z) => z.strictObject({ format: z.literal(CLIP_FORMAT), nodes: z.array(GraphNode), edges: z.array(GraphEdge) }));

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

export type ClipboardText =
  | { type: 'nodes'; clip: NodeClip }
  | { type: 'graph'; text: string }
  | { type: 'refused'; problems: ParseProblem[] }
  | { type: 'other' };

/**
 * Tells copied nodes from a whole graph document; anything else is left to the browser. Copied
 * nodes are checked like a file (a refused clip says why); a graph document goes on to the import.
 */
export const classifyClipboardText = (text: string): ClipboardText => {
  if (text.length > LIMITS.textChars) return { type: 'other' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { type: 'other' };
  }
  const format = value !== null && typeof value === 'object' ? (value as { format?: unknown }).format : undefined;
  if (format === GRAPH_FORMAT) return { type: 'graph', text };
  if (format !== CLIP_FORMAT) return { type: 'other' };
  const clip = parseUntrusted(NodeClipSchema, value);
  return clip.ok ? { type: 'nodes', clip: clip.value as NodeClip } : { type: 'refused', problems: clip.problems };
};
