/**
 * How the canvas draws its nodes and edges at a moment: in full or in outline (by the zoom), and
 * with the parts that load after its first screen, each when it is first needed.
 */
import { createContext } from 'react';
import { onDemand } from '../ui/onDemand.ts';

/**
 * Below this zoom the canvas is drawn in outline: nodes show their title and handles, edges their
 * lines, and no label or row text (at half size their 13 px text is under 7 px on screen, too small
 * to read). Loop-backs are drawn solid there too: their dashes are then a pixel or two, and the
 * browser dashes each long loop whole for every tile it crosses, which on a big graph zoomed out
 * made each frame's drawing take ~40 ms. A screenful of a big graph is then as light as React
 * Flow's own nodes and edges, so panning it is as smooth.
 */
export const OUTLINE_BELOW_ZOOM = 0.5;

/**
 * The problem marks, loaded once the graph has problems: the check runs after the first screen
 * (store/problems.ts), so nothing on it is marked, and the marks load with the check's answer.
 */
export const problemMarks = onDemand(() => import('./ProblemMark.tsx'));
/**
 * The nodes' run status chips, loaded once there is a run on the canvas: runs come with the
 * debugger's panels, after the first screen, so the chips and their styles load with them.
 */
export const runStatuses = onDemand(() => import('./nodes/NodeRunStatus.tsx'));

export interface Drawing {
  /** Drawn in outline (OUTLINE_BELOW_ZOOM). */
  outline: boolean;
  /** What the canvas draws after its first commit (canvasExtras.tsx: the breakpoint toggles, the outline), once loaded. */
  later: typeof import('./canvasExtras.tsx') | null;
  /** The problem marks (null until there are problems to mark). */
  marks: typeof import('./ProblemMark.tsx') | null;
  /** The run status chips (null until a run is shown). */
  statuses: typeof import('./nodes/NodeRunStatus.tsx') | null;
}

/** How the canvas draws now (Canvas.tsx gives it; nodes and edges read it). */
export const CanvasDrawing = createContext<Drawing>({ outline: false, later: null, marks: null, statuses: null });
