/**
 * Where edge labels go: on their edge, clear of nodes, of what is drawn above them and of their
 * handles, and of each other. Shared by the editor's canvas, which loads it just after its first
 * commit (editor/flowAdapter.ts, loadLabelPlacement: the first screen draws the graph, its labels a
 * moment later, in their places), and the server graph's canvas (debugger/server).
 */
import { type EdgeRoute, type LabelBasis, type LabelRequest, type Obstacle, type PlacedLabel, type Rect, unionOf } from './edgeGeometry.ts';

/** Boxes closer than this touch. */
export const MARGIN = 6;
const overlapArea = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) + MARGIN) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) + MARGIN);

/**
 * A coarse grid of boxes, so a label is checked only against what is near it. Placing the labels
 * again is most of a drop's work, so a look-up makes no strings and no sets: cells have number
 * keys, and each box notes the last look-up that counted it (a box spans several cells).
 */
const spatialIndex = (cell: number) => {
  const cells = new Map<number, { rect: Rect; weight: number; countedBy: number }[]>();
  // Two cells sharing a key would only cost time: a box's overlap is measured, not assumed.
  const key = (x: number, y: number) => x * 4_194_304 + y;
  let lookUp = 0;
  const eachCell = (rect: Rect, visit: (key: number) => void) => {
    const [left, right, top, bottom] = [Math.floor(rect.x / cell), Math.floor((rect.x + rect.width) / cell), Math.floor(rect.y / cell), Math.floor((rect.y + rect.height) / cell)];
    for (let x = left; x <= right; x += 1) for (let y = top; y <= bottom; y += 1) visit(key(x, y));
  };
  return {
    add: (rect: Rect, weight = 1) => {
      const entry = { rect, weight, countedBy: 0 };
      eachCell(rect, (at) => {
        const list = cells.get(at);
        if (list) list.push(entry);
        else cells.set(at, [entry]);
      });
    },
    overlap: (rect: Rect) => {
      lookUp += 1;
      let total = 0;
      eachCell(rect, (at) => {
        for (const entry of cells.get(at) ?? []) {
          if (entry.countedBy === lookUp) continue;
          entry.countedBy = lookUp;
          total += entry.weight * overlapArea(rect, entry.rect);
        }
      });
      return total;
    },
  };
};

const CURVE_STOPS = [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85];
const LOOP_STOPS = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];

/** A cost under this is a spot that covers nothing (`placeLabels` weighs covered area by a thousand). */
const CLEAR = 1000;

/**
 * Places each label on its edge where it covers no obstacle (the editor's nodeObstacles: nodes, what is drawn
 * above them, their handles) and no label placed before it: along the edge first, then just above
 * or below it. Where every spot is taken, the least covered one, by area times the obstacle's weight.
 */
export const placeLabels = (obstacles: readonly Obstacle[], labels: readonly LabelRequest[]): Map<string, PlacedLabel> => placeLabelsKeeping(obstacles, labels).placed;

/**
 * `placeLabels`, where a label placed before (`previous`) on the same route with the same size stays
 * where it was unless its spot now covers more than it did: after a drop or an edit only the labels
 * it concerns are placed again (looking for a place is up to 63 look-ups a label, keeping one is
 * one; in a crowded graph most labels cover something wherever they go, and looked at every spot),
 * and the others do not move about the canvas. `basis` is what to pass as `previous` the next time.
 */
export const placeLabelsKeeping = (obstacles: readonly Obstacle[], labels: readonly LabelRequest[], previous: ReadonlyMap<string, LabelBasis> = new Map()) => {
  // In the order they were placed last time, so that placing again what nothing changed keeps every label.
  const known = new Map(labels.map((label) => [label.id, label]));
  const before = [...previous.keys()].flatMap((id) => known.get(id) ?? []);
  const order = before.length === 0 ? labels : [...before, ...labels.filter((label) => !previous.has(label.id))];
  let best = placeLabelsInOrder(obstacles, order, previous);
  if (labels.length > REORDER_UP_TO) return best;
  // Placed one after another, a label that found no clear spot may have lost it to one placed
  // before it that had others: placed first, as the most constrained, it may find one, and the
  // others go round it. Tried while it helps, and only for labels looked for anew (a label kept
  // where it was stays there).
  const first: LabelRequest[] = [];
  for (let round = 0; round < REORDER_ROUNDS && best.searchedUnclear.length > 0; round += 1) {
    for (const id of best.searchedUnclear) if (!first.some((label) => label.id === id)) first.push(known.get(id)!);
    const next = placeLabelsInOrder(obstacles, [...first, ...order.filter((label) => !first.includes(label))], previous);
    if (next.unclear > best.unclear || (next.unclear === best.unclear && next.cost >= best.cost)) break;
    best = next;
  }
  return best;
};

/** Up to this many labels, an unclear one is tried first (placeLabelsKeeping): a few more passes over few labels. */
const REORDER_UP_TO = 80;
const REORDER_ROUNDS = 4;

