/** The Verify kind's schemas (./verify.ts): its config, and the state it writes. */
import { Id, RetryPolicy } from '../commonSchemas.ts';
import { z } from '../zod.ts';
import { LoopConfig } from './loop.schema.ts';
import { VERDICT_SOURCES } from './verify.ts';
import type { KindSchemasOf } from './schemas.ts';

export const VerifyConfig = z.strictObject({
  minRecords: z._default(z.int().check(z.gte(0)), 1),
  /** Asked once instead of counting records: answers {sufficient, exhausted, reason, reasoning}. */
  judge: z.optional(Id),
  /** Instead of counting: a decider checks with tools, then answers done with {sufficient, exhausted, reason}. */
  loop: z.optional(LoopConfig),
  /**
   * Who gives a loop's verdict: the decider's `done` output (the default), or `tool`: the `ok` field
   * of the last tool answer (seed 003's `state.verified = out.get("ok")`), whatever the decider says.
   */
  verdictFrom: z.optional(z.enum(VERDICT_SOURCES)),
  /** The local retry of the judge's, the decider's and the tools' calls (the SPEC's default when absent). */
  retry: z.optional(RetryPolicy),
});

/** What a judge answers, and what a verify loop's `done` output sets. */
export const Judgement = z.looseObject({
  sufficient: z.boolean(),
  exhausted: z._default(z.boolean(), false),
  reason: z.optional(z.string()),
  reasoning: z.optional(z.string()),
});
export type Judgement = z.infer<typeof Judgement>;
export type VerifyConfig = z.infer<typeof VerifyConfig>;

export const verifySchemas = {
  config: VerifyConfig,
  state: {
    evaluation: z.looseObject({ evidence_sufficient: z.boolean(), plan_exhausted: z.boolean(), reason: z.string(), reasoning: z.string(), records: z.optional(z.int().check(z.gte(0))) }),
    /** The last tool answer's `ok`, kept across visits (`loop.verdict: "state"`; seed 003's `state.verified`). */
    verified: z.boolean(),
  },
} satisfies KindSchemasOf<'verify'>;
