/**
 * Why an edge was (not) taken, as data: what a condition compared (path, operator, expected,
 * actual), how a group of them came out, or what a LangGraph server's router returned. Traces
 * store it and reasonWords.ts words it, in one place, so a reason can be reworded (or shown
 * otherwise) without touching stored runs. No zod here: the canvas's labels read it on the first screen.
 */
import { LIMITS } from './limits.ts';
import type { Op, When } from './when.ts';

/**
 * `matched` is set when the reason comes from evaluating a condition on a run's values and left out
 * when it only tells the condition (an edge's label). `actual` is left out when nothing was at the path.
 */
export type Reason =
  | { is: 'always'; matched?: boolean }
  | { is: 'otherwise'; matched?: boolean }
  | { is: 'outcome'; expected: string; actual?: string | null; matched?: boolean }
  | { is: 'field'; path: string; operator: Op; expected?: unknown; actual?: unknown; matched?: boolean }
  /** The parts evaluated, up to the first that decided the group (all of the group's parts for a label). */
  | { is: 'all' | 'any'; parts: Reason[]; matched?: boolean }
  | { is: 'not'; part: Reason; matched?: boolean }
  /** Deeper than `LIMITS.conditionDepth` (a graph built in code): not evaluated. */
  | { is: 'too_deep'; limit: number; matched?: boolean }
  /** An edge after the one that fired: not tried. */
  | { is: 'not_tried'; fired: string; matched?: boolean }
  /**
   * An edge of a graph on a LangGraph server, read from its checkpoints: conditional or plain, and
   * on the edge that fired where the node went (`chose`, a name once per task) of where it could (`of`).
   */
  | { is: 'route'; conditional: boolean; matched?: boolean; drawn?: boolean; label?: string; chose?: string[]; of?: string[] }
  /**
   * A routing function of a LangGraph server's graph and what it returned after `node`; where the
   * agent's source told of it, its name (null: written inline), file and the lines that could have returned it.
   */
  | { is: 'router'; node: string; returned: unknown; router?: { name: string | null; file: string; lines: number[] }; missing?: string; matched?: boolean }
  /** A node that returned a LangGraph `Command`: its goto and its update. */
  | { is: 'command'; node: string; goto: unknown; update: unknown; matched?: boolean }
  /** A reason a trace made before reasons were data holds in words. */
  | { is: 'said'; words: string; matched?: boolean };

/** What a condition is evaluated on: the node's outcome and a reading of the state by path. */
export interface WhenInput {
  outcome: string | null;
  read: (path: string) => unknown;
  /**
   * What `{path, op, value}` says of the value read: compare.ts `compareOp`, passed in so that the
   * canvas's labels, which walk conditions with no run, do not carry it on the first screen.
   */
  compare: (op: Op, actual: unknown, expected: unknown) => boolean;
}

/**
 * The one walk over a condition: with `input`, what it read and whether it matched (`all` stops at
 * its first no, `any` at its first yes); without, the condition alone, for its label.
 * `otherwise` is decided by the edge chooser, not here: on its own it never matches. Parsing
 * refuses deeper conditions; `depth` keeps a graph built in code from overflowing the stack.
 */
export const reasonOf = (when: When | undefined, input?: WhenInput, depth = 1): Reason => {
  const judged = (matched: boolean) => (input ? { matched } : {});
  if (depth > LIMITS.conditionDepth) return { is: 'too_deep', limit: LIMITS.conditionDepth, ...judged(false) };
  if (when === undefined || when === 'always') return { is: 'always', ...judged(true) };
  if (when === 'otherwise') return { is: 'otherwise', ...judged(false) };
  if ('outcome' in when) return { is: 'outcome', expected: when.outcome, ...(input ? { actual: input.outcome, matched: input.outcome === when.outcome } : {}) };
  if ('path' in when) {
    const expected = when.value === undefined ? {} : { expected: when.value };
    if (!input) return { is: 'field', path: when.path, operator: when.op, ...expected };
    const actual = input.read(when.path);
    return { is: 'field', path: when.path, operator: when.op, ...expected, ...(actual === undefined ? {} : { actual }), matched: input.compare(when.op, actual, when.value) };
  }
  if ('not' in when) {
    const part = reasonOf(when.not, input, depth + 1);
    return { is: 'not', part, ...judged(!part.matched) };
  }
  const is = 'all' in when ? 'all' : 'any';
  const operands = 'all' in when ? when.all : when.any;
  const parts: Reason[] = [];
  for (const operand of operands) {
    const part = reasonOf(operand, input, depth + 1);
    parts.push(part);
    // The part that decides the group ends its evaluation.
    if (input && part.matched === (is === 'any')) break;
  }
  const matched = is === 'all' ? parts.length === operands.length && parts.every((part) => part.matched) : parts.some((part) => part.matched);
  return { is, parts, ...judged(matched) };
};
