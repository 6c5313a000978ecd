/**
 * The geometry of an edge, shared by the canvases that draw one (the editor's, and the server
 * graph's in the debugger): boxes and points, the path an edge takes (a curve, or a loop's route
 * at a level) and what a label placed on it is. Pure functions, tested without a browser.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The smallest box holding every one of `rects` (at least one). */
export const unionOf = (rects: Iterable<Rect>): Rect => {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const rect of rects) {
    left = Math.min(left, rect.x);
    top = Math.min(top, rect.y);
    right = Math.max(right, rect.x + rect.width);
    bottom = Math.max(bottom, rect.y + rect.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
};

/** Where what a canvas draws above a node (the run's status chips, a breakpoint toggle on its top right corner) reaches above it. */
export const ABOVE_NODE = 24;
/** A box a label should keep clear of, and how much covering it costs (by area): labelPlacement.ts. */
export interface Obstacle extends Rect {
  weight?: number;
}

/**
 * An edge's path: a bezier curve as React Flow draws one, left to right; or, for a loop back to a
 * node on its left, a route out right, down under the nodes it passes (`loopY`), and in from the left.
 */
export interface EdgeRoute {
  path: string;
  at: (t: number) => Point;
  /** Loops have a straight bottom run, where their label belongs. */
  loop: boolean;
  /**
   * The path in parts drawn one after another, each with how far along the route it starts (its
   * dash offset, so dashes run on across the joins). A loop's bottom run is a part of its own:
   * Skia dashes a whole path for every tile it crosses, except a single straight line, which it
   * dashes only within the tile. A dashed loop under a wide graph drawn in one piece made each
   * tile a drag or pan redrew cost ~3 ms instead of ~1 ms.
   */
  parts: readonly RoutePart[];
}

export interface RoutePart {
  d: string;
  startsAt: number;
}

const controlOffset = (distance: number) => (distance >= 0 ? 0.5 * distance : 0.25 * 25 * Math.sqrt(-distance));

const cubic = (p0: Point, p1: Point, p2: Point, p3: Point) => (t: number): Point => {
  const u = 1 - t;
  return {
    x: u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x,
    y: u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y,
  };
};

export const LOOP_REACH = 60;
/** How far a loop's curve swings out past its ends (three quarters of its control reach). */
export const LOOP_SWING = 0.75 * LOOP_REACH;
/**
 * The length of a loop's hook (out by LOOP_REACH and back, `drop` down): the integral of its speed,
 * 3·|(R(1 − 2t), 2t(1 − t)·drop)|, by the midpoint rule. Within a pixel of the true length, so the
 * next part's dashes start where this part's end.
 */
const hookLength = (drop: number) => {
  const samples = 32;
  let sum = 0;
  for (let index = 0; index < samples; index += 1) {
    const t = (index + 0.5) / samples;
    sum += Math.hypot(LOOP_REACH * (1 - 2 * t), 2 * t * (1 - t) * drop);
  }
  return (3 * sum) / samples;
};

export const edgeRoute = (source: Point, target: Point, loopY: number | null): EdgeRoute => {
  if (loopY !== null) {
    const { x: sx, y: sy } = source;
    const { x: tx, y: ty } = target;
    const downLength = hookLength(loopY - sy);
    const parts = [
      { d: `M ${sx},${sy} C ${sx + LOOP_REACH},${sy} ${sx + LOOP_REACH},${loopY} ${sx},${loopY}`, startsAt: 0 },
      { d: `M ${sx},${loopY} L ${tx},${loopY}`, startsAt: downLength },
      { d: `M ${tx},${loopY} C ${tx - LOOP_REACH},${loopY} ${tx - LOOP_REACH},${ty} ${tx},${ty}`, startsAt: downLength + Math.abs(sx - tx) },
    ];
    return {
      path: parts.map((part) => part.d).join(' '),
      // Along the bottom run, from the source's end to the target's.
      at: (t) => ({ x: sx + (tx - sx) * t, y: loopY }),
      loop: true,
      parts,
    };
  }
  const offset = controlOffset(target.x - source.x);
  const c1 = { x: source.x + offset, y: source.y };
  const c2 = { x: target.x - offset, y: target.y };
  const path = `M${source.x},${source.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${target.x},${target.y}`;
  return { path, at: cubic(source, c1, c2, target), loop: false, parts: [{ d: path, startsAt: 0 }] };
};

export interface PlacedLabel {
  /** Where on the route (0 source … 1 target) the label's centre sits, and its shift from there. */
  t: number;
  dx: number;
  dy: number;
}

export interface LabelRequest {
  id: string;
  route: EdgeRoute;
  size: { width: number; height: number };
}

/** A label's place and what it was placed for: its route, its size and what the spot cost. */
export interface LabelBasis {
  label: PlacedLabel;
  path: string;
  width: number;
  height: number;
  cost: number;
}
