/** The Act kind's schemas (./act.ts): its config, and the state it writes. */
import { defaultRetry } from '../common.ts';
import { CallOutcome, Id, RetryPolicy } from '../commonSchemas.ts';
import { z } from '../zod.ts';
import { LoopConfig } from './loop.schema.ts';
import type { KindSchemasOf } from './schemas.ts';

export const ActConfig = z.strictObject({
  /** Without a skill the node runs `plan.actions`. */
  skill: z.optional(Id),
  args: z.optional(z.record(z.string(), z.unknown())),
  retry: z._default(RetryPolicy, defaultRetry),
  maxIter: z._default(z.int().check(z.gte(1)), 5),
  /** Instead of the plan: a decider picks the next tool each iteration. */
  loop: z.optional(LoopConfig),
});
export type ActConfig = z.infer<typeof ActConfig>;

/** One action of a visit, as `results` holds it: the last attempt's records, and how many attempts it took. */
export const ActionResult = z.looseObject({
  skill: z.string(),
  args: z.record(z.string(), z.unknown()),
  outcome: CallOutcome,
  records: z.array(z.unknown()),
  error: z.optional(z.string()),
  attempts: z.int().check(z.gte(0)),
});

/** The action that ended a visit with a failure. */
export const ExecutionError = z.looseObject({ outcome: CallOutcome, skill: z.string(), message: z.string() });

export const actSchemas = {
  config: ActConfig,
  state: { results: z.array(ActionResult), execution_error: z.nullable(ExecutionError) },
} satisfies KindSchemasOf<'act'>;
