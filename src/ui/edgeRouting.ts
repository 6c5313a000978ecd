/**
 * Edges routed round the nodes they do not connect. A curve that would pass under a node between
 * its ends is drawn instead as a detour: out of its source, along a level clear of the nodes, and
 * into its target (the loop's shape, edgeGeometry.ts edgeRoute, with its run above or below the nodes
 * in the way). Shared by the editor's canvas, which loads it with the label placement after the first
 * screen (editor/flowAdapter.ts), and the server graph's canvas (debugger/server).
 */
import { ABOVE_NODE, edgeRoute, LOOP_REACH, LOOP_SWING, type Point, type Rect } from './edgeGeometry.ts';
import type { Pausable } from './pausable.ts';

/** How far inside a node's box a point must be to count as under it: a curve grazing a corner does not hide it. */
const INSIDE = 3;
/** How far apart along an edge its points are tested. */
const SAMPLE_STEP = 8;
/** How far a detour's run keeps below a node, and above the chips drawn above it. */
const RUN_CLEAR = 16;
/** How many levels a blocked edge tries before it stays a curve. */
const LEVELS_TRIED = 24;
const CELL = 160;
/** More than any climb within a drawing. */
const OUTSIDE_COST = 1e6;

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
    /** Whether a node but `skip` is under any of `area` (INSIDE px into it; a line is a box with no height). */
    blocks: (area: Rect, skip: readonly string[]): boolean => {
      for (let x = Math.floor(area.x / CELL); x <= Math.floor((area.x + area.width) / CELL); x += 1)
        for (let y = Math.floor(area.y / CELL); y <= Math.floor((area.y + area.height) / CELL); y += 1)
          for (const { id, rect } of cells.get(key(x, y)) ?? []) {
            if (skip.includes(id)) continue;
            if (rect.x + INSIDE < area.x + area.width && area.x < rect.x + rect.width - INSIDE && rect.y + INSIDE < area.y + area.height && area.y < rect.y + rect.height - INSIDE) return true;
          }
      return false;
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

/** Whether a curve from `from` to `to` (edgeRoute without a level) passes under a node but its own ends. */
export const curveBlocked = (grid: NodeGrid, from: Point, to: Point, ends: readonly string[]) => {
  // Its box first: most curves join neighbouring layers across the empty gap between them.
  if (!grid.blocks({ x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), width: Math.abs(to.x - from.x), height: Math.abs(to.y - from.y) }, ends)) return false;
  const { at } = edgeRoute(from, to, null);
  // A point every SAMPLE_STEP px or so along it.
  const count = Math.max(4, Math.ceil((Math.abs(to.x - from.x) + Math.abs(to.y - from.y)) / SAMPLE_STEP));
  for (let index = 0; index <= count; index += 1) if (grid.under(at(index / count), ends)) return true;
  return false;
};

/** The point at `t` of a loop's hook (edgeGeometry.ts, edgeRoute) from `start` out to `turn` (± LOOP_REACH) and back to `end`. */
const hookAt = (start: Point, end: Point, turn: number, t: number): Point => {
  const u = 1 - t;
  return { x: (u * u * u + t * t * t) * start.x + 3 * u * t * turn, y: (u * u * u + 3 * u * u * t) * start.y + (3 * u * t * t + t * t * t) * end.y };
};

/** Whether a hook passes under a node: the strip it swings within first, then, where that meets one, points along it. */
const hookBlocked = (grid: NodeGrid, start: Point, end: Point, turn: number) => {
  const strip = { x: turn > start.x ? start.x : start.x - LOOP_SWING, y: Math.min(start.y, end.y), width: LOOP_SWING, height: Math.abs(end.y - start.y) };
  if (!grid.blocks(strip, [])) return false;
  const count = Math.max(4, Math.ceil((strip.height + LOOP_REACH) / SAMPLE_STEP));
  for (let index = 0; index <= count; index += 1) if (grid.under(hookAt(start, end, turn, index / count), [])) return true;
  return false;
};

/**
 * Whether a detour at `level` passes under a node, its own ends included (its run would cross them):
 * its run as a line, its hooks as hookBlocked, at a few look-ups of the grid a level.
 */
const detourBlocked = (grid: NodeGrid, from: Point, to: Point, level: number) =>
  grid.blocks({ x: Math.min(from.x, to.x), y: level, width: Math.abs(to.x - from.x), height: 0 }, []) ||
  hookBlocked(grid, from, { x: from.x, y: level }, from.x + LOOP_REACH) ||
  hookBlocked(grid, { x: to.x, y: level }, to, to.x - LOOP_REACH);

/**
 * The level of the nearest detour from `from` to `to` that passes under no node: just above or just
 * below one of the nodes over its stretch, the least climb first, within what is `drawn` first. Null when none of the nearest
 * LEVELS_TRIED is clear (the edge stays a curve).
 */
