import type * as z from 'zod/mini';
import { lazySchema } from './lazySchema.ts';
import { LIMITS } from './limits.ts';

/** Keys that would reach an object's prototype when a parsed file is spread or assigned. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A node, edge or skill name, and every reference to one: no spaces, quotes or control
 * characters, and none of the keys that reach an object's prototype.
 */
export const Id = lazySchema((z) => z
  .string()
  .check(
    z.regex(/^[A-Za-z_][\w-]*$/, 'an id is letters, digits, _ or -, starting with a letter or _'),
    z.refine((id) => !FORBIDDEN_KEYS.has(id), { message: 'this name is reserved (__proto__, constructor and prototype cannot be ids)', abort: true }),
  ));

/** Why a name cannot be an id, or null when it can. */
export const idProblem = (name: string): string | null => {
  const result = Id.safeParse(name);
  return result.success ? null : result.error.issues[0].message;
};

/** The failure taxonomy of one skill call (SPEC §1, "Skill call outcomes"). */
export const CALL_OUTCOMES = ['ok', 'empty', 'timeout', 'parse_error', 'permission_denied', 'error'] as const;
export const CallOutcome = lazySchema((z) => z.enum(CALL_OUTCOMES));
/** The outcomes an attempt may be retried on: every failure. */
export const FAILURE_OUTCOMES = ['timeout', 'parse_error', 'permission_denied', 'error'] as const satisfies readonly CallOutcome[];
export type CallOutcome = z.infer<typeof CallOutcome>;
/**
 * The outcomes worth retrying: a refusal is decided by the permission mode, not flaky, so
 * `permission_denied` in `retryOn` is a validation error (`retry_denied`) and the inspector does not offer it.
 */
export const RETRIABLE_OUTCOMES = FAILURE_OUTCOMES.filter((outcome) => outcome !== 'permission_denied');

export const RetryPolicy = lazySchema((z) => z.strictObject({
  maxAttempts: z._default(z.int().check(z.gte(1), z.lte(100)), 3),
  retryOn: z._default(z.array(z.enum(FAILURE_OUTCOMES)), ['timeout', 'parse_error']),
  /** Wait before attempt n+1: backoffMs * 2^(n-1), at most SKILL_LIMITS.maxBackoffMs. */
  backoffMs: z.optional(z.int().check(z.gte(0))),
  /** An attempt that takes longer than this becomes a `timeout`. */
  timeoutMs: z.optional(z.int().check(z.gte(1))),
}));
export type RetryPolicy = z.infer<typeof RetryPolicy>;

/** The SPEC's retry of a node that sets none: 3 attempts, again after a timeout or an answer that does not parse. */
export const defaultRetry = (): RetryPolicy => ({ maxAttempts: 3, retryOn: ['timeout', 'parse_error'] });

export const Action = lazySchema((z) => z.strictObject({
  skill: Id,
  args: z._default(z.record(z.string(), z.unknown()), {}),
}));
export type Action = z.infer<typeof Action>;

const Coordinate = lazySchema((z) => z.number().check(z.gte(-LIMITS.coordinate), z.lte(LIMITS.coordinate)));
export const Position = lazySchema((z) => z.strictObject({ x: Coordinate, y: Coordinate }));
export type Position = z.infer<typeof Position>;


/**
 * A record's own value for a key from a file (an id, a state field, a stop reason): `toString`
 * or `constructor` must not find what every object inherits.
 */
export const own = <T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;
