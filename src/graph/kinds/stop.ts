import type { StopConfig } from './stop.schema.ts';
import { defineKind } from './types.ts';

export const stop = defineKind<StopConfig>()({
  kind: 'stop',
  title: 'Stop',
  seedName: 'forced stop',
  description: 'Ends the run with its reason: stopping is not losing.',
  color: '#64748b',
  icon: 'octagon-x',
  outcomes: [],
  mermaid: 'stadium',
  terminal: true,
  writes: [],
  reads: [],
  fields: [{ key: 'reason', label: 'Stop reason', type: 'text' }],
  summary: (config) => [`ends: ${config.reason}`],
  skillRefs: () => [],
});
