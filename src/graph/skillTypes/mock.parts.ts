import type { MockSkill } from '../skills.ts';
import type { SkillParts } from './types.ts';

/** What only the inspector reads of a mock skill, kept off the first screen (./mock.ts is on it). */
export const mockParts = {
  settings: { fields: [{ key: 'script', type: 'editor', editor: 'script' }], asked: ['script'] },
} satisfies SkillParts<MockSkill>;
