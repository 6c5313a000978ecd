import type { VerifyConfig } from './verify.schema.ts';
import { LOOP_FIELDS, MAX_ITER, VERDICT_MODES, loopSkillRefs, loopSummary, withLoopOutcomes } from './loop.ts';
import { defineKind } from './types.ts';

/** Where a verify loop's verdict comes from. */
export const VERDICT_SOURCES = ['decider', 'tool'] as const;

/** The reasons an evaluation may give; recovery rules are keyed by them. */
export const EVALUATION_REASONS = [
  'sufficient', 'empty_result', 'coverage_low', 'timeout', 'parse_error', 'permission_denied', 'execution_error', 'insufficient', MAX_ITER,
] as const;

export const verify = defineKind<VerifyConfig>()({
  kind: 'verify',
  title: 'Verify',
  seedName: 'evaluate / VERIFY',
  description: 'Judges the evidence: sufficient, exhausted (needs recovery) or continue.',
  color: '#10b981',
  icon: 'search-check',
  outcomes: ['sufficient', 'exhausted', 'continue'],
  mermaid: 'rhombus',
  terminal: false,
  // `verified`: a loop's tool verdict kept across visits (`loop.verdict: "state"`), written only then.
  writes: ['evaluation', 'verified'],
  reads: ['results', 'execution_error', 'collected', 'verified'],
  // It judges the evidence an Act or a Collect node gathered, unless its own loop gathers it.
  needs: (config) => (config.loop ? [] : [['results', 'collected']]),
  fields: [
    { key: 'minRecords', label: 'Records needed', type: 'number', min: 0 },
    { key: 'judge', label: 'Judge skill', type: 'skill', optional: true, replies: true, help: 'An llm (or mock) judge asked once instead of counting records.' },
    ...LOOP_FIELDS,
    { key: 'verdictFrom', label: 'Verdict from', type: 'select', options: VERDICT_SOURCES, optional: true, help: 'tool: the last tool answer’s ok.' },
    { key: 'loop.verdict', label: 'Loop: verdict kept', type: 'select', options: VERDICT_MODES, optional: true, help: 'state: kept in verified until a tool answers again.' },
    { key: 'retry.maxAttempts', label: 'Max attempts', type: 'number', min: 1, max: 100, optional: true },
  ],
  summary: (config) =>
    config.loop ? [...loopSummary(config.loop), ...(config.verdictFrom === 'tool' ? ['verdict: tool ok'] : [])]
      : config.judge ? [`judge: ${config.judge}`]
        : [`needs ≥ ${config.minRecords} record${config.minRecords === 1 ? '' : 's'}`],
  skillRefs: (config) => [...(config.judge ? [{ skill: config.judge, where: 'config.judge' }] : []), ...loopSkillRefs(config.loop)],
  outcomesFor: (config) => (config.loop ? withLoopOutcomes(['sufficient', 'exhausted', 'continue']) : ['sufficient', 'exhausted', 'continue']),
  // Counting records calls nothing; a judge or a loop's decider is a call a spent budget no longer makes.
  evaluates: (config) => ({ calls: config.loop?.decider ?? config.judge ?? null }),
});
