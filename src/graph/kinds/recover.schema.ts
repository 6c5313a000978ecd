/** The Recover kind's schemas (./recover.ts): its config, and the state it writes. */
import { Id } from '../commonSchemas.ts';
import { LIMITS } from '../limits.ts';
import { z } from '../zod.ts';
import type { KindSchemasOf } from './schemas.ts';

export const RecoveryRule = z.strictObject({
  /** An evaluation reason (`empty_result`, `timeout`, …) or `otherwise`. */
  reason: z.string().check(z.minLength(1)),
  /** What recovery does, e.g. `expand_search_scope`, `fallback_tool`, `request_human_confirmation`. */
  action: z.string().check(z.minLength(1)),
  /** The skill the next plan uses instead. */
  skill: z.optional(Id),
  /** A rule that costs more than the budget left does not apply. */
  estTokens: z.optional(z.int().check(z.gte(0))),
});
export type RecoveryRule = z.infer<typeof RecoveryRule>;

export const RecoverConfig = z.strictObject({ rules: z._default(z.array(RecoveryRule).check(z.maxLength(LIMITS.rules)), []) });
export type RecoverConfig = z.infer<typeof RecoverConfig>;

export const recoverSchemas = {
  config: RecoverConfig,
  state: {
    // `tried`: the actions recovery took this run, each once, in order (`recovery.tried contains "…"`); optional in a state written by hand.
    recovery: z.looseObject({ action: z.string(), skill: z.nullable(z.string()), reason: z.string(), tried: z.optional(z.array(z.string())) }),
    failures: z.array(z.looseObject({ round: z.int().check(z.gte(0)), reason: z.string(), action: z.string(), skill: z.nullable(z.string()) })),
  },
} satisfies KindSchemasOf<'recover'>;
