import type { RecoverConfig } from './recover.schema.ts';
import { defineKind } from './types.ts';

/** A rule with this action hands the run to a person (outcome `needs_human`). */
export const HUMAN_ACTION = 'request_human_confirmation';

export const recover = defineKind<RecoverConfig>()({
  kind: 'recover',
  title: 'Recover',
  seedName: 'recover',
  description: 'Diagnoses why the plan failed and picks a different path for the next round.',
  color: '#ef4444',
  icon: 'life-buoy',
  outcomes: ['recovered', 'needs_human', 'no_path'],
  mermaid: 'box',
  terminal: false,
  writes: ['recovery', 'failures'],
  reads: ['evaluation', 'failures', 'tokensUsed'],
  // Its rules are found by the evaluation's reason: with none, no rule applies.
  needs: () => [['evaluation']],
  fields: [
    { key: 'rules', label: 'Rules', type: 'json', list: 'recoveryRules', help: '[{"reason":"empty_result","action":"expand_search_scope","skill":"…","estTokens":100}]' },
  ],
  summary: (config) =>
    config.rules.length === 0
      ? ['no rules']
      : config.rules.slice(0, 3).map((rule) => `${rule.reason} → ${rule.skill ?? rule.action}`),
  planSkills: { field: 'rules', skills: (config) => [...new Set(config.rules.flatMap((rule) => (rule.skill ? [rule.skill] : [])))] },
  skillRefs: (config) => config.rules.flatMap((rule, index) => (rule.skill ? [{ skill: rule.skill, where: `config.rules[${index}].skill` }] : [])),
});
