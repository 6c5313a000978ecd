/**
 * The tools of the MCP servers the editor has listed, by server name: what the inspector offers to
 * pick from, the args form's input schemas, and the access each tool needs (from its annotations).
 * Listing asks the server at the address given in this browser (./mcpServers.ts), and only there:
 * the person asks for it, with the address on screen. Under `loopscope open` it asks the folder's
 * `.mcp.json` server through the local server, which starts it once the person allowed it
 * (./folderMcp.ts; listing grants no run anything). Kept in memory for the page's life.
 */
import { create } from 'zustand';
import { originOf } from '../graph/hosts.ts';
import type { GraphFile } from '../graph/schema.ts';
import type { McpTool } from '../skills/mcp.ts';
import { fetchOnlyTo } from '../skills/net.ts';
import { serverUrl } from './mcpServers.ts';
import { openServer } from './openServer.ts';

export interface ServerTools {
  /** The address listed; empty for a server of the folder's `.mcp.json` under `loopscope open`. */
  url: string;
  tools?: McpTool[];
  error?: string;
  listing?: boolean;
}

export const useMcpTools = create<{ servers: Record<string, ServerTools> }>()(() => ({ servers: {} }));

const put = (server: string, entry: ServerTools) => useMcpTools.setState((state) => ({ servers: { ...state.servers, [server]: entry } }));

/** Lists the tools of `server`: at its address in this browser, or, under `loopscope open`, the folder's (`graph` names the skills that call it in the question). */
export const listTools = async (server: string, graph: GraphFile): Promise<void> => {
  const folder = openServer();
  if (folder) {
    put(server, { url: '', listing: true });
    const { folderTools } = await import('./folderMcp.ts');
    try {
      put(server, { url: '', tools: await folderTools(folder, graph, server) });
    } catch (error) {
      put(server, { url: '', error: (error as Error).message });
    }
    return;
  }
  const url = serverUrl(server);
  const origin = url && originOf(url);
  if (!url || !origin) {
    put(server, { url: url ?? '', error: `give the address of “${server}” first` });
    return;
  }
  put(server, { url, listing: true });
  const { browserConnector } = await import('./mcpConnector.ts');
  const connector = browserConnector(fetchOnlyTo(new Set([origin])));
  try {
    put(server, { url, tools: await (await connector.connect(server)).tools() });
  } catch (error) {
    put(server, { url, error: (error as Error).message });
  } finally {
    await connector.close();
  }
};

/** A listed tool of a server, if it was listed. */
export const listedTool = (servers: Record<string, ServerTools>, server: string, tool: string): McpTool | undefined =>
  servers[server]?.tools?.find((candidate) => candidate.name === tool);
