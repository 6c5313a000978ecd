/**
 * `limits.onBudget` (SPEC §1, system-level guards): what a spent token budget leaves to run. Read
 * alike by validation, the runtime and the screens.
 */
import { KIND_LIST, kindDefinition } from './kinds/index.ts';
import type { GraphNode, Limits } from './schema.ts';

/**
 * What a run does once its token budget is spent (`limits.onBudget`): `stop` before the next node,
 * or `evaluate` (seed 001 §6: `consume()` says no, so no further call; §5.2 stops after the
 * evaluation): no skill is called, the next Verify still judges what was gathered, then the run stops.
 */
export const BUDGET_ENDINGS = ['stop', 'evaluate'] as const;
export type BudgetEnding = (typeof BUDGET_ENDINGS)[number];

export const onBudgetOf = (limits: Limits): BudgetEnding => limits.onBudget ?? 'stop';

/** What a spent budget leaves to this node under `evaluate`: it runs if it judges the evidence without a call. */
export interface BudgetLeaves {
  evaluates: boolean;
  /** The skill its judging would call (a judge, a loop's decider): a call the spent budget does not make. */
  calls?: string;
}

export const budgetLeaves = (node: GraphNode): BudgetLeaves => {
  const judging = (kindDefinition(node.kind).evaluates as ((config: unknown) => { calls: string | null }) | undefined)?.(node.config);
  if (!judging) return { evaluates: false };
  return judging.calls === null ? { evaluates: true } : { evaluates: false, calls: judging.calls };
};

/** The kinds that judge the evidence, by title, for sentences: `Verify`. */
export const evaluatingKinds = (): string => KIND_LIST.filter((definition) => definition.evaluates).map((definition) => definition.title).join(' or ');
