/** The inner loop's schemas (./loop.ts): its config, and what a decider answers. */
import { Id } from '../commonSchemas.ts';
import { LIMITS } from '../limits.ts';
import { z } from '../zod.ts';

export const LoopConfig = z.strictObject({
  /** The skill asked each iteration: an llm skill, or a mock whose script entries carry `reply`. */
  decider: Id,
  /** The skills the decider may call; any other is an `error` attempt. */
  tools: z._default(z.array(Id).check(z.maxLength(LIMITS.actionsPerPlan)), []),
  maxIter: z._default(z.int().check(z.gte(1), z.lte(LIMITS.actionsPerPlan)), 5),
});
export type LoopConfig = z.infer<typeof LoopConfig>;

/** What a decider answers: call a tool, or end the loop with the node's output. */
export const DeciderReply = z.union([
  z.strictObject({ tool: Id, args: z._default(z.record(z.string(), z.unknown()), {}) }),
  z.strictObject({ done: z.literal(true), output: z._default(z.record(z.string(), z.unknown()), {}) }),
]);
export type DeciderReply = z.infer<typeof DeciderReply>;
