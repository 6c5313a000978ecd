import { z } from 'zod';
import { defineKind } from './types.ts';

export const VerifyConfig = z.strictObject({
  minRecords: z.int().min(0).default(1),
});
export type VerifyConfig = z.infer<typeof VerifyConfig>;

/** The reasons an evaluation may give; recovery rules are keyed by them. */
export const EVALUATION_REASONS = [
  'sufficient', 'empty_result', 'coverage_low', 'timeout', 'parse_error', 'permission_denied', 'execution_error',
] as const;

export const verify = defineKind({
  kind: 'verify',
  title: 'Verify',
  seedName: 'evaluate / VERIFY',
  description: 'Judges the evidence: sufficient, exhausted (needs recovery) or continue.',
  color: '#10b981',
  icon: 'search-check',
  config: VerifyConfig,
  outcomes: ['sufficient', 'exhausted', 'continue'],
  terminal: false,
  state: {
    evaluation: z.looseObject({ evidence_sufficient: z.boolean(), plan_exhausted: z.boolean(), reason: z.string(), reasoning: z.string(), records: z.int().min(0).optional() }),
  },
  reads: ['results', 'execution_error', 'collected'],
  fields: [{ key: 'minRecords', label: 'Records needed', type: 'number', min: 0 }],
  summary: (config) => [`needs ≥ ${config.minRecords} record${config.minRecords === 1 ? '' : 's'}`],
});
