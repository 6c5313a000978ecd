/** The Stop kind's schemas (./stop.ts): its config, and the state it writes. */
import { z } from '../zod.ts';
import type { KindSchemasOf } from './schemas.ts';

export const StopConfig = z.strictObject({
  reason: z._default(z.string().check(z.regex(/^[a-z][a-z0-9_]*$/, 'a stop reason is a snake_case code')), 'stopped'),
});
export type StopConfig = z.infer<typeof StopConfig>;

export const stopSchemas = {
  config: StopConfig,
  state: {},
} satisfies KindSchemasOf<'stop'>;
