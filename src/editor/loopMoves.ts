/**
 * Loops placed again after a drop, loaded after the first screen with the label placement
 * (edgePlacement.ts): a drop of a few nodes on a big graph places again only the loops those nodes
 * may move, not every loop of it (issue 57).
 */
import { firstFrom, inOrder, placedLoop, pushedBy, stacked, topOf, UNDER_NODE, OVER_RUN, type LoopPlacement, type PlacedLoop, type Point, type Rect } from './geometry.ts';

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
): (LoopPlacement & { looked: number }) | null => {
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
  let looked = 0;
  const levels = new Map<string, number>();
  for (const [index, loop] of loops.entries()) {
    const fresh = renewed.has(loop.id);
    if (fresh || moved.some(({ before, after }) => pushes(before, loop, tallest) || pushes(after, loop, tallest))) {
      looked += 1;
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
  return { levels, loops, byTop, tallest, looked };
};
