import type { GraphFile, GraphNode, Problem } from '../graph/index.ts';
import type { CheckedGraph } from '../graph/validate.ts';

type Checks = typeof import('../graph/validate.ts');
let checks: Checks | null = null;
let loading: Promise<void> | null = null;

/**
 * The graph's check (validate.ts), with the schemas and zod it reads, loads after the page's first
 * screen, which shows a graph before it has checked it.
 */
export const loadChecks = (): Promise<void> =>
  checks ? Promise.resolve() : (loading ??= import('../graph/validate.ts').then((loaded) => void (checks = loaded)));

export const checksReady = () => checks !== null;

/** The last graph checked, with what its problems were found from: the next check finds them again only where the edit reached. */
let lastChecked: CheckedGraph | null = null;

/** The graph's problems, or null while the check has not loaded (it is asked to load). */
export const checkedProblems = (graph: GraphFile): Problem[] | null => {
  if (checks) return (lastChecked = checks.checkGraph(graph, lastChecked)).problems;
  void loadChecks();
  return null;
};

/** True when `next` differs from `previous` only in where nodes sit: the same fields, nodes and order. */
export const onlyPositionsChanged = (previous: GraphFile, next: GraphFile): boolean => {
  if (previous === next) return true;
  for (const key of Object.keys(next) as (keyof GraphFile)[]) if (key !== 'nodes' && next[key] !== previous[key]) return false;
  if (Object.keys(previous).length !== Object.keys(next).length) return false;
  if (previous.nodes.length !== next.nodes.length) return false;
  return next.nodes.every((node, index) => {
    const before = previous.nodes[index];
    return node === before || samePlaceAside(before, node);
  });
};

/** Same node apart from its position: keys compared by identity, as the graph's edits replace what they change. */
const samePlaceAside = (before: GraphNode, after: GraphNode) => {
  const keys = Object.keys(after) as (keyof GraphNode)[];
  return keys.length === Object.keys(before).length && keys.every((key) => key === 'position' || after[key] === before[key]);
};

/**
 * The problems of the graph after an edit, computed in this one place: a move (a drag frame, an
 * auto layout) cannot change any problem, so it keeps the previous ones instead of revalidating
 * (null, not checked yet, stays null: the check waiting for the first drawing checks the moved graph).
 * Before the check has loaded (the page's first moments) an edit is not checked yet either.
 */
export const problemsAfter = (previous: GraphFile, previousProblems: Problem[] | null, next: GraphFile): Problem[] | null =>
  onlyPositionsChanged(previous, next) ? previousProblems : checkedProblems(next);
