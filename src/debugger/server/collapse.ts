/**
 * Subgraphs collapsed to one node (issue 52): the drawing shown when the person folds some groups.
 * A collapsed group is the parent graph's node that runs it (`agent` for `agent:pick`, `agent:act`),
 * its nodes and inner groups left out; edges from or to a node inside go from or to it, keeping
 * their ids (so the edge that fired is still marked), and edges between its own nodes are not drawn.
 */
import type { DrawnNode, ServerDrawing } from '../../runtime/serverGraph.ts';

export interface CollapsedDrawing {
  drawing: ServerDrawing;
  /** Each collapsed group drawn as a node, and how many nodes it holds. */
  inside: Map<string, number>;
}

/** The collapsed group holding `id` (a node's or an inner group's), outermost first, or null. */
export const collapsedHolding = (id: string, collapsed: ReadonlySet<string>): string | null => {
  const parts = id.split(':');
  for (let length = 1; length < parts.length; length += 1) {
    const group = parts.slice(0, length).join(':');
    if (collapsed.has(group)) return group;
  }
  return null;
};

/** `drawing` with the groups in `collapsed` (ids of its groups; others are ignored) each drawn as one node. */
export const collapseDrawing = (drawing: ServerDrawing, collapsed: ReadonlySet<string>): CollapsedDrawing => {
  const folded = new Set(drawing.groups.filter((group) => collapsed.has(group.id) && collapsedHolding(group.id, collapsed) === null).map((group) => group.id));
  if (folded.size === 0) return { drawing, inside: new Map() };
  const shownAs = (id: string) => collapsedHolding(id, folded) ?? id;
  const inside = new Map<string, number>();
  const nodes: DrawnNode[] = [];
  for (const node of drawing.nodes) {
    const holder = collapsedHolding(node.id, folded);
    if (holder === null) nodes.push(node);
    else inside.set(holder, (inside.get(holder) ?? 0) + 1);
  }
  for (const group of drawing.groups)
    if (folded.has(group.id)) nodes.push({ id: group.id, name: group.name, group: group.group, type: 'node', tools: [], interrupt: null });
  const edges = drawing.edges.flatMap((edge) => {
    const [source, target] = [shownAs(edge.source), shownAs(edge.target)];
    return source === target && source !== edge.source ? [] : [{ ...edge, source, target }];
  });
  return { drawing: { nodes, edges, groups: drawing.groups.filter((group) => !folded.has(group.id) && collapsedHolding(group.id, folded) === null) }, inside };
};
