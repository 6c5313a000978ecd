import type { ActConfig } from './act.schema.ts';
import { LOOP_FIELDS, loopSkillRefs, loopSummary, withLoopOutcomes } from './loop.ts';
import { defineKind, RETRY_FIELDS } from './types.ts';

export const act = defineKind<ActConfig>()({
  kind: 'act',
  title: 'Act',
  seedName: 'execute / ACT',
  description: 'Runs the plan’s actions in order, each with a local retry.',
  color: '#f59e0b',
  icon: 'zap',
  outcomes: ['ok', 'empty', 'error', 'denied'],
  mermaid: 'box',
  terminal: false,
  writes: ['results', 'execution_error'],
  // `reasoning`: what a Reason loop answered instead of a plan (`loop.output: "any"`), for an Act decider to act on.
  reads: ['plan', 'reasoning', 'approval'],
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
