import type { GraphNode } from '../graph/index.ts';
import { visibleText } from '../graph/visible.ts';

/** A node as a list of nodes to choose from names it: its label and, where they differ, its id. */
export const nodeChoiceName = (node: GraphNode) => (node.label && node.label !== node.id ? `${visibleText(node.label)} (${node.id})` : node.id);
