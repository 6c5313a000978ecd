import type { Problem } from '../graph/index.ts';

export interface ElementProblems {
  severity: Problem['severity'];
  messages: string[];
}

export interface ProblemsByElement {
  nodes: Record<string, ElementProblems>;
  edges: Record<string, ElementProblems>;
}

const add = (into: Record<string, ElementProblems>, id: string, problem: Problem) => {
  const existing = into[id];
  into[id] = {
    severity: existing?.severity === 'error' || problem.severity === 'error' ? 'error' : 'warning',
    messages: [...(existing?.messages ?? []), problem.message],
  };
};

/** The worst severity and the messages of each node and edge, for marking them on the canvas. */
export const problemsByElement = (problems: readonly Problem[]): ProblemsByElement => {
  const result: ProblemsByElement = { nodes: {}, edges: {} };
  for (const problem of problems) {
    if (problem.nodeId) add(result.nodes, problem.nodeId, problem);
    if (problem.edgeId) add(result.edges, problem.edgeId, problem);
  }
  return result;
};

const cache = new WeakMap<readonly Problem[], ProblemsByElement>();

/**
 * A store selector: `useApp(selectProblemsByElement)`. The store recomputes `problems` as a new
 * array on each change, so caching by array identity keeps the result stable between renders.
 */
export const selectProblemsByElement = (state: { problems: readonly Problem[] }): ProblemsByElement => {
  let result = cache.get(state.problems);
  if (!result) {
    result = problemsByElement(state.problems);
    cache.set(state.problems, result);
  }
  return result;
};
