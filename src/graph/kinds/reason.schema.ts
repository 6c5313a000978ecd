/** The Reason kind's schemas (./reason.ts): its config, and the state it writes. */
import { defaultRetry } from '../common.ts';
import { Action, Id, RetryPolicy } from '../commonSchemas.ts';
import { LIMITS } from '../limits.ts';
import { z } from '../zod.ts';
import { LoopConfig } from './loop.schema.ts';
import type { KindSchemasOf } from './schemas.ts';

export const Plan = z.strictObject({ actions: z._default(z.array(Action).check(z.maxLength(LIMITS.actionsPerPlan)), []) });

export const ReasonConfig = z.strictObject({
  /** `scripted` walks `plans` by round; `llm` asks an llm skill for the plan as JSON. */
  planner: z._default(z.enum(['scripted', 'llm']), 'scripted'),
  plans: z._default(z.array(Plan).check(z.maxLength(LIMITS.plans)), []),
  skill: z.optional(Id),
  prompt: z.optional(z.string()),
  retry: z._default(RetryPolicy, defaultRetry),
  /**
   * Instead of the planner: a decider may look with read tools first, then answers done with the
   * plan as its output, checked as a plan (seed 003 runs REASON through the same loop).
   */
  loop: z.optional(LoopConfig),
});
export type ReasonConfig = z.infer<typeof ReasonConfig>;

export const reasonSchemas = {
  config: ReasonConfig,
  state: {
    plan: z.looseObject({ actions: z.array(Action), signature: z.string(), repeated: z.boolean() }),
    /** A loop's done output that is not a plan (`loop.output: "any"`): the decider's hypothesis, as it said it. */
    reasoning: z.record(z.string(), z.unknown()),
  },
} satisfies KindSchemasOf<'reason'>;