/** Places `labels` one after another in this order, each where it covers least of what is there (exported for its test). */
export const placeLabelsInOrder = (obstacles: readonly Obstacle[], labels: readonly LabelRequest[], previous: ReadonlyMap<string, LabelBasis>) => {
  const index = spatialIndex(160);
  for (const obstacle of obstacles) index.add(obstacle, obstacle.weight);
  const within = drawnExtent(obstacles, labels);
  const placed = new Map<string, PlacedLabel>();
  const basis = new Map<string, LabelBasis>();
  /** Where each label is drawn: the view fits them too (editor/fit.ts). */
  const boxes = new Map<string, Rect>();
  /** Labels looked for anew that found no clear spot; how many labels found none; what every spot cost. */
  const searchedUnclear: string[] = [];
  let [unclear, total] = [0, 0];
  const rectAt = (route: EdgeRoute, size: LabelRequest['size'], t: number, dy: number, dx = 0): Rect => {
    const centre = route.at(t);
    return { x: centre.x + dx - size.width / 2, y: centre.y + dy - size.height / 2, width: size.width, height: size.height };
  };
  // A small preference for the middle of the edge and for sitting on it.
  const costOf = (rect: Rect, t: number, dy: number, dx = 0) => index.overlap(rect) * 1000 + Math.abs(t - 0.5) + (Math.abs(dy) + Math.abs(dx)) / 50;
  for (const { id, route, size } of labels) {
    const before = previous.get(id);
    if (before && before.path === route.path && before.width === size.width && before.height === size.height) {
      const rect = rectAt(route, size, before.label.t, before.label.dy, before.label.dx);
      const cost = costOf(rect, before.label.t, before.label.dy, before.label.dx);
      if (cost <= before.cost) {
        placed.set(id, before.label);
        basis.set(id, { ...before, cost });
        boxes.set(id, rect);
        index.add(rect);
        if (cost >= CLEAR) unclear += 1;
        total += cost;
        continue;
      }
    }
    let best: { label: PlacedLabel; rect: Rect; cost: number } | null = null;
    // On the edge, then just above or below it, then further off where nodes crowd it.
    const step = size.height / 2 + 8;
    const shifts = [0, -step, step, -2 * step, 2 * step, -3 * step, 3 * step];
    // Where the edge runs between nodes too close for its label, beside the edge: ending where the
    // edge is, or starting there (a label near its edge's start reads as the name of the way out).
    const sideways = size.width / 2 + 12;
    outer: for (const dx of [0, -sideways, sideways])
      for (const dy of shifts)
        for (const t of route.loop ? LOOP_STOPS : CURVE_STOPS) {
          const rect = rectAt(route, size, t, dy, dx);
          const cost = costOf(rect, t, dy, dx);
          if (!best || cost < best.cost) best = { label: { t, dx, dy }, rect, cost };
          if (cost < CLEAR) break outer;
        }
    // Nothing on or beside the edge is clear (a short edge between close nodes, a label made long
    // by a run's counts and reason): the nearest clear spot off it, which its edge points to (editor/edges/ConditionEdge.tsx, leader).
    if (best && best.cost >= CLEAR) {
      const far = farSpot(route, size, (rect) => index.overlap(rect), within);
      if (far) {
        const rect = rectAt(route, size, far.t, far.dy, far.dx);
        best = { label: far, rect, cost: costOf(rect, far.t, far.dy, far.dx) };
      }
    }
    if (best) {
      placed.set(id, best.label);
      basis.set(id, { label: best.label, path: route.path, width: size.width, height: size.height, cost: best.cost });
      boxes.set(id, best.rect);
      index.add(best.rect);
      if (best.cost >= CLEAR) {
        unclear += 1;
        searchedUnclear.push(id);
      }
      total += best.cost;
    }
  }
  return { placed, basis, boxes, unclear, cost: total, searchedUnclear };
};

/** How far apart the rings of spots round an edge's stops are, and how many there are. */
const RING_STEP = 16;
const RINGS = 12;

/**
 * The nearest spot round the edge's stops where a label covers nothing (`overlap` of its box is 0),
 * ring by ring outwards: above, below, left and right of a stop, then at its corners; inside
 * `within` (drawnExtent) where there is one there. Null where there is none within RINGS rings.
 * A label placed there is off its edge: its edge draws a leader to it (editor/edges/ConditionEdge.tsx). At most
 * RINGS × 8 look-ups a stop, and only for a label with no clear spot on or beside its edge.
 */
export const farSpot = (route: EdgeRoute, size: LabelRequest['size'], overlap: (rect: Rect) => number, within: Rect): PlacedLabel | null =>
  spotWithin(route, size, overlap, within) ?? spotWithin(route, size, overlap, null);

/** Whether `inner` lies inside `outer`. */
const inside = (inner: Rect, outer: Rect) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/**
 * The box the graph is drawn in without its labels: its nodes with what is drawn above them, and its
 * edges' ends and middles (a loop's run under the nodes). A label off its edge goes inside it where
 * it can: a view fitted to the graph shows it, though the view is not fitted again as a run's labels grow.
 */
export const drawnExtent = (obstacles: readonly Rect[], labels: readonly LabelRequest[]): Rect =>
  unionOf([...obstacles, ...labels.flatMap(({ route }) => [0, 0.5, 1].map((t) => ({ ...route.at(t), width: 0, height: 0 })))]);

const spotWithin = (route: EdgeRoute, size: LabelRequest['size'], overlap: (rect: Rect) => number, within: Rect | null): PlacedLabel | null => {
  const stops = route.loop ? LOOP_STOPS : CURVE_STOPS;
  const [halfWidth, halfHeight] = [size.width / 2, size.height / 2];
  for (let ring = 1; ring <= RINGS; ring += 1) {
    const gap = ring * RING_STEP;
    const offsets = [
      [0, -(halfHeight + gap)], [0, halfHeight + gap], [-(halfWidth + gap), 0], [halfWidth + gap, 0],
      [-(halfWidth + gap), -(halfHeight + gap)], [halfWidth + gap, -(halfHeight + gap)], [-(halfWidth + gap), halfHeight + gap], [halfWidth + gap, halfHeight + gap],
    ];
    for (const t of stops) {
      const centre = route.at(t);
      for (const [dx, dy] of offsets) {
        const rect = { x: centre.x + dx - halfWidth, y: centre.y + dy - halfHeight, width: size.width, height: size.height };
        if ((!within || inside(rect, within)) && overlap(rect) === 0) return { t, dx, dy };
      }
    }
  }
  return null;
};
