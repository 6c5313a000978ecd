/** The schemas every part of the format shares: ids, a skill call's outcome, a retry, an action, a position. */
import { CALL_OUTCOMES, FAILURE_OUTCOMES, FORBIDDEN_KEYS } from './common.ts';
import { LIMITS } from './limits.ts';
import { z } from './zod.ts';

/**
 * A node, edge or skill name, and every reference to one: no spaces, quotes or control
 * characters, and none of the keys that reach an object's prototype.
 */
export const Id = z
  .string()
  .check(
    z.regex(/^[A-Za-z_][\w-]*$/, 'an id is letters, digits, _ or -, starting with a letter or _'),
    z.refine((id) => !FORBIDDEN_KEYS.has(id), { message: 'this name is reserved (__proto__, constructor and prototype cannot be ids)', abort: true }),
  );

/** Why a name cannot be an id, or null when it can. */
export const idProblem = (name: string): string | null => {
  const result = Id.safeParse(name);
  return result.success ? null : result.error.issues[0].message;
};

export const CallOutcome = z.enum(CALL_OUTCOMES);

export const RetryPolicy = z.strictObject({
  maxAttempts: z._default(z.int().check(z.gte(1), z.lte(100)), 3),
  retryOn: z._default(z.array(z.enum(FAILURE_OUTCOMES)), ['timeout', 'parse_error']),
  /** Wait before attempt n+1: backoffMs * 2^(n-1), at most SKILL_LIMITS.maxBackoffMs. */
  backoffMs: z.optional(z.int().check(z.gte(0))),
  /** An attempt that takes longer than this becomes a `timeout`. */
  timeoutMs: z.optional(z.int().check(z.gte(1))),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const Action = z.strictObject({
  skill: Id,
  args: z._default(z.record(z.string(), z.unknown()), {}),
});
export type Action = z.infer<typeof Action>;

const Coordinate = z.number().check(z.gte(-LIMITS.coordinate), z.lte(LIMITS.coordinate));
export const Position = z.strictObject({ x: Coordinate, y: Coordinate });
export type Position = z.infer<typeof Position>;
