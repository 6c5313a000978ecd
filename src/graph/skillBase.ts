// The fields every skill has, apart from ./skills.ts: each built-in type's schema
// (./skillTypes/X.parts.ts) is made of them, and ./skills.ts gathers those schemas.
import { ACCESS_LEVELS } from './mcpAccess.ts';
import { z } from './zod.ts';

export const Access = z.enum(ACCESS_LEVELS);
export type Access = z.infer<typeof Access>;

export const skillBase = {
  access: z._default(Access, 'read'),
  /** The default token cost of each attempt. */
  tokens: z.optional(z.int().check(z.gte(0))),
  description: z.optional(z.string()),
};
/** The fields every skill has, as a definition's `schema` is handed them. */
export type SkillBase = typeof skillBase;

