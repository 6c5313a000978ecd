import type { RetryPolicy } from './commonSchemas.ts';

// The schemas of these values are in ./commonSchemas.ts: the first screen uses this module, never zod.
export type { Action, Position, RetryPolicy } from './commonSchemas.ts';

/** Keys that would reach an object's prototype when a parsed file is spread or assigned. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The failure taxonomy of one skill call (SPEC §1, "Skill call outcomes"). */
export const CALL_OUTCOMES = ['ok', 'empty', 'timeout', 'parse_error', 'permission_denied', 'error'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
/** The outcomes an attempt may be retried on: every failure. */
export const FAILURE_OUTCOMES = ['timeout', 'parse_error', 'permission_denied', 'error'] as const satisfies readonly CallOutcome[];
/**
 * The outcomes worth retrying: a refusal is decided by the permission mode, not flaky, so
 * `permission_denied` in `retryOn` is a validation error (`retry_denied`) and the inspector does not offer it.
 */
export const RETRIABLE_OUTCOMES = FAILURE_OUTCOMES.filter((outcome) => outcome !== 'permission_denied');

/** The SPEC's retry of a node that sets none: 3 attempts, again after a timeout or an answer that does not parse. */
export const defaultRetry = (): RetryPolicy => ({ maxAttempts: 3, retryOn: ['timeout', 'parse_error'] });

/**
 * A record's own value for a key from a file (an id, a state field, a stop reason): `toString`
 * or `constructor` must not find what every object inherits.
 */
export const own = <T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;
