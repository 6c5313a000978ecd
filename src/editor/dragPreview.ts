import { startTransition, useEffect, useState } from 'react';
import { create } from 'zustand';
import type { Position } from '../graph/index.ts';

/**
 * Where the nodes being dragged are, until the drop edits the document (Canvas keeps a drag out of
 * the document): what else draws the nodes, the minimap, follows them from here.
 */
export const useDragPreview = create<{ positions: ReadonlyMap<string, Position> | null }>()(() => ({ positions: null }));

/**
 * The drag preview's positions as component state, not through the store's hook: a store hook's
 * update is rendered synchronously (React's sync lane), and it takes every update then pending
 * with it, the canvas's own move included, so each drag move rendered the canvas and ran React
 * Flow's copy of the nodes inside the pointer event (docs/performance.md). A state update made in
 * the pointer event waits for React's own task after it, as the canvas's does; made as a transition,
 * it also waits for the canvas's move to be drawn, and a move that comes before it is rendered
 * takes its place, so a busy page draws the minimap's moves only as it has time for them.
 */
export const useDraggedPositions = () => {
  const [positions, setPositions] = useState(() => useDragPreview.getState().positions);
  useEffect(() => useDragPreview.subscribe((state) => startTransition(() => setPositions(state.positions))), []);
  return positions;
};
