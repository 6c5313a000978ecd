/** The Respond kind's schemas (./respond.ts): its config, and the state it writes. */
import { z } from '../zod.ts';
import type { KindSchemasOf } from './schemas.ts';

export const RespondConfig = z.strictObject({
  /** `{{state.x}}` placeholders are filled from the state; without it the response summarises the evidence. */
  template: z.optional(z.string()),
});
export type RespondConfig = z.infer<typeof RespondConfig>;

export const respondSchemas = {
  config: RespondConfig,
  state: { response: z.looseObject({ text: z.string() }) },
} satisfies KindSchemasOf<'respond'>;
