import { createContext, useContext, useSyncExternalStore } from 'react';
import type { EdgeLayout } from '../flowAdapter.ts';
import type { PlacedLabel } from '../geometry.ts';

/**
 * The edges' loop heights and label places, handed to each edge beside React Flow's edge objects
 * rather than in them: a drop places the loops again, and an edge list with new objects in it has
 * React Flow index every edge's connections again and run all its store's subscribers (whole-graph
 * work on each drop of a big graph). Each edge reads its own entry and is drawn again only when it changes.
 */
export interface EdgeLayoutStore {
  get: () => EdgeLayout;
  set: (layout: EdgeLayout) => void;
  subscribe: (listener: () => void) => () => void;
}

const samePlace = (a: PlacedLabel, b: PlacedLabel) => a.t === b.t && a.dx === b.dx && a.dy === b.dy;

export const createEdgeLayoutStore = (initial: EdgeLayout): EdgeLayoutStore => {
  let layout = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => layout,
    set: (next) => {
      if (next === layout) return;
      // A label that stays where it was keeps its place object, so its edge is not drawn again.
      const labels = new Map<string, PlacedLabel>();
      for (const [id, place] of next.labels) {
        const before = layout.labels.get(id);
        labels.set(id, before && samePlace(before, place) ? before : place);
      }
      layout = { ...next, labels };
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};

export const EdgeLayoutContext = createContext<EdgeLayoutStore | null>(null);

const MIDDLE: PlacedLabel = { t: 0.5, dx: 0, dy: 0 };
/** Whether a place is the middle given to a label that was not placed. */
export const unplaced = (place: PlacedLabel) => place === MIDDLE;
const unsubscribed = () => () => undefined;

/**
 * An edge's loop height (null for a curve) and its label's place: the middle when none was placed
 * (a graph with more edges than are placed), null while the labels' places are still to come.
 */
export const useEdgeLayout = (id: string): { loopY: number | null; place: PlacedLabel | null } => {
  const store = useContext(EdgeLayoutContext);
  const subscribe = store?.subscribe ?? unsubscribed;
  const loopY = useSyncExternalStore(subscribe, () => store?.get().loops.get(id) ?? null);
  const place = useSyncExternalStore(subscribe, () => store?.get().labels.get(id) ?? (store?.get().labelsPending ? null : MIDDLE));
  return { loopY, place };
};
