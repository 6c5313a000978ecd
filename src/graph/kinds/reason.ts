import type { ReasonConfig } from './reason.schema.ts';
import { LOOP_FIELDS, LOOP_OUTPUTS, loopSkillRefs, loopSummary, withLoopOutcomes } from './loop.ts';
import { defineKind, RETRY_FIELDS } from './types.ts';

export const reason = defineKind<ReasonConfig>()({
  kind: 'reason',
  title: 'Reason',
  seedName: 'decide / REASON',
  description: 'Makes the plan: which skills to call with which arguments.',
  color: '#6d5dfc',
  icon: 'brain',
  outcomes: ['ok', 'repeated', 'error'],
  mermaid: 'box',
  terminal: false,
  // `reasoning`: a loop's done output that is not a plan (`loop.output: "any"`), written only then.
  writes: ['plan', 'reasoning'],
  reads: ['round', 'recovery', 'plan', 'evaluation', 'failures'],
  fields: [
    { key: 'planner', label: 'Planner', type: 'select', options: ['scripted', 'llm'] },
    { key: 'plans', label: 'Plans by round', type: 'json', list: 'plans', help: 'One entry per round; the last repeats. [{"actions":[{"skill":"…","args":{}}]}]' },
    { key: 'skill', label: 'LLM skill', type: 'skill', optional: true, replies: true, help: 'Used by the llm planner.' },
    { key: 'prompt', label: 'Prompt', type: 'text', optional: true },
    ...RETRY_FIELDS,
    ...LOOP_FIELDS,
    { key: 'loop.output', label: 'Loop: done output', type: 'select', options: LOOP_OUTPUTS, optional: true, help: 'any: one that is no plan goes to reasoning.' },
  ],
  summary: (config) =>
    config.loop ? [...loopSummary(config.loop), 'plan: done output']
    : config.planner === 'llm'
      ? [`llm planner: ${config.skill ?? 'no skill'}`]
      : [`${config.plans.length} scripted plan${config.plans.length === 1 ? '' : 's'}`,
         ...(config.plans[0] ? [config.plans[0].actions.map((a) => a.skill).join(', ') || 'no actions'] : [])],
  planSkills: { field: 'plans', skills: (config) => (config.planner === 'scripted' ? [...new Set(config.plans.flatMap((plan) => plan.actions.map((action) => action.skill)))] : []) },
  skillRefs: (config) => [
    ...config.plans.flatMap((plan, p) => plan.actions.map((action, a) => ({ skill: action.skill, where: `config.plans[${p}].actions[${a}].skill` }))),
    ...(config.skill ? [{ skill: config.skill, where: 'config.skill' }] : []),
    ...loopSkillRefs(config.loop),
  ],
  outcomesFor: (config) => (config.loop ? withLoopOutcomes(['ok', 'repeated', 'error']) : ['ok', 'repeated', 'error']),
});
