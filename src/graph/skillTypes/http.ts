import type { AccessLevel as Access } from '../mcpAccess.ts';
import type { HttpSkill } from '../skills.ts';
import { defineSkillType } from './types.ts';

const ACCESS_OF_METHOD: Record<HttpSkill['method'], Access> = { GET: 'read', POST: 'write', PUT: 'write', PATCH: 'write', DELETE: 'write' };

export const http = defineSkillType<HttpSkill>()({
  type: 'http',
  defaults: () => ({ type: 'http', access: 'read', url: 'https://example.com/search?q={{args.q}}', method: 'GET', timeoutMs: 10000 }),
  calls: (skill) => (typeof skill.url === 'string' ? [{ address: skill.url }] : []),
  impliedAccess: (skill) => ACCESS_OF_METHOD[skill.method],
});
