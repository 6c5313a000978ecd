import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { Id } from '../common.ts';
import { LIMITS } from '../limits.ts';
import { defineKind } from './types.ts';

export const RecoveryRule = lazySchema((z) => z.strictObject({
  /** An evaluation reason (`empty_result`, `timeout`, …) or `otherwise`. */
  reason: z.string().check(z.minLength(1)),
  /** What recovery does, e.g. `expand_search_scope`, `fallback_tool`, `request_human_confirmation`. */
  action: z.string().check(z.minLength(1)),
  /** The skill the next plan uses instead. */
  skill: z.optional(Id),
  /** A rule that costs more than the budget left does not apply. */
  estTokens: z.optional(z.int().check(z.gte(0))),
}));
export type RecoveryRule = z.infer<typeof RecoveryRule>;

/** A rule with this action hands the run to a person (outcome `needs_human`). */
export const HUMAN_ACTION = 'request_human_confirmation';

export const RecoverConfig = lazySchema((z) => z.strictObject({ rules: z._default(z.array(RecoveryRule).check(z.maxLength(LIMITS.rules)), []) }));
export type RecoverConfig = z.infer<typeof RecoverConfig>;

export const recover = defineKind({
  kind: 'recover',
  title: 'Recover',
  seedName: 'recover',
  description: 'Diagnoses why the plan failed and picks a different path for the next round.',
  color: '#ef4444',
  icon: 'life-buoy',
  config: RecoverConfig,
  outcomes: ['recovered', 'needs_human', 'no_path'],
  mermaid: 'box',
  terminal: false,
  state: {
    recovery: lazySchema((z) => z.looseObject({ action: z.string(), skill: z.nullable(z.string()), reason: z.string() })),
    failures: lazySchema((z) => z.array(z.looseObject({ round: z.int().check(z.gte(0)), reason: z.string(), action: z.string(), skill: z.nullable(z.string()) }))),
  },
  reads: ['evaluation', 'failures', 'tokensUsed'],
  // Its rules are found by the evaluation's reason: with none, no rule applies.
  needs: () => [['evaluation']],
  fields: [
    { key: 'rules', label: 'Rules', type: 'json', list: 'recoveryRules', help: '[{"reason":"empty_result","action":"expand_search_scope","skill":"…","estTokens":100}]' },
  ],
  summary: (config) =>
    config.rules.length === 0
      ? ['no rules']
      : config.rules.slice(0, 3).map((rule) => `${rule.reason} → ${rule.skill ?? rule.action}`),
  skillRefs: (config) => config.rules.flatMap((rule, index) => (rule.skill ? [{ skill: rule.skill, where: `config.rules[${index}].skill` }] : [])),
});
