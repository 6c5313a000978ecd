/**
 * Loops placed again after a drop, loaded after the first screen with the label placement
 * (edgePlacement.ts): a drop of a few nodes on a big graph places again only the loops those nodes
 * may move, not every loop of it (issue 57).
 */
import type { GraphEdge, GraphFile, GraphNode } from '../graph/index.ts';
import { drawnAsLoop, firstFrom, inOrder, nodeRect, placedLoop, pushedBy, stacked, topOf, UNDER_NODE, OVER_RUN, type LoopPlacement, type PlacedLoop, type Point, type Rect, type Skills } from './geometry.ts';

/**
 * What a graph's loops were last placed from (flowAdapter.ts): the placement, each node's box, each
 * node's edges with their index, and each node's place in the list.
 */
export interface LoopBasis {
  graph: GraphFile;
  placement: LoopPlacement;
  rects: Map<string, Rect>;
  edgesOf: Map<string, { edge: GraphEdge; at: number }[]>;
  indexOf: Map<string, number>;
}

/**
 * The loops of `graph`, the graph `basis` was placed for with the nodes at `replaced` moved or edited
 * (its edges, entry and skills the same), placed again only where those nodes may move them; the
 * basis follows. Null when they must all be placed again.
 */
export const loopsAfterMoves = (
  basis: LoopBasis,
  graph: GraphFile,
  replaced: readonly number[],
  back: ReadonlySet<string>,
  endsOf: (edge: GraphEdge, source: GraphNode, target: GraphNode, skills: Skills) => { from: Point; to: Point },
): ReadonlyMap<string, number> | null => {
  if (replaced.length === 0) return basis.placement.levels;
  const nodeOf = (id: string) => graph.nodes[basis.indexOf.get(id) ?? -1];
  const rects = new Map<string, Rect>();
  const gone = new Set<string>();
  const ends = new Map<string, { id: string; from: Point; to: Point; at: number }>();
  for (const index of replaced) {
    const node = graph.nodes[index];
    rects.set(node.id, nodeRect(node, graph.skills));
    for (const { edge, at } of basis.edgesOf.get(node.id) ?? []) {
      const end = endsOf(edge, nodeOf(edge.source), nodeOf(edge.target), graph.skills);
      if (drawnAsLoop(end.from, end.to, back.has(edge.id))) ends.set(edge.id, { id: edge.id, ...end, at });
      else if (basis.placement.levels.has(edge.id)) gone.add(edge.id);
    }
  }
  const moved = [...rects].map(([id, after]) => ({ before: basis.rects.get(id)!, after }));
  const kept = withMoves(basis.placement, moved, { gone, ends: [...ends.values()] });
  if (!kept) return null;
  for (const [id, rect] of rects) basis.rects.set(id, rect);
  Object.assign(basis, { graph, placement: kept });
  return kept.levels;
};

/** Whether a node's box is among those `pushedBy` looks at for this loop placed as it was. */
const pushes = (rect: Rect, loop: PlacedLoop, tallest: number) =>
  rect.x < loop.right && rect.x + rect.width > loop.left && rect.y >= loop.start - tallest - UNDER_NODE && rect.y < loop.pushed + OVER_RUN;

const overlaps = (a: { left: number; right: number }, b: { left: number; right: number }) => a.left < b.right && a.right > b.left;


/**
 * The placement after some nodes moved (their boxes before and after, the same heights) and some
 * loops' ends moved, came or went (`at` as placeLoopsFrom's): exactly what placing every loop again
 * would give. Only loops a moved box could push, or with new ends, look at the nodes again, and only
 * loops over the stretch of a loop whose level changed are stacked again; null when a height changed.
 */
export const withMoves = (
  placement: LoopPlacement,
  moved: readonly { before: Rect; after: Rect }[],
  changed: { gone: ReadonlySet<string>; ends: readonly { id: string; from: Point; to: Point; at: number }[] },
): LoopPlacement | null => {
  const { tallest } = placement;
  if (moved.some(({ before, after }) => before.height !== after.height)) return null;
  const byTop = [...placement.byTop];
  for (const { before, after } of moved) {
    let index = firstFrom(byTop, topOf, before.y);
    while (index < byTop.length && byTop[index] !== before) index += 1;
    if (index === byTop.length) return null;
    byTop.splice(index, 1);
    byTop.splice(firstFrom(byTop, topOf, after.y), 0, after);
  }
  const renewed = new Set([...changed.gone, ...changed.ends.map((loop) => loop.id)]);
  // What changed along the way: a loop re-stacked below overlaps one of these, or keeps its level.
  const stretches: { left: number; right: number }[] = placement.loops.filter((loop) => renewed.has(loop.id));
  const loops = placement.loops.filter((loop) => !renewed.has(loop.id)).map((loop) => ({ ...loop }));
  for (const loop of changed.ends) {
    const fresh = placedLoop(loop, loop.at);
    loops.splice(firstFrom(loops, (other) => (inOrder(other, fresh) < 0 ? -1 : 0), 0), 0, fresh);
  }
  const levels = new Map<string, number>();
  for (const [index, loop] of loops.entries()) {
    const fresh = renewed.has(loop.id);
    if (fresh || moved.some(({ before, after }) => pushes(before, loop, tallest) || pushes(after, loop, tallest))) {
      const pushed = pushedBy(loop, byTop, tallest);
      if (pushed !== loop.pushed) stretches.push(loop);
      loop.pushed = pushed;
    }
    if (fresh || stretches.some((stretch) => overlaps(stretch, loop))) {
      const level = stacked(loop, loops, index);
      if (level !== loop.level || fresh) stretches.push(loop);
      loop.level = level;
    }
    levels.set(loop.id, loop.level);
  }
  return { levels, loops, byTop, tallest };
};
