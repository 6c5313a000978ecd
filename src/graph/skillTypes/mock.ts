import type { MockSkill } from '../skills.ts';
import { defineSkillType } from './types.ts';

export const mock = defineSkillType<MockSkill>()({
  type: 'mock',
  scripted: true,
  defaults: () => ({ type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{}] }] }),
  calls: () => [],
});
