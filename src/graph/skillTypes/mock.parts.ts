import { CallOutcome } from '../commonSchemas.ts';
import { LIMITS } from '../limits.ts';
import { skillBase } from '../skillBase.ts';
import { z } from '../zod.ts';
import type { SkillParts } from './types.ts';

export const MockEntry = z.strictObject({
  outcome: CallOutcome,
  records: z.optional(z.array(z.unknown()).check(z.maxLength(LIMITS.records))),
  tokens: z.optional(z.int().check(z.gte(0))),
  error: z.optional(z.string()),
  delayMs: z.optional(z.int().check(z.gte(0))),
  /**
   * What an llm answered, as text or as JSON (written out as text): a planner, a decider or a judge
   * reads it exactly as it reads a real model's answer, and "Save as scenario" writes it back here.
   */
  reply: z.optional(z.unknown()),
});
export type MockEntry = z.infer<typeof MockEntry>;

export const MockSkill = z.strictObject({
  type: z.literal('mock'),
  ...skillBase,
  /** One entry per attempt, the last repeating. */
  script: z.array(MockEntry).check(z.minLength(1, 'a mock skill needs at least one script entry'), z.maxLength(LIMITS.scriptEntries)),
});

export type MockSkill = z.infer<typeof MockSkill>;

/** What only the inspector reads of a mock skill, kept off the first screen (./mock.ts is on it). */
export const mockParts = {
  settings: { fields: [{ key: 'script', type: 'editor', editor: 'script' }], asked: ['script'] },
} satisfies SkillParts<MockSkill>;
