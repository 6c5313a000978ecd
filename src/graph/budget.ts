/**
 * `limits.onBudget` (SPEC §1, system-level guards): what a spent token budget leaves to run. Read
 * alike by validation, the runtime and the screens.
 */
import { KIND_LIST, kindDefinition } from './kinds/index.ts';
import type { BudgetEnding, GraphNode, Limits } from './schema.ts';

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
