import { z } from 'zod';
import { CallOutcome } from './common.ts';
import { LIMITS } from './limits.ts';

export const ACCESS_LEVELS = ['read', 'write', 'exec'] as const;
export const Access = z.enum(ACCESS_LEVELS);
export type Access = z.infer<typeof Access>;

export const MockEntry = z.strictObject({
  outcome: CallOutcome,
  records: z.array(z.unknown()).max(LIMITS.records).optional(),
  tokens: z.int().min(0).optional(),
  error: z.string().optional(),
  delayMs: z.int().min(0).optional(),
  /**
   * What an llm answered, as text or as JSON (written out as text): a planner, a decider or a judge
   * reads it exactly as it reads a real model's answer, and "Save as scenario" writes it back here.
   */
  reply: z.unknown().optional(),
});
export type MockEntry = z.infer<typeof MockEntry>;

const skillBase = {
  access: Access.default('read'),
  /** The default token cost of each attempt. */
  tokens: z.int().min(0).optional(),
  description: z.string().optional(),
};

export const MockSkill = z.strictObject({
  type: z.literal('mock'),
  ...skillBase,
  /** One entry per attempt, the last repeating. */
  script: z.array(MockEntry).min(1, 'a mock skill needs at least one script entry').max(LIMITS.scriptEntries),
});

export const HttpSkill = z.strictObject({
  type: z.literal('http'),
  ...skillBase,
  url: z.string().min(1),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  timeoutMs: z.int().min(1).default(10000),
  recordsPath: z.string().optional(),
});

export const LlmSkill = z.strictObject({
  type: z.literal('llm'),
  ...skillBase,
  baseUrl: z.string().min(1),
  model: z.string().min(1),
  /** The name of the key; the key itself never lives in the file. */
  apiKeyName: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  timeoutMs: z.int().min(1).default(60000),
});

export const Skill = z.discriminatedUnion('type', [MockSkill, HttpSkill, LlmSkill]);
export type Skill = z.infer<typeof Skill>;
export type MockSkill = z.infer<typeof MockSkill>;
export type HttpSkill = z.infer<typeof HttpSkill>;
export type LlmSkill = z.infer<typeof LlmSkill>;

const ACCESS_OF_METHOD: Record<HttpSkill['method'], Access> = { GET: 'read', POST: 'write', PUT: 'write', PATCH: 'write', DELETE: 'write' };

/**
 * The access a skill needs: what it declares, and for an http skill at least what its method
 * implies, so that `"method": "DELETE", "access": "read"` does not pass a read-only check.
 */
export const effectiveAccess = (skill: Skill): Access => {
  if (skill.type !== 'http') return skill.access;
  const implied = ACCESS_OF_METHOD[skill.method];
  return ACCESS_LEVELS.indexOf(implied) > ACCESS_LEVELS.indexOf(skill.access) ? implied : skill.access;
};
