/**
 * The system level: hard bounds checked before every node, in SPEC order. They stop the run;
 * they never retry or re-plan.
 */
import type { Limits } from '../graph/schema.ts';
import type { Guard, GuardCheck } from './trace.ts';

export interface GuardInput {
  /** The round the node would run in (already moved on when it enters the entry again). */
  round: number;
  steps: number;
  tokensUsed: number;
  limits: Limits;
}

export const budgetCheck = (tokensUsed: number, limits: Limits): GuardCheck => {
  const limit = limits.tokenBudget ?? null;
  const passed = limit === null || tokensUsed < limit;
  return { name: 'budget_exhausted', value: tokensUsed, limit, passed, explain: limit === null ? `tokens ${tokensUsed} (no budget)` : `tokens ${tokensUsed}/${limit}` };
};

export const checkGuards = (input: GuardInput): { checks: GuardCheck[]; stop: Guard | null } => {
  const { limits } = input;
  const all: GuardCheck[] = [
    { name: 'max_rounds', value: input.round, limit: limits.maxRounds, passed: input.round <= limits.maxRounds, explain: `round ${input.round}/${limits.maxRounds}` },
    { name: 'max_steps', value: input.steps, limit: limits.maxSteps, passed: input.steps < limits.maxSteps, explain: `steps ${input.steps}/${limits.maxSteps}` },
    budgetCheck(input.tokensUsed, limits),
  ];
  const failedAt = all.findIndex((check) => !check.passed);
  // Checks after the first failure did not run: the order is part of the contract.
  const checks = failedAt < 0 ? all : all.slice(0, failedAt + 1);
  const failed = failedAt < 0 ? null : all[failedAt];
  return { checks, stop: failed ? { reason: failed.name, explain: guardSentence(failed) } : null };
};

const guardSentence = (check: GuardCheck): string => {
  switch (check.name) {
    case 'max_rounds':
      return `round ${check.value} would exceed maxRounds ${check.limit}`;
    case 'max_steps':
      return `steps ${check.value} reached maxSteps ${check.limit}`;
    case 'budget_exhausted':
      return `tokens used ${check.value} reached the budget of ${check.limit}`;
  }
};
