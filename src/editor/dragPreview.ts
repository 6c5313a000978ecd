import { create } from 'zustand';
import type { Position } from '../graph/index.ts';

/**
 * Where the nodes being dragged are, until the drop edits the document (Canvas keeps a drag out of
 * the document): what else draws the nodes, the minimap, follows them from here.
 */
export const useDragPreview = create<{ positions: ReadonlyMap<string, Position> | null }>()(() => ({ positions: null }));
