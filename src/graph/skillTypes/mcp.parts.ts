import { skillBase } from '../skillBase.ts';
import { z } from '../zod.ts';
import type { SkillParts } from './types.ts';

/**
 * One tool of an MCP server. `server` is a name: the servers themselves (a program to start, a URL)
 * are the person's, in their project's `.mcp.json` (./mcpServers.ts), never in a graph file, so a
 * graph someone sends cannot start a program or reach a server the person did not set up. The
 * access a call needs comes from the tool's annotations at run time; `access` may only make it
 * stricter (`exec` for a shell-like tool), so its default `read` adds nothing.
 */
export const McpSkill = z.strictObject({
  type: z.literal('mcp'),
  ...skillBase,
  server: z.string().check(z.minLength(1, 'name a server of the project\'s .mcp.json')),
  tool: z.string().check(z.minLength(1, 'name one of the server\'s tools')),
  timeoutMs: z._default(z.int().check(z.gte(1)), 30000),
});

export type McpSkill = z.infer<typeof McpSkill>;

/** What only the inspector reads of an mcp skill, kept off the first screen (./mcp.ts is on it). */
export const mcpParts = {
  // The server and its tool are chosen together, from the server's list.
  settings: { fields: [{ key: 'tool', type: 'editor', editor: 'mcpTool' }], asked: false },
} satisfies SkillParts<McpSkill>;
