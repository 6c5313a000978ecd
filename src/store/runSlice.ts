import type { SliceCreator } from './types.ts';

/**
 * What the canvas shows of a run: the debugger writes it, the editor's canvas draws it.
 * Both read it from the store, so neither imports the other.
 */
export interface CanvasOverlay {
  /** The node of the selected step (class `current`). */
  currentNode: string | null;
  /** The edge that fired at the selected step (class `fired`) and why. */
  firedEdge: string | null;
  firedReason: string | null;
  /** Edges tried and not taken at the selected step, with why (shown on hover). */
  triedEdges: Record<string, string>;
  /** Visits over the whole run, for the heat view. */
  nodeVisits: Record<string, number>;
  edgeVisits: Record<string, number>;
}

export interface RunSlice {
  overlay: CanvasOverlay | null;
  breakpoints: { nodes: string[]; edges: string[] };
  toggleNodeBreakpoint: (id: string) => void;
  toggleEdgeBreakpoint: (id: string) => void;
}

const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]);

export const createRunSlice: SliceCreator<RunSlice> = (set) => ({
  overlay: null,
  breakpoints: { nodes: [], edges: [] },
  toggleNodeBreakpoint: (id) => set((state) => ({ breakpoints: { ...state.breakpoints, nodes: toggle(state.breakpoints.nodes, id) } })),
  toggleEdgeBreakpoint: (id) => set((state) => ({ breakpoints: { ...state.breakpoints, edges: toggle(state.breakpoints.edges, id) } })),
});
