/**
 * What pasted text is: copied nodes, checked like a file, or a graph document. A module of its own,
 * loaded with the schemas at the first paste (editor/shortcuts.ts), off the first screen.
 */
import { LIMITS, type ParseProblem } from '../graph/index.ts';
import { GraphEdge, GraphNode, GRAPH_FORMAT } from '../graph/schema.ts';
import { parseUntrusted } from '../graph/parse.ts';
import { z } from '../graph/zod.ts';
import { CLIP_FORMAT, type NodeClip } from './clipboard.ts';

const NodeClipSchema = z.strictObject({ format: z.literal(CLIP_FORMAT), nodes: z.array(GraphNode), edges: z.array(GraphEdge) });

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
