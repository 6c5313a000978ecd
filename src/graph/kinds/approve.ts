import type { ApproveConfig } from './approve.schema.ts';
import { defineKind } from './types.ts';

export const approve = defineKind<ApproveConfig>()({
  kind: 'approve',
  title: 'Approve',
  seedName: 'human confirmation',
  description: 'Pauses the run until a person approves or denies; approval grants the denied skill once.',
  color: '#8b5cf6',
  icon: 'hand',
  outcomes: ['approved', 'denied'],
  mermaid: 'rhombus',
  terminal: false,
  writes: ['approval'],
  reads: ['results', 'execution_error', 'recovery'],
  fields: [
    { key: 'prompt', label: 'Question', type: 'text', optional: true },
    { key: 'auto', label: 'Headless decision', type: 'select', options: ['approve', 'deny'], optional: true },
  ],
  summary: (config) => [
    ...(config.answers?.length ? [`answers: ${config.answers.join(', ')}`] : []),
    config.auto ? `headless: ${config.auto}` : 'asks a person',
  ],
  skillRefs: () => [],
  interruptsBefore: true,
});
