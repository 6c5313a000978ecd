/**
 * Loops placed again after an edit, loaded after the first screen with the label placement
 * (edgePlacement.ts): a drop of a few nodes, a rename, a node or an edge added or deleted on a big
 * graph places again only the loops the edit may move, not every loop of it (issue 57).
 */
import type { GraphEdge, GraphFile, GraphNode } from '../graph/index.ts';
import { drawnAsLoop, firstFrom, inOrder, nodeRect, placedLoop, pushedBy, stacked, tallestOf, topOf, UNDER_NODE, OVER_RUN, type LoopPlacement, type PlacedLoop, type Point, type Rect, type Skills } from './geometry.ts';

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
  /** The back edges the loops were drawn with. */
  back: ReadonlySet<string>;
}

/**
 * The loops of `graph` from those `basis` was placed for, after any edit of it: nodes moved,
 * edited, added or deleted, edges added, removed or changed. Only the loops the edit reached are
 * placed again: those of edges it changed, of nodes it changed, or that became or stopped being back
 * edges, and the loops a box that moved, came or went could push. The basis follows. Null when
 * they must all be placed again (the skills changed, a node's height or the tallest box changed,
 * ids are not unique, or the edges were put in another order).
 */
export const loopsAfterEdit = (
  basis: LoopBasis,
  graph: GraphFile,
  back: ReadonlySet<string>,
  endsOf: (edge: GraphEdge, source: GraphNode, target: GraphNode, skills: Skills) => { from: Point; to: Point },
): ReadonlyMap<string, number> | null => {
  const before = basis.graph;
  if (before === graph) return basis.placement.levels;
  // A node's height reads the skills (an MCP skill's tools): a change of them may change every box.
  if (before.skills !== graph.skills) return null;
  const nodes = nodeChanges(before, graph, basis.indexOf);
  if (!nodes) return null;
  const edgesChanged = before.edges !== graph.edges;
  const edgeAt = edgesChanged || back !== basis.back ? indexed(graph.edges) : null;
  if (edgeAt === undefined) return null;
  const { levels } = basis.placement;
  const touched = new Map<string, { edge: GraphEdge; at: number }>();
  const gone = new Set<string>();
  const rects = new Map<string, Rect | null>();
  for (const { id, node } of nodes.changed) {
    const [was, rect] = [basis.rects.get(id), node && nodeRect(node, graph.skills)];
    // A box where it was (a field edit, a rename to as long a name) pushes no loop anew.
    if (!was || !rect || rect.x !== was.x || rect.y !== was.y || rect.width !== was.width || rect.height !== was.height) rects.set(id, rect);
    for (const { edge, at } of basis.edgesOf.get(id) ?? []) {
      const now = edgeAt ? edgeAt.get(edge.id) : { edge, at };
      if (now) touched.set(edge.id, now);
    }
  }
  if (edgesChanged && edgeAt) {
    for (const edge of before.edges) {
      const now = edgeAt.get(edge.id);
      if (!now) gone.add(edge.id);
      else if (now.edge !== edge) touched.set(edge.id, now);
    }
    const was = new Set(before.edges.map((edge) => edge.id));
    for (const [id, now] of edgeAt) if (!was.has(id)) touched.set(id, now);
  }
  // An edge added or gone may change which edges elsewhere are back edges, and so drawn as loops.
  if (back !== basis.back && edgeAt)
    for (const id of new Set([...basis.back, ...back]))
      if (basis.back.has(id) !== back.has(id)) {
        const now = edgeAt.get(id);
        if (now) touched.set(id, now);
      }
  const nodeOf = (id: string) => {
    const index = nodes.indexOf.get(id);
    return index === undefined ? undefined : graph.nodes[index];
  };
  const ends: { id: string; from: Point; to: Point; at: number }[] = [];
  for (const [id, { edge, at }] of touched) {
    const [source, target] = [nodeOf(edge.source), nodeOf(edge.target)];
    const end = source && target ? endsOf(edge, source, target, graph.skills) : null;
    if (end && drawnAsLoop(end.from, end.to, back.has(id))) ends.push({ id, ...end, at });
    else gone.add(id);
  }
  for (const id of gone) if (!levels.has(id)) gone.delete(id);
  const moved = [...rects].map(([id, after]) => ({ before: basis.rects.get(id) ?? null, after }));
  const kept = withMoves(basis.placement, moved, { gone, ends }, edgeAt && ((id) => edgeAt.get(id)!.at));
  if (!kept) return null;
  for (const [id, rect] of rects) {
    if (rect) basis.rects.set(id, rect);
    else basis.rects.delete(id);
  }
  if (edgesChanged || nodes.indexOf !== basis.indexOf) basis.edgesOf = edgesByNode(graph, nodes.indexOf);
  Object.assign(basis, { graph, placement: kept, back, indexOf: nodes.indexOf });
  return kept.levels;
};

/** Each edge by id with its place, or undefined when two edges share an id. */
const indexed = (edges: readonly GraphEdge[]) => {
  const byId = new Map<string, { edge: GraphEdge; at: number }>();
  for (const [at, edge] of edges.entries()) byId.set(edge.id, { edge, at });
  return byId.size === edges.length ? byId : undefined;
};

