/**
 * The page's MCP connector, loaded with the first run of a graph that has mcp skills (it brings the
 * SDK's client): each server name goes to the address the person gave for it (./mcpServers.ts),
 * over Streamable HTTP, with requests only to the hosts allowed for the run.
 */
import { McpFailure, type McpConnector } from '../skills/mcp.ts';
import { cachingConnector, openHttpConnection } from '../skills/mcpClient.ts';
import { serverUrl } from './mcpServers.ts';

export const browserConnector = (fetchImpl: typeof fetch): McpConnector & { close(): Promise<void> } =>
  cachingConnector(async (name) => {
    const url = serverUrl(name);
    if (!url) throw new McpFailure('error', `no address was given for the MCP server "${name}" in this browser: Run asks for it`);
    return openHttpConnection(name, url, { fetch: fetchImpl });
  });
