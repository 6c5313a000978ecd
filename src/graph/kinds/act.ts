import type * as z from 'zod/mini';
import { CallOutcome, defaultRetry, Id, RetryPolicy } from '../common.ts';
import { LOOP_FIELDS, LoopConfig, loopSkillRefs, loopSummary, withLoopOutcomes } from './loop.ts';
import { lazySchema } from '../lazySchema.ts';
import { defineKind, RETRY_FIELDS } from './types.ts';

export const ActConfig = lazySchema((z) => z.strictObject({
  /** Without a skill the node runs `plan.actions`. */
  skill: z.optional(Id),
  args: z.optional(z.record(z.string(), z.unknown())),
  retry: z._default(RetryPolicy, defaultRetry),
  maxIter: z._default(z.int().check(z.gte(1)), 5),
  /** Instead of the plan: a decider picks the next tool each iteration. */
  loop: z.optional(LoopConfig),
}));
export type ActConfig = z.infer<typeof ActConfig>;

/** One action of a visit, as `results` holds it: the last attempt's records, and how many attempts it took. */
export const ActionResult = lazySchema((z) => z.looseObject({
  skill: z.string(),
  args: z.record(z.string(), z.unknown()),
  outcome: CallOutcome,
  records: z.array(z.unknown()),
  error: z.optional(z.string()),
  attempts: z.int().check(z.gte(0)),
}));

/** The action that ended a visit with a failure. */
export const ExecutionError = lazySchema((z) => z.looseObject({ outcome: CallOutcome, skill: z.string(), message: z.string() }));

export const act = defineKind({
  kind: 'act',
  title: 'Act',
  seedName: 'execute / ACT',
  description: 'Runs the plan’s actions in order, each with a local retry.',
  color: '#f59e0b',
  icon: 'zap',
  config: ActConfig,
  outcomes: ['ok', 'empty', 'error', 'denied'],
  mermaid: 'box',
  terminal: false,
  state: { results: lazySchema((z) => z.array(ActionResult)), execution_error: lazySchema((z) => z.nullable(ExecutionError)) },
  reads: ['plan', 'approval'],
  // Without a skill or a loop of its own it runs the plan's actions: with no plan, nothing.
  needs: (config) => (config.skill || config.loop ? [] : [['plan']]),
  fields: [
    { key: 'skill', label: 'Own skill', type: 'skill', optional: true, help: 'Leave empty to run the plan’s actions.' },
    ...RETRY_FIELDS,
    { key: 'retry.backoffMs', label: 'Backoff (ms)', type: 'number', min: 0, optional: true },
    { key: 'retry.timeoutMs', label: 'Attempt timeout (ms)', type: 'number', min: 1, optional: true },
    { key: 'maxIter', label: 'Max actions a visit', type: 'number', min: 1 },
    ...LOOP_FIELDS,
  ],
  summary: (config) => [
    ...(config.loop ? loopSummary(config.loop) : [config.skill ? `skill: ${config.skill}` : 'runs the plan']),
    `retry ×${config.retry.maxAttempts} on ${config.retry.retryOn.join(', ') || 'nothing'}`,
  ],
  skillRefs: (config) => [...(config.skill ? [{ skill: config.skill, where: 'config.skill' }] : []), ...loopSkillRefs(config.loop)],
  outcomesFor: (config) => (config.loop ? withLoopOutcomes(['ok', 'empty', 'error', 'denied']) : ['ok', 'empty', 'error', 'denied']),
  foreignSteps: true,
});
