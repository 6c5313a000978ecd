/**
 * Whether two versions of a graph run alike: a run made on one holds for the other. What a run
 * reads is compared (entry, finally, limits, permissions, initial state, skills, each node's kind
 * and config, each edge's ends and condition); where nodes sit, labels, the name and the scenarios are not: moving
 * a node or saving a scenario leaves the run on screen as current as it was.
 */
import type { GraphEdge, GraphFile, GraphNode } from './schema.ts';

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** A node's part in a run: unchanged objects are the same (an edit keeps what it does not touch). */
const sameNodeWork = (a: GraphNode, b: GraphNode) => a === b || (a.id === b.id && a.kind === b.kind && sameJson(a.config, b.config));

/** An edge's part: its ends and its condition, in its place (edges of a source are tried in file order). */
const sameEdgeWork = (a: GraphEdge, b: GraphEdge) => a === b || (a.id === b.id && a.source === b.source && a.target === b.target && sameJson(a.when, b.when));

export const sameBehaviour = (a: GraphFile, b: GraphFile): boolean => {
  if (a === b) return true;
  if (a.entry !== b.entry || a.finally !== b.finally || a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length) return false;
  if (!a.nodes.every((node, index) => sameNodeWork(node, b.nodes[index]))) return false;
  if (!a.edges.every((edge, index) => sameEdgeWork(edge, b.edges[index]))) return false;
  return sameJson(a.limits, b.limits) && sameJson(a.permissions, b.permissions) && sameJson(a.state, b.state) && sameJson(a.skills, b.skills);
};
