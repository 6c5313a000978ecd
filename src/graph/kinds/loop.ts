/**
 * The inner agent loop a reason, collect, act or verify node may run instead of its fixed work
 * (seed 003: an Agent Loop inside a node, bounded by max_iter): a decider skill answers each
 * iteration with a tool to call or `done`. Defined once here, its schemas in ./loop.schema.ts; each of
 * the four kinds adds it to its config.
 */
import type { LoopConfig } from './loop.schema.ts';
import type { InspectorField } from './types.ts';

export type { DeciderReply, LoopConfig } from './loop.schema.ts';

/** What a tool call that still fails after its local retries does: end the loop, or be the decider's observation. */
export const TOOL_FAILURE_MODES = ['end', 'observe'] as const;
/** Verify's verdict: judged afresh each visit, or the channel `verified`, kept until a tool answers again. */
export const VERDICT_MODES = ['visit', 'state'] as const;
/** Reason's done output: a plan, or anything (not a plan: written to `reasoning`). */
export const LOOP_OUTPUTS = ['plan', 'any'] as const;

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
  { key: 'loop.onToolFailure', label: 'Loop: a failed tool', type: 'select', options: TOOL_FAILURE_MODES, optional: true, help: 'observe: the decider sees the failure and goes on.' },
];

/** The skills a loop names, with where. */
export const loopSkillRefs = (loop: LoopConfig | undefined): { skill: string; where: string }[] =>
  loop ? [{ skill: loop.decider, where: 'config.loop.decider' }, ...loop.tools.map((skill, index) => ({ skill, where: `config.loop.tools[${index}]` }))] : [];

/** The loop's line of a node summary. */
export const loopSummary = (loop: LoopConfig | undefined): string[] =>
  loop ? [`loop: ${loop.decider} → ${loop.tools.join(', ') || 'no tools'}, max_iter ${loop.maxIter}`] : [];
