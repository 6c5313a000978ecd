import type { Problem } from '../graph/index.ts';

export interface ElementProblems {
  severity: Problem['severity'];
  messages: string[];
}

/** Maps, not objects: an id may be `toString` or `constructor`, which every object already has. */
export interface ProblemsByElement {
  nodes: ReadonlyMap<string, ElementProblems>;
  edges: ReadonlyMap<string, ElementProblems>;
}

const add = (into: Map<string, ElementProblems>, id: string, problem: Problem) => {
  const existing = into.get(id);
  if (!existing) into.set(id, { severity: problem.severity, messages: [problem.message] });
  else {
    existing.messages.push(problem.message);
    if (problem.severity === 'error') existing.severity = 'error';
  }
};

/** The worst severity and the messages of each node and edge, for marking them on the canvas. */
export const problemsByElement = (problems: readonly Problem[]): ProblemsByElement => {
  const nodes = new Map<string, ElementProblems>();
  const edges = new Map<string, ElementProblems>();
  for (const problem of problems) {
    if (problem.nodeId) add(nodes, problem.nodeId, problem);
    if (problem.edgeId) add(edges, problem.edgeId, problem);
  }
  return { nodes, edges };
};

const cache = new WeakMap<readonly Problem[], ProblemsByElement>();
const UNCHECKED: ProblemsByElement = { nodes: new Map(), edges: new Map() };

/**
 * A store selector: `useApp(selectProblemsByElement)`. The store makes `problems` a new array when
 * an edit changed them (validate.ts checkGraph), so caching by array identity keeps the result
 * stable between renders. A big graph draws only the nodes in view, so an edit that changes a
 * problem redraws only the marks in view, not one per node.
 */
export const selectProblemsByElement = (state: { problems: readonly Problem[] | null }): ProblemsByElement => {
  if (state.problems === null) return UNCHECKED;
  let result = cache.get(state.problems);
  if (!result) {
    result = problemsByElement(state.problems);
    cache.set(state.problems, result);
  }
  return result;
};
