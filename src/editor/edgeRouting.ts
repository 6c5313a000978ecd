/**
 * Edges routed round the nodes they do not connect. A curve that would pass under a node between
 * its ends is drawn instead as a detour: out of its source, along a level clear of the nodes, and
 * into its target (the loop's shape, geometry.ts edgeRoute, with its run above or below the nodes
 * in the way). Loaded with the label placement after the first screen (flowAdapter.ts).
 */
import { ABOVE_NODE, edgeRoute, LOOP_REACH, type Point, type Rect } from './geometry.ts';

/** How far inside a node's box a point must be to count as under it: a curve grazing a corner does not hide it. */
const INSIDE = 3;
/** How far apart along an edge its points are tested. */
const SAMPLE_STEP = 8;
/** How far a detour's run keeps below a node, and above the chips drawn above it. */
const RUN_CLEAR = 16;
/** How many levels a blocked edge tries before it stays a curve. */
const LEVELS_TRIED = 24;
const CELL = 160;

interface Placed {
  id: string;
  rect: Rect;
}

/** The nodes in a coarse grid, so a point is tested only against the nodes near it. */
export const nodeGrid = (rects: ReadonlyMap<string, Rect>) => {
  const cells = new Map<number, Placed[]>();
  // Number keys, as labelPlacement.ts's index: no string is made for a look-up.
  const key = (x: number, y: number) => x * 4_194_304 + y;
  for (const [id, rect] of rects) {
    const entry = { id, rect };
    for (let x = Math.floor(rect.x / CELL); x <= Math.floor((rect.x + rect.width) / CELL); x += 1)
      for (let y = Math.floor(rect.y / CELL); y <= Math.floor((rect.y + rect.height) / CELL); y += 1) {
        const list = cells.get(key(x, y));
        if (list) list.push(entry);
        else cells.set(key(x, y), [entry]);
      }
  }
  return {
    /** The node a point is under, but for `skip` (the edge's own ends), or null. */
    under: (point: Point, skip: readonly string[]): string | null => {
      for (const { id, rect } of cells.get(key(Math.floor(point.x / CELL), Math.floor(point.y / CELL))) ?? []) {
        if (skip.includes(id)) continue;
        if (point.x > rect.x + INSIDE && point.x < rect.x + rect.width - INSIDE && point.y > rect.y + INSIDE && point.y < rect.y + rect.height - INSIDE) return id;
      }
      return null;
    },
    /** Every node whose box meets `area`, each once. */
    near: (area: Rect): Placed[] => {
      const found = new Set<Placed>();
      for (let x = Math.floor(area.x / CELL); x <= Math.floor((area.x + area.width) / CELL); x += 1)
        for (let y = Math.floor(area.y / CELL); y <= Math.floor((area.y + area.height) / CELL); y += 1)
          for (const entry of cells.get(key(x, y)) ?? []) found.add(entry);
      return [...found];
    },
  };
};

export type NodeGrid = ReturnType<typeof nodeGrid>;

const cubicAt = (p0: Point, p1: Point, p2: Point, p3: Point, t: number): Point => {
  const u = 1 - t;
  return {
    x: u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x,
    y: u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y,
  };
};

/** Whether any of `count` + 1 points of a part (`at`, 0 … 1) is under a node other than `skip`. */
const crosses = (grid: NodeGrid, at: (t: number) => Point, length: number, skip: readonly string[]) => {
  const count = Math.max(4, Math.ceil(length / SAMPLE_STEP));
  for (let index = 0; index <= count; index += 1) if (grid.under(at(index / count), skip)) return true;
  return false;
};

/** Whether a curve from `from` to `to` (edgeRoute without a level) passes under a node but its own ends. */
export const curveBlocked = (grid: NodeGrid, from: Point, to: Point, ends: readonly string[]) => {
  // Its box first: most curves join neighbouring layers across the empty gap between them.
  const area = { x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), width: Math.abs(to.x - from.x), height: Math.abs(to.y - from.y) };
  const inBox = grid.near(area).some(({ id, rect }) => !ends.includes(id) && rect.x < area.x + area.width && area.x < rect.x + rect.width && rect.y < area.y + area.height && area.y < rect.y + rect.height);
  if (!inBox) return false;
  const route = edgeRoute(from, to, null);
  return crosses(grid, route.at, Math.abs(to.x - from.x) + Math.abs(to.y - from.y), ends);
};

/** Whether a detour at `level` passes under a node, its own ends included (its run would cross them). */
const detourBlocked = (grid: NodeGrid, from: Point, to: Point, level: number) => {
  const out = (t: number) => cubicAt(from, { x: from.x + LOOP_REACH, y: from.y }, { x: from.x + LOOP_REACH, y: level }, { x: from.x, y: level }, t);
  const run = (t: number) => ({ x: from.x + (to.x - from.x) * t, y: level });
  const into = (t: number) => cubicAt({ x: to.x, y: level }, { x: to.x - LOOP_REACH, y: level }, { x: to.x - LOOP_REACH, y: to.y }, to, t);
  const drop = Math.abs(level - from.y) + LOOP_REACH;
  return crosses(grid, out, drop, []) || crosses(grid, run, Math.abs(to.x - from.x), []) || crosses(grid, into, Math.abs(level - to.y) + LOOP_REACH, []);
};

/**
 * The level of the nearest detour from `from` to `to` that passes under no node: just above or just
 * below one of the nodes over its stretch, the least climb first. Null when none of the nearest
 * LEVELS_TRIED is clear (the edge stays a curve).
 */
export const detourLevel = (grid: NodeGrid, from: Point, to: Point): number | null => {
  const left = Math.min(from.x, to.x) - LOOP_REACH;
  const right = Math.max(from.x, to.x) + LOOP_REACH;
  const stretch = { x: left, y: Math.min(from.y, to.y) - 4 * CELL, width: right - left, height: Math.abs(to.y - from.y) + 8 * CELL };
  const levels = new Set<number>();
  for (const { rect } of grid.near(stretch)) {
    if (rect.x >= right || rect.x + rect.width <= left) continue;
    levels.add(rect.y - ABOVE_NODE - RUN_CLEAR);
    levels.add(rect.y + rect.height + RUN_CLEAR);
  }
  const climb = (level: number) => Math.abs(level - from.y) + Math.abs(level - to.y);
  const tried = [...levels].sort((a, b) => climb(a) - climb(b)).slice(0, LEVELS_TRIED);
  return tried.find((level) => !detourBlocked(grid, from, to, level)) ?? null;
};
