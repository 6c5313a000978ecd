/**
 * The inner agent loop a reason, collect, act or verify node may run instead of its fixed work
 * (seed 003: an Agent Loop inside a node, bounded by max_iter): a decider skill answers each
 * iteration with a tool to call or `done`. Defined once here; each of the four kinds adds it to its config.
 */
import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { Id } from '../common.ts';
import { LIMITS } from '../limits.ts';
import type { InspectorField } from './types.ts';

export const LoopConfig = lazySchema((z) => z.strictObject({
  /** The skill asked each iteration: an llm skill, or a mock whose script entries carry `reply`. */
  decider: Id,
  /** The skills the decider may call; any other is an `error` attempt. */
  tools: z._default(z.array(Id).check(z.maxLength(LIMITS.actionsPerPlan)), []),
  maxIter: z._default(z.int().check(z.gte(1), z.lte(LIMITS.actionsPerPlan)), 5),
}));
export type LoopConfig = z.infer<typeof LoopConfig>;

/** What a decider answers: call a tool, or end the loop with the node's output. */
export const DeciderReply = lazySchema((z) => z.union([
  z.strictObject({ tool: Id, args: z._default(z.record(z.string(), z.unknown()), {}) }),
  z.strictObject({ done: z.literal(true), output: z._default(z.record(z.string(), z.unknown()), {}) }),
]));
export type DeciderReply = z.infer<typeof DeciderReply>;

/** The outcome of a loop that used all its iterations without `done`. */
export const MAX_ITER = 'max_iter';

/**
 * What a loop may end with besides the kind's own outcomes: `error` (a failed call, or a `done`
 * output carrying `error`), `denied` (the permission check refused a tool: the loop ends at once)
 * and `max_iter`. Collect has no `denied`: it only reads, which every mode allows, and refuses a
 * writing skill itself as an `error` (collect_writes).
 */
export const LOOP_OUTCOMES = ['error', 'denied', MAX_ITER] as const;

/** A kind's outcomes with a loop: its own, then the loop's it lacks. */
export const withLoopOutcomes = (outcomes: readonly string[]): string[] => [...outcomes, ...LOOP_OUTCOMES.filter((outcome) => !outcomes.includes(outcome))];

/** The loop's inspector fields: the kinds that run one share them. */
export const LOOP_FIELDS: readonly InspectorField[] = [
  { key: 'loop', label: 'Inner loop', type: 'json', optional: true, help: 'Optional: {"decider":"skill","tools":["…"],"maxIter":5}. A decider answers {"tool","args"} or {"done":true,"output":{}}.' },
];

/** The skills a loop names, with where. */
export const loopSkillRefs = (loop: LoopConfig | undefined): { skill: string; where: string }[] =>
  loop ? [{ skill: loop.decider, where: 'config.loop.decider' }, ...loop.tools.map((skill, index) => ({ skill, where: `config.loop.tools[${index}]` }))] : [];

/** The loop's line of a node summary. */
export const loopSummary = (loop: LoopConfig | undefined): string[] =>
  loop ? [`loop: ${loop.decider} → ${loop.tools.join(', ') || 'no tools'}, max_iter ${loop.maxIter}`] : [];
