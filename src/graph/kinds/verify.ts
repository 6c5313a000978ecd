import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { Id, RetryPolicy } from '../common.ts';
import { LOOP_FIELDS, LoopConfig, MAX_ITER, loopSkillRefs, loopSummary, withLoopOutcomes } from './loop.ts';
import { defineKind } from './types.ts';

/** Where a verify loop's verdict comes from. */
export const VERDICT_SOURCES = ['decider', 'tool'] as const;

export const VerifyConfig = lazySchema((z) => z.strictObject({
  minRecords: z._default(z.int().check(z.gte(0)), 1),
  /** Asked once instead of counting records: answers {sufficient, exhausted, reason, reasoning}. */
  judge: z.optional(Id),
  /** Instead of counting: a decider checks with tools, then answers done with {sufficient, exhausted, reason}. */
  loop: z.optional(LoopConfig),
  /**
   * Who gives a loop's verdict: the decider's `done` output (the default), or `tool`: the `ok` field
   * of the last tool answer (seed 003's `state.verified = out.get("ok")`), whatever the decider says.
   */
  verdictFrom: z.optional(z.enum(VERDICT_SOURCES)),
  /** The local retry of the judge's, the decider's and the tools' calls (the SPEC's default when absent). */
  retry: z.optional(RetryPolicy),
}));

/** What a judge answers, and what a verify loop's `done` output sets. */
export const Judgement = lazySchema((z) => z.looseObject({
  sufficient: z.boolean(),
  exhausted: z._default(z.boolean(), false),
  reason: z.optional(z.string()),
  reasoning: z.optional(z.string()),
}));
export type Judgement = z.infer<typeof Judgement>;
export type VerifyConfig = z.infer<typeof VerifyConfig>;

/** The reasons an evaluation may give; recovery rules are keyed by them. */
export const EVALUATION_REASONS = [
  'sufficient', 'empty_result', 'coverage_low', 'timeout', 'parse_error', 'permission_denied', 'execution_error', 'insufficient', MAX_ITER,
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
  mermaid: 'rhombus',
  terminal: false,
  state: {
    evaluation: lazySchema((z) => z.looseObject({ evidence_sufficient: z.boolean(), plan_exhausted: z.boolean(), reason: z.string(), reasoning: z.string(), records: z.optional(z.int().check(z.gte(0))) })),
  },
  reads: ['results', 'execution_error', 'collected'],
  // It judges the evidence an Act or a Collect node gathered, unless its own loop gathers it.
  needs: (config) => (config.loop ? [] : [['results', 'collected']]),
  fields: [
    { key: 'minRecords', label: 'Records needed', type: 'number', min: 0 },
    { key: 'judge', label: 'Judge skill', type: 'skill', optional: true, help: 'An llm (or mock) judge asked once instead of counting records.' },
    ...LOOP_FIELDS,
    { key: 'verdictFrom', label: 'Verdict from', type: 'select', options: VERDICT_SOURCES, optional: true, help: 'tool: the last tool answer’s ok.' },
    { key: 'retry.maxAttempts', label: 'Max attempts', type: 'number', min: 1, max: 100, optional: true },
  ],
  summary: (config) =>
    config.loop ? [...loopSummary(config.loop), ...(config.verdictFrom === 'tool' ? ['verdict: tool ok'] : [])]
      : config.judge ? [`judge: ${config.judge}`]
        : [`needs ≥ ${config.minRecords} record${config.minRecords === 1 ? '' : 's'}`],
  skillRefs: (config) => [...(config.judge ? [{ skill: config.judge, where: 'config.judge' }] : []), ...loopSkillRefs(config.loop)],
  outcomesFor: (config) => (config.loop ? withLoopOutcomes(['sufficient', 'exhausted', 'continue']) : ['sufficient', 'exhausted', 'continue']),
});
