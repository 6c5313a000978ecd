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

const sameAs = (a: ElementProblems, b: ElementProblems | undefined) =>
  b !== undefined && a.severity === b.severity && a.messages.length === b.messages.length && a.messages.every((message, index) => message === b.messages[index]);

/** `found`, with each element's entry as it was in `before` where it says the same: its mark is not drawn again. */
const keeping = (found: Map<string, ElementProblems>, before: ReadonlyMap<string, ElementProblems> | undefined) => {
  if (before) for (const [id, entry] of found) if (sameAs(entry, before.get(id))) found.set(id, before.get(id)!);
  return found;
};

/**
 * The worst severity and the messages of each node and edge, for marking them on the canvas;
 * `previous`, the last answer, whose entries are kept where they did not change.
 */
export const problemsByElement = (problems: readonly Problem[], previous?: ProblemsByElement): ProblemsByElement => {
  const nodes = new Map<string, ElementProblems>();
  const edges = new Map<string, ElementProblems>();
  for (const problem of problems) {
    if (problem.nodeId) add(nodes, problem.nodeId, problem);
    if (problem.edgeId) add(edges, problem.edgeId, problem);
  }
  return { nodes: keeping(nodes, previous?.nodes), edges: keeping(edges, previous?.edges) };
};

const cache = new WeakMap<readonly Problem[], ProblemsByElement>();
const UNCHECKED: ProblemsByElement = { nodes: new Map(), edges: new Map() };
let last: ProblemsByElement | undefined;

/**
 * A store selector: `useApp(selectProblemsByElement)`. The store makes `problems` a new array when
 * an edit changed them, so caching by array identity keeps the result stable between renders; and
 * an element whose problems read the same keeps its entry, so an edit redraws only the marks it changed.
 */
export const selectProblemsByElement = (state: { problems: readonly Problem[] | null }): ProblemsByElement => {
  if (state.problems === null) return UNCHECKED;
  let result = cache.get(state.problems);
  if (!result) {
    result = last = problemsByElement(state.problems, last);
    cache.set(state.problems, result);
  }
  return result;
};
