import type { MockSkill } from '../skills.ts';
import { defineSkillType } from './types.ts';

export const mock = defineSkillType<MockSkill>()({
  type: 'mock',
  description: 'Answers from its script, one entry per attempt: contacts nothing.',
  scripted: true,
  defaults: () => ({ type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{}] }] }),
  calls: () => [],
});
