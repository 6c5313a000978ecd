import type { LlmSkill } from '../skills.ts';
import { defineSkillType } from './types.ts';

export const llm = defineSkillType<LlmSkill>()({
  type: 'llm',
  defaults: () => ({ type: 'llm', access: 'read', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', timeoutMs: 60000 }),
  calls: (skill) =>
    typeof skill.baseUrl === 'string' ? [{ address: skill.baseUrl, ...(typeof skill.apiKeyName === 'string' && skill.apiKeyName ? { keyName: skill.apiKeyName } : {}) }] : [],
});
