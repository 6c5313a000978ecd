/** The inner loop's schemas (./loop.ts): its config, and what a decider answers. */
import { Id } from '../commonSchemas.ts';
import { LIMITS } from '../limits.ts';
import { z } from '../zod.ts';
import { LOOP_OUTPUTS, TOOL_FAILURE_MODES, VERDICT_MODES } from './loop.ts';

export const LoopConfig = z.strictObject({
  /** The skill asked each iteration: an llm skill, or a mock whose script entries carry `reply`. */
  decider: Id,
  /** The skills the decider may call; any other is an `error` attempt. */
  tools: z._default(z.array(Id).check(z.maxLength(LIMITS.actionsPerPlan)), []),
  maxIter: z._default(z.int().check(z.gte(1), z.lte(LIMITS.actionsPerPlan)), 5),
  /**
   * A tool call that still fails after its local retries: `end` (absent) ends the loop with it;
   * `observe` makes the failure the tool's answer the decider reads (seed 003's `{"error": …}`). A
   * permission refusal always ends the loop. Optional, not defaulted: a file keeps only what it says.
   */
  onToolFailure: z.optional(z.enum(TOOL_FAILURE_MODES)),
  /** Verify only: `state` keeps the tool's verdict in the channel `verified` across visits (seed 003's `state.verified`). */
  verdict: z.optional(z.enum(VERDICT_MODES)),
  /** Reason only: `any` takes a done output that is not a plan as the node's `reasoning` (seed 003's REASON returns what its decider says). */
  output: z.optional(z.enum(LOOP_OUTPUTS)),
});
export type LoopConfig = z.infer<typeof LoopConfig>;

/** What a decider answers: call a tool, or end the loop with the node's output. */
export const DeciderReply = z.union([
  z.strictObject({ tool: Id, args: z._default(z.record(z.string(), z.unknown()), {}) }),
  z.strictObject({ done: z.literal(true), output: z._default(z.record(z.string(), z.unknown()), {}) }),
]);
export type DeciderReply = z.infer<typeof DeciderReply>;
