import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { Action, defaultRetry, Id, RetryPolicy } from '../common.ts';
import { LIMITS } from '../limits.ts';
import { LOOP_FIELDS, LoopConfig, loopSkillRefs, loopSummary, withLoopOutcomes } from './loop.ts';
import { defineKind, RETRY_FIELDS } from './types.ts';

export const Plan = lazySchema((z) => z.strictObject({ actions: z._default(z.array(Action).check(z.maxLength(LIMITS.actionsPerPlan)), []) }));

export const ReasonConfig = lazySchema((z) => z.strictObject({
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
}));
export type ReasonConfig = z.infer<typeof ReasonConfig>;

export const reason = defineKind({
  kind: 'reason',
  title: 'Reason',
  seedName: 'decide / REASON',
  description: 'Makes the plan: which skills to call with which arguments.',
  color: '#6d5dfc',
  icon: 'brain',
  config: ReasonConfig,
  outcomes: ['ok', 'repeated', 'error'],
  mermaid: 'box',
  terminal: false,
  state: { plan: lazySchema((z) => z.looseObject({ actions: z.array(Action), signature: z.string(), repeated: z.boolean() })) },
  reads: ['round', 'recovery', 'plan', 'evaluation', 'failures'],
  fields: [
    { key: 'planner', label: 'Planner', type: 'select', options: ['scripted', 'llm'] },
    { key: 'plans', label: 'Plans by round', type: 'json', list: 'plans', help: 'One entry per round; the last repeats. [{"actions":[{"skill":"…","args":{}}]}]' },
    { key: 'skill', label: 'LLM skill', type: 'skill', optional: true, help: 'Used by the llm planner.' },
    { key: 'prompt', label: 'Prompt', type: 'text', optional: true },
    ...RETRY_FIELDS,
    ...LOOP_FIELDS,
  ],
  summary: (config) =>
    config.loop ? [...loopSummary(config.loop), 'plan: done output']
    : config.planner === 'llm'
      ? [`llm planner: ${config.skill ?? 'no skill'}`]
      : [`${config.plans.length} scripted plan${config.plans.length === 1 ? '' : 's'}`,
         ...(config.plans[0] ? [config.plans[0].actions.map((a) => a.skill).join(', ') || 'no actions'] : [])],
  skillRefs: (config) => [
    ...config.plans.flatMap((plan, p) => plan.actions.map((action, a) => ({ skill: action.skill, where: `config.plans[${p}].actions[${a}].skill` }))),
    ...(config.skill ? [{ skill: config.skill, where: 'config.skill' }] : []),
    ...loopSkillRefs(config.loop),
  ],
  outcomesFor: (config) => (config.loop ? withLoopOutcomes(['ok', 'repeated', 'error']) : ['ok', 'repeated', 'error']),
});
