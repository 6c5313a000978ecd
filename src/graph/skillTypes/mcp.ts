import type { McpSkill } from '../skills.ts';
import { defineSkillType } from './types.ts';

export const mcp = defineSkillType<McpSkill>()({
  type: 'mcp',
  defaults: () => ({ type: 'mcp', access: 'read', server: 'files', tool: 'read_text_file', timeoutMs: 30000 }),
  // Its server is the person's (.mcp.json), reached through their own connection: no host of the graph's.
  calls: () => [],
  tool: (skill) => ({ server: skill.server, tool: skill.tool }),
});
