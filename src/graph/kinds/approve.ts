import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { defineKind } from './types.ts';

export const ApproveConfig = lazySchema((z) => z.strictObject({
  prompt: z.optional(z.string()),
  /** The decision of a headless run (command line, scenarios). */
  auto: z.optional(z.enum(['approve', 'deny'])),
  /**
   * Answers given in advance, one for each time the node runs, in order; past the list a person
   * is asked (headless: `auto`). A scenario saved from a run pins the person's answers here.
   */
  answers: z.optional(z.array(z.enum(['approved', 'denied'])).check(z.maxLength(1000))),
}));
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
  state: { approval: lazySchema((z) => z.looseObject({ decision: z.enum(['approved', 'denied']), skill: z.nullable(z.string()), by: z.string() })) },
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
