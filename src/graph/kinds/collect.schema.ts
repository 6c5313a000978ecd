/** The Collect kind's schemas (./collect.ts): its config, and the state it writes. */
import { defaultRetry } from '../common.ts';
import { Id, RetryPolicy } from '../commonSchemas.ts';
import { z } from '../zod.ts';
import { LoopConfig } from './loop.schema.ts';
import type { KindSchemasOf } from './schemas.ts';

export const CollectConfig = z.strictObject({
  skills: z._default(z.array(Id), []),
  args: z._default(z.record(z.string(), z.unknown()), {}),
  retry: z._default(RetryPolicy, defaultRetry),
  maxIter: z._default(z.int().check(z.gte(1)), 5),
  /** Instead of the fixed list: a decider picks the next read-only tool each iteration. */
  loop: z.optional(LoopConfig),
});
export type CollectConfig = z.infer<typeof CollectConfig>;

export const collectSchemas = {
  config: CollectConfig,
  state: { collected: z.array(z.unknown()) },
} satisfies KindSchemasOf<'collect'>;
