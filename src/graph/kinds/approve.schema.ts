/** The Approve kind's schemas (./approve.ts): its config, and the state it writes. */
import { z } from '../zod.ts';
import type { KindSchemasOf } from './schemas.ts';

export const ApproveConfig = z.strictObject({
  prompt: z.optional(z.string()),
  /** The decision of a headless run (command line, scenarios). */
  auto: z.optional(z.enum(['approve', 'deny'])),
  /**
   * Answers given in advance, one for each time the node runs, in order; past the list a person
   * is asked (headless: `auto`). A scenario saved from a run pins the person's answers here.
   */
  answers: z.optional(z.array(z.enum(['approved', 'denied'])).check(z.maxLength(1000))),
});
export type ApproveConfig = z.infer<typeof ApproveConfig>;

export const approveSchemas = {
  config: ApproveConfig,
  state: { approval: z.looseObject({ decision: z.enum(['approved', 'denied']), skill: z.nullable(z.string()), by: z.string() }) },
} satisfies KindSchemasOf<'approve'>;
