import { create } from 'zustand';
import type { GraphNode, Position } from '../graph/index.ts';

/**
 * Where the nodes being dragged are, until the drop edits the document (Canvas keeps a drag out of
 * the document): what else draws the nodes, the minimap, follows them from here.
 */
export const useDragPreview = create<{ positions: ReadonlyMap<string, Position> | null }>()(() => ({ positions: null }));

/** The nodes with the dragged ones where they are now: the others keep their objects. */
export const previewNodes = (nodes: readonly GraphNode[], positions: ReadonlyMap<string, Position> | null): readonly GraphNode[] =>
  positions ? nodes.map((node) => (positions.has(node.id) ? { ...node, position: positions.get(node.id)! } : node)) : nodes;
