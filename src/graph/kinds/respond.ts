import type { RespondConfig } from './respond.schema.ts';
import { defineKind } from './types.ts';

export const respond = defineKind<RespondConfig>()({
  kind: 'respond',
  title: 'Respond',
  seedName: 'format response',
  description: 'Writes the response and ends the run as completed.',
  color: '#22c55e',
  icon: 'message-square-text',
  outcomes: [],
  mermaid: 'stadium',
  terminal: true,
  writes: ['response'],
  reads: ['results', 'evaluation', 'collected'],
  fields: [{ key: 'template', label: 'Template', type: 'text', optional: true }],
  summary: () => ['ends: completed'],
  skillRefs: () => [],
  finalResponse: true,
});
