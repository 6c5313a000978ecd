/**
 * The task level: which edge a node's outcome and the state choose. Conditions are data read by
 * this small interpreter (never eval), and every evaluation says which values it read.
 */
import { edgesInTryOrder, LIMITS, type GraphFile, type When } from '../graph/index.ts';
import { compareOp } from '../graph/when.ts';
import { readPath } from '../skills/index.ts';
import type { EdgeCheck, Fired } from './trace.ts';

export interface Evaluation {
  matched: boolean;
  explain: string;
}

export interface ConditionInput {
  outcome: string | null;
  state: Readonly<Record<string, unknown>>;
}

const show = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value));

/**
 * `otherwise` is decided by the edge chooser, not here: on its own it never matches. Parsing
 * refuses deeper conditions; `depth` keeps a graph built in code from overflowing the stack.
 */
export const evaluateWhen = (when: When | undefined, input: ConditionInput, depth = 1): Evaluation => {
  if (depth > LIMITS.conditionDepth) return { matched: false, explain: `condition nested deeper than ${LIMITS.conditionDepth} levels: not evaluated` };
  if (when === undefined || when === 'always') return { matched: true, explain: 'always' };
  if (when === 'otherwise') return { matched: false, explain: 'otherwise: only when no other edge matches' };
  if ('outcome' in when) {
    const matched = input.outcome === when.outcome;
    return { matched, explain: matched ? `outcome is "${when.outcome}"` : `outcome is ${show(input.outcome)}, not "${when.outcome}"` };
  }
  if ('path' in when) {
    const actual = readPath(input.state, when.path);
    const matched = compareOp(when.op, actual, when.value);
    const condition = when.op === 'exists' || when.op === 'empty' ? `${when.path} ${when.op}` : `${when.path} ${when.op} ${show(when.value)}`;
    return { matched, explain: `${condition} (was ${show(actual)})` };
  }
  if ('all' in when) {
    const parts: Evaluation[] = [];
    for (const inner of when.all) {
      const part = evaluateWhen(inner, input, depth + 1);
      parts.push(part);
      if (!part.matched) break;
    }
    const matched = parts.length === when.all.length && parts.every((part) => part.matched);
    return { matched, explain: `all of [${parts.map((part) => `${part.explain}: ${part.matched ? 'yes' : 'no'}`).join('; ')}]` };
  }
  if ('any' in when) {
    const parts: Evaluation[] = [];
    for (const inner of when.any) {
      const part = evaluateWhen(inner, input, depth + 1);
      parts.push(part);
      if (part.matched) break;
    }
    const matched = parts.some((part) => part.matched);
    return { matched, explain: `any of [${parts.map((part) => `${part.explain}: ${part.matched ? 'yes' : 'no'}`).join('; ')}]` };
  }
  const inner = evaluateWhen(when.not, input, depth + 1);
  return { matched: !inner.matched, explain: `not (${inner.explain})` };
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
      edges.push({ id: edge.id, target: edge.target, matched: false, skipped: true, explain: `not tried: ${fired.id} fired first` });
      continue;
    }
    const evaluation = edge.when === 'otherwise'
      ? { matched: true, explain: 'otherwise: no other edge matched' }
      : evaluateWhen(edge.when, input);
    edges.push({ id: edge.id, target: edge.target, matched: evaluation.matched, explain: evaluation.explain });
    if (evaluation.matched) fired = { id: edge.id, target: edge.target, reason: evaluation.explain };
  }
  return { edges, fired };
};
