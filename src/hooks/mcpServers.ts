/** The address this browser gave each MCP server (src/hooks/library.ts says why a module of its own). */
export { badServerUrl, serverUrl, setServerUrl } from '../network/mcpServers.ts';
