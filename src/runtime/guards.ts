/**
 * The system level: hard bounds checked before every node, in SPEC order. They stop the run;
 * they never retry or re-plan.
 */
import { evaluatingKinds } from '../graph/budget.ts';
import type { Limits } from '../graph/schema.ts';
import type { BudgetNote, GuardCheck, GuardHit } from './trace.ts';

export interface GuardInput {
  /** The round the node would run in (already moved on when it enters the entry again). */
  round: number;
  steps: number;
  tokensUsed: number;
  limits: Limits;
  /** The node judges the evidence without a call and `limits.onBudget` is `evaluate`: a spent budget lets it run. */
  evaluates?: boolean;
}

export const budgetCheck = (tokensUsed: number, limits: Limits): GuardCheck => {
  const limit = limits.tokenBudget ?? null;
  return { name: 'budget_exhausted', value: tokensUsed, limit, passed: limit === null || tokensUsed < limit };
};

export const checkGuards = (input: GuardInput): { checks: GuardCheck[]; stop: GuardHit | null } => {
  const { limits } = input;
  const all: GuardCheck[] = [
    { name: 'max_rounds', value: input.round, limit: limits.maxRounds, passed: input.round <= limits.maxRounds },
    { name: 'max_steps', value: input.steps, limit: limits.maxSteps, passed: input.steps < limits.maxSteps },
    spentButEvaluates(budgetCheck(input.tokensUsed, limits), input.evaluates === true),
  ];
  const failedAt = all.findIndex((check) => !check.passed);
  // Checks after the first failure did not run: the order is part of the contract.
  const checks = failedAt < 0 ? all : all.slice(0, failedAt + 1);
  const failed = failedAt < 0 ? null : all[failedAt];
  return { checks, stop: failed ? { reason: failed.name, value: failed.value, limit: failed.limit } : null };
};

/** A spent budget does not stop a node that judges the evidence without a call, under onBudget "evaluate": it runs, then the run stops. */
const spentButEvaluates = (check: GuardCheck, evaluates: boolean): GuardCheck =>
  check.passed || !evaluates ? check : { ...check, passed: true, judges: true };

/**
 * The one wording of a guard check, for the step view, the command line's timeline and a retry's
 * note: `round 2/3`; a trace made before checks were data says it in its own words.
 */
export const guardCheckWords = (check: GuardCheck): string => {
  if (check.explain !== undefined) return check.explain;
  const numbers = check.limit === null ? `${check.value} (no budget)` : `${check.value}/${check.limit}`;
  const words = `${check.name === 'max_rounds' ? 'round' : check.name === 'max_steps' ? 'steps' : 'tokens'} ${numbers}`;
  return check.judges ? `${words}, spent: onBudget evaluate lets this ${evaluatingKinds()} judge what was gathered` : words;
};

const tokenCount = (tokens: number) => tokens.toLocaleString('en-US');

/** The one wording of a spent budget under onBudget "evaluate", for the step's note, its stop, the debugger and the timeline. */
export const budgetSentence = (note: BudgetNote): string => {
  const spent = `the budget is spent (${tokenCount(note.used)} of ${tokenCount(note.limit)} tokens): no further call`;
  const judge = evaluatingKinds();
  if (note.at === 'evaluated') return `${spent}; the ${judge} node ${note.node} judged what was gathered, then the run stops`;
  if (note.at === 'spent' && note.evaluates) return `${spent}; the ${judge} node ${note.node} still judges what was gathered, then the run stops`;
  const node = note.at === 'spent' ? `the next node, ${note.node},` : note.node;
  const why = note.calls ? `would call ${note.calls} to judge` : `is not a ${judge} that judges without a call`;
  return `${spent}; ${node} ${why}, so the run stops before it`;
};