export const detourLevel = (grid: NodeGrid, from: Point, to: Point, drawn: { top: number; bottom: number } | null = null): number | null => {
  const left = Math.min(from.x, to.x) - LOOP_REACH;
  const right = Math.max(from.x, to.x) + LOOP_REACH;
  const stretch = { x: left, y: Math.min(from.y, to.y) - 4 * CELL, width: right - left, height: Math.abs(to.y - from.y) + 8 * CELL };
  const levels = new Set<number>();
  for (const { rect } of grid.near(stretch)) {
    if (rect.x >= right || rect.x + rect.width <= left) continue;
    levels.add(rect.y - ABOVE_NODE - RUN_CLEAR);
    levels.add(rect.y + rect.height + RUN_CLEAR);
  }
  // A level past what is drawn already (nodes, loops) makes the drawing taller and the fitted view smaller: tried last.
  const beyond = (level: number) => (drawn && (level < drawn.top || level > drawn.bottom) ? OUTSIDE_COST : 0);
  const climb = (level: number) => Math.abs(level - from.y) + Math.abs(level - to.y) + beyond(level);
  const tried = [...levels].sort((a, b) => climb(a) - climb(b)).slice(0, LEVELS_TRIED);
  return tried.find((level) => !detourBlocked(grid, from, to, level)) ?? null;
};

/** How far apart detours' runs over the same stretch are kept, as loops' runs are (geometry.ts, LOOP_GAP): a label's height and a little. */
const RUN_GAP = 28;
/** How many steps of RUN_GAP a detour moves away from the runs over its stretch before it shares one's level. */
const GAPS_TRIED = 6;

interface Run {
  left: number;
  right: number;
  level: number;
}

/**
 * `level`, moved away from the nodes (up when the detour runs above its ends, else down) until no
 * run over the same stretch is within RUN_GAP of it, and no node is in its way, within what is
 * `drawn` (a taller drawing is a smaller fitted view); `level` itself when no such level is near.
 * Two detours round the same node so run apart, each label on its own run.
 */
const apartFrom = (runs: readonly Run[], grid: NodeGrid, from: Point, to: Point, level: number, drawn: { top: number; bottom: number }) => {
  const [left, right] = [Math.min(from.x, to.x), Math.max(from.x, to.x)];
  const step = level < Math.min(from.y, to.y) ? -RUN_GAP : RUN_GAP;
  for (let tried = 0, next = level; tried <= GAPS_TRIED; tried += 1, next += step) {
    const crowded = runs.some((run) => run.left < right && run.right > left && Math.abs(run.level - next) < RUN_GAP);
    if (next !== level && (next < drawn.top || next > drawn.bottom)) break;
    if (!crowded && (next === level || !detourBlocked(grid, from, to, next))) return next;
  }
  return level;
};

/** How many edges are looked at between two chances for the page to take its turn: a blocked one tries up to LEVELS_TRIED levels. */
const EDGES_PER_PART = 32;

/**
 * Gives each edge not drawn as a loop (not in `levels`) whose curve passes under a node it does not
 * join the level of its detour, in `levels`. Only edges whose curve's box meets a node are looked at
 * closely (curveBlocked), and only those blocked look for a level. Work that can stop between edges.
 */
export function* routeRoundNodes(edges: readonly { id: string; source: string; target: string }[], ends: ReadonlyMap<string, { from: Point; to: Point }>, rects: ReadonlyMap<string, Rect>, levels: Map<string, number>): Pausable<void> {
  const grid = nodeGrid(rects);
  const drawn = { top: Infinity, bottom: -Infinity };
  for (const rect of rects.values()) [drawn.top, drawn.bottom] = [Math.min(drawn.top, rect.y - ABOVE_NODE), Math.max(drawn.bottom, rect.y + rect.height)];
  // The loops' runs, and each detour's as it is placed: a detour keeps apart from them (apartFrom).
  const runs: Run[] = [];
  for (const [id, level] of levels) {
    [drawn.top, drawn.bottom] = [Math.min(drawn.top, level), Math.max(drawn.bottom, level)];
    const end = ends.get(id);
    if (end) runs.push({ left: Math.min(end.from.x, end.to.x), right: Math.max(end.from.x, end.to.x), level });
  }
  for (const [index, edge] of edges.entries()) {
    if (index % EDGES_PER_PART === EDGES_PER_PART - 1) yield;
    const end = ends.get(edge.id);
    if (!end || levels.has(edge.id) || !curveBlocked(grid, end.from, end.to, [edge.source, edge.target])) continue;
    const found = detourLevel(grid, end.from, end.to, drawn);
    if (found === null) continue;
    const level = apartFrom(runs, grid, end.from, end.to, found, drawn);
    levels.set(edge.id, level);
    runs.push({ left: Math.min(end.from.x, end.to.x), right: Math.max(end.from.x, end.to.x), level });
  }
}
