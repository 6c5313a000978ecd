import type { McpSkill } from '../skills.ts';
import type { SkillParts } from './types.ts';

/** What only the inspector reads of an mcp skill, kept off the first screen (./mcp.ts is on it). */
export const mcpParts = {
  // The server and its tool are chosen together, from the server's list.
  settings: { fields: [{ key: 'tool', type: 'editor', editor: 'mcpTool' }], asked: false },
} satisfies SkillParts<McpSkill>;
