import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { defaultRetry, Id, RetryPolicy } from '../common.ts';
import { LOOP_FIELDS, LoopConfig, MAX_ITER, loopSkillRefs, loopSummary } from './loop.ts';
import { defineKind, RETRY_FIELDS } from './types.ts';

export const CollectConfig = lazySchema((z) => z.strictObject({
  skills: z._default(z.array(Id), []),
  args: z._default(z.record(z.string(), z.unknown()), {}),
  retry: z._default(RetryPolicy, defaultRetry),
  maxIter: z._default(z.int().check(z.gte(1)), 5),
  /** Instead of the fixed list: a decider picks the next read-only tool each iteration. */
  loop: z.optional(LoopConfig),
}));
export type CollectConfig = z.infer<typeof CollectConfig>;

export const collect = defineKind({
  kind: 'collect',
  title: 'Collect',
  seedName: 'COLLECT',
  description: 'Gathers information with read-only skills and appends it to `collected`.',
  color: '#0ea5e9',
  icon: 'inbox',
  config: CollectConfig,
  outcomes: ['ok', 'empty', 'error'],
  mermaid: 'box',
  terminal: false,
  state: { collected: lazySchema((z) => z.array(z.unknown())) },
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