/** Each node's edges with their place, as placeLoopsFrom's caller files them: an edge whose ends are both nodes. */
export const edgesByNode = (graph: GraphFile, indexOf: ReadonlyMap<string, number>) => {
  const edgesOf = new Map<string, { edge: GraphEdge; at: number }[]>();
  for (const [at, edge] of graph.edges.entries()) {
    if (!indexOf.has(edge.source) || !indexOf.has(edge.target)) continue;
    for (const id of new Set([edge.source, edge.target])) {
      const list = edgesOf.get(id);
      if (list) list.push({ edge, at });
      else edgesOf.set(id, [{ edge, at }]);
    }
  }
  return edgesOf;
};

/**
 * The nodes an edit replaced, added (a node) or deleted (null), by id, and each node's place after
 * it; null when ids are not unique.
 */
const nodeChanges = (before: GraphFile, after: GraphFile, indexOf: Map<string, number>) => {
  const changed: { id: string; node: GraphNode | null }[] = [];
  const sameIds = before.nodes.length === after.nodes.length && after.nodes.every((node, index) => node.id === before.nodes[index].id);
  if (sameIds) {
    for (const [index, node] of after.nodes.entries()) if (node !== before.nodes[index]) changed.push({ id: node.id, node });
    return { changed, indexOf };
  }
  const now = new Map(after.nodes.map((node, index) => [node.id, index]));
  if (now.size !== after.nodes.length) return null;
  for (const node of before.nodes) if (!now.has(node.id)) changed.push({ id: node.id, node: null });
  for (const node of after.nodes) {
    const was = indexOf.get(node.id);
    if (was === undefined || before.nodes[was] !== node) changed.push({ id: node.id, node });
  }
  return { changed, indexOf: now };
};

/** Whether a node's box is among those `pushedBy` looks at for this loop placed as it was. */
const pushes = (rect: Rect, loop: PlacedLoop, tallest: number) =>
  rect.x < loop.right && rect.x + rect.width > loop.left && rect.y >= loop.start - tallest - UNDER_NODE && rect.y < loop.pushed + OVER_RUN;

const overlaps = (a: { left: number; right: number }, b: { left: number; right: number }) => a.left < b.right && a.right > b.left;


/**
 * The placement after some nodes moved (their boxes before and after, the same heights), came
 * (no box before) or went (none after), and some loops' ends moved, came or went (`at` as
 * placeLoopsFrom's; `atOf`, each edge's place now when edges came or went before it): exactly what
 * placing every loop again would give. Only loops a moved box could push, or with new ends, look at
 * the nodes again, and only loops over the stretch of a loop whose level changed are stacked again;
 * null when a height or the tallest box changed, or the edges changed order.
 */
export const withMoves = (
  placement: LoopPlacement,
  moved: readonly { before: Rect | null; after: Rect | null }[],
  changed: { gone: ReadonlySet<string>; ends: readonly { id: string; from: Point; to: Point; at: number }[] },
  atOf: ((id: string) => number) | null = null,
): LoopPlacement | null => {
  const { tallest } = placement;
  if (moved.some(({ before, after }) => (before && after ? before.height !== after.height : (after?.height ?? 0) > tallest))) return null;
  const byTop = [...placement.byTop];
  for (const { before, after } of moved) {
    if (before) {
      let index = firstFrom(byTop, topOf, before.y);
      while (index < byTop.length && byTop[index] !== before) index += 1;
      if (index === byTop.length) return null;
      byTop.splice(index, 1);
    }
    if (after) byTop.splice(firstFrom(byTop, topOf, after.y), 0, after);
  }
  // The last of the tallest boxes gone changes how far above it every loop looks.
  if (moved.some(({ before, after }) => before && !after && before.height === tallest) && tallestOf(byTop) < tallest) return null;
  const renewed = new Set([...changed.gone, ...changed.ends.map((loop) => loop.id)]);
  // What changed along the way: a loop re-stacked below overlaps one of these, or keeps its level.
  const stretches: { left: number; right: number }[] = placement.loops.filter((loop) => renewed.has(loop.id));
  const loops = placement.loops.filter((loop) => !renewed.has(loop.id)).map((loop): PlacedLoop => ({ ...loop, order: atOf ? [loop.order[0], atOf(loop.id)] : loop.order }));
  if (atOf && loops.some((loop, index) => index > 0 && inOrder(loops[index - 1], loop) > 0)) return null;
  for (const loop of changed.ends) {
    const fresh = placedLoop(loop, loop.at);
    loops.splice(firstFrom(loops, (other) => (inOrder(other, fresh) < 0 ? -1 : 0), 0), 0, fresh);
  }
  const levels = new Map<string, number>();
  for (const [index, loop] of loops.entries()) {
    const fresh = renewed.has(loop.id);
    if (fresh || moved.some(({ before, after }) => (before !== null && pushes(before, loop, tallest)) || (after !== null && pushes(after, loop, tallest)))) {
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
