import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { defineKind } from './types.ts';

export const RespondConfig = lazySchema((z) => z.strictObject({
  /** `{{state.x}}` placeholders are filled from the state; without it the response summarises the evidence. */
  template: z.optional(z.string()),
}));
export type RespondConfig = z.infer<typeof RespondConfig>;

export const respond = defineKind({
  kind: 'respond',
  title: 'Respond',
  seedName: 'format response',
  description: 'Writes the response and ends the run as completed.',
  color: '#22c55e',
  icon: 'message-square-text',
  config: RespondConfig,
  outcomes: [],
  mermaid: 'stadium',
  terminal: true,
  state: { response: lazySchema((z) => z.looseObject({ text: z.string() })) },
  reads: ['results', 'evaluation', 'collected'],
  fields: [{ key: 'template', label: 'Template', type: 'text', optional: true }],
  summary: () => ['ends: completed'],
  skillRefs: () => [],
  finalResponse: true,
});
