import type * as z from 'zod/mini';
import { lazySchema } from '../lazySchema.ts';
import { defineKind } from './types.ts';

export const StopConfig = lazySchema((z) => z.strictObject({
  reason: z._default(z.string().check(z.regex(/^[a-z][a-z0-9_]*$/, 'a stop reason is a snake_case code')), 'stopped'),
}));
export type StopConfig = z.infer<typeof StopConfig>;

export const stop = defineKind({
  kind: 'stop',
  title: 'Stop',
  seedName: 'forced stop',
  description: 'Ends the run with its reason: stopping is not losing.',
  color: '#64748b',
  icon: 'octagon-x',
  config: StopConfig,
  outcomes: [],
  mermaid: 'stadium',
  terminal: true,
  state: {},
  reads: [],
  fields: [{ key: 'reason', label: 'Stop reason', type: 'text' }],
  summary: (config) => [`ends: ${config.reason}`],
  skillRefs: () => [],
});
