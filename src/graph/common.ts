import { z } from 'zod';

/** The failure taxonomy of one skill call (SPEC §1, "Skill call outcomes"). */
export const CALL_OUTCOMES = ['ok', 'empty', 'timeout', 'parse_error', 'permission_denied', 'error'] as const;
export const CallOutcome = z.enum(CALL_OUTCOMES);
export type CallOutcome = z.infer<typeof CallOutcome>;

export const RetryPolicy = z.strictObject({
  maxAttempts: z.int().min(1).max(100).default(3),
  retryOn: z.array(CallOutcome.exclude(['ok', 'empty'])).default(['timeout', 'parse_error']),
  /** Wait before attempt n+1: backoffMs * 2^(n-1). */
  backoffMs: z.int().min(0).optional(),
  /** An attempt that takes longer than this becomes a `timeout`. */
  timeoutMs: z.int().min(1).optional(),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const Action = z.strictObject({
  skill: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});
export type Action = z.infer<typeof Action>;

export const Position = z.strictObject({ x: z.number(), y: z.number() });
export type Position = z.infer<typeof Position>;

/** Keys that would reach an object's prototype when a parsed file is spread or assigned. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
