import { z } from 'zod';
import { defineKind } from './types.ts';

export const ApproveConfig = z.strictObject({
  prompt: z.string().optional(),
  /** The decision of a headless run (command line, scenarios). */
  auto: z.enum(['approve', 'deny']).optional(),
});
export type ApproveConfig = z.infer<typeof ApproveConfig>;

export const approve = defineKind({
  kind: 'approve',
  title: 'Approve',
  seedName: 'human confirmation',
  description: 'Pauses the run until a person approves or denies; approval grants the denied skill once.',
  color: '#8b5cf6',
  icon: 'hand',
  config: ApproveConfig,
  outcomes: ['approved', 'denied'],
  mermaid: 'rhombus',
  terminal: false,
  state: { approval: z.looseObject({ decision: z.enum(['approved', 'denied']), skill: z.string().nullable(), by: z.string() }) },
  reads: ['results', 'execution_error', 'recovery'],
  fields: [
    { key: 'prompt', label: 'Question', type: 'text', optional: true },
    { key: 'auto', label: 'Headless decision', type: 'select', options: ['approve', 'deny'], optional: true },
  ],
  summary: (config) => [config.auto ? `headless: ${config.auto}` : 'asks a person'],
  skillRefs: () => [],
});
