/**
 * The task level: which edge a node's outcome and the state choose. Conditions are data read by
 * this small interpreter (never eval), and every evaluation says which values it read.
 */
import { edgesInTryOrder, type GraphFile, type When } from '../graph/index.ts';
import { compareOp } from '../graph/compare.ts';
import { reasonOf, type Reason } from '../graph/reason.ts';
import { readPath } from '../skills/index.ts';
import type { EdgeCheck, Fired } from './trace.ts';

export interface Evaluation {
  matched: boolean;
  /** What was compared and found (reason.ts); reasonWords words it. */
  why: Reason;
}

export interface ConditionInput {
  outcome: string | null;
  state: Readonly<Record<string, unknown>>;
}

/** A condition evaluated on a node's outcome and the state: whether it matched, and the values it read. */
export const evaluateWhen = (when: When | undefined, input: ConditionInput): Evaluation => {
  const why = reasonOf(when, { outcome: input.outcome, read: (path) => readPath(input.state, path), compare: compareOp });
  return { matched: why.matched === true, why };
};

export interface EdgeChoice {
  edges: EdgeCheck[];
  fired: Fired | null;
}

/** File order, `otherwise` last, first match fires; no match means the run has no route. */
export const chooseEdge = (graph: GraphFile, source: string, input: ConditionInput): EdgeChoice => {
  const edges: EdgeCheck[] = [];
  let fired: Fired | null = null;
  for (const edge of edgesInTryOrder(graph, source)) {
    if (fired) {
      edges.push({ id: edge.id, target: edge.target, matched: false, skipped: true, why: { is: 'not_tried', fired: fired.id } });
      continue;
    }
    const evaluation: Evaluation = edge.when === 'otherwise'
      ? { matched: true, why: { is: 'otherwise', matched: true } }
      : evaluateWhen(edge.when, input);
    edges.push({ id: edge.id, target: edge.target, matched: evaluation.matched, why: evaluation.why });
    if (evaluation.matched) fired = { id: edge.id, target: edge.target, why: evaluation.why };
  }
  return { edges, fired };
};
