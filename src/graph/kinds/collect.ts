import type { CollectConfig } from './collect.schema.ts';
import { LOOP_FIELDS, MAX_ITER, loopSkillRefs, loopSummary } from './loop.ts';
import { defineKind, RETRY_FIELDS } from './types.ts';

export const collect = defineKind<CollectConfig>()({
  kind: 'collect',
  title: 'Collect',
  seedName: 'COLLECT',
  description: 'Gathers information with read-only skills and appends it to `collected`.',
  color: '#0ea5e9',
  icon: 'inbox',
  outcomes: ['ok', 'empty', 'error'],
  mermaid: 'box',
  terminal: false,
  writes: ['collected'],
  readsOnly: true,
  reads: ['collected'],
  fields: [
    { key: 'skills', label: 'Skills', type: 'skills' },
    { key: 'args', label: 'Arguments', type: 'json' },
    { key: 'maxIter', label: 'Max skills a visit', type: 'number', min: 1 },
    ...RETRY_FIELDS,
    ...LOOP_FIELDS,
  ],
  summary: (config) => [...(config.loop ? loopSummary(config.loop) : [config.skills.join(', ') || 'no skills']), `retry ×${config.retry.maxAttempts}`],
  skillRefs: (config) => [...config.skills.map((skill, index) => ({ skill, where: `config.skills[${index}]` })), ...loopSkillRefs(config.loop)],
  // No `denied`: Collect only reads, which every mode allows, and refuses a writing skill itself (an `error`).
  outcomesFor: (config) => (config.loop ? ['ok', 'empty', 'error', MAX_ITER] : ['ok', 'empty', 'error']),
});
