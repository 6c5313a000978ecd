/** The tools each MCP server listed, and asking it again (src/hooks/library.ts says why a module of its own). */
export { listedTool, listTools, useMcpTools } from '../network/mcpTools.ts';
