/** Starting a folder's MCP server under `loopscope open` (src/hooks/library.ts says why a module of its own). */
export { openServer } from '../network/openServer.ts';
