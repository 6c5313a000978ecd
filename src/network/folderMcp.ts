/**
 * A run's MCP servers under `loopscope open`: the folder's `.mcp.json`, reached through the local
 * server (src/cli/mcpRoutes.ts), which starts a stdio server only once the person allowed it here.
 * Each server is asked about once: an allowed one is remembered by the local server (which keeps it
 * running until `open` stops or its definition in `.mcp.json` changes), a denied one for the run
 * (the next run asks again).
 * Loaded with the first run of such a graph.
 */
import { serversNamed } from '../graph/mcpServers.ts';
import type { GraphFile } from '../graph/schema.ts';
import { McpFailure, type McpConnector } from '../skills/mcp.ts';
import { folderConnector } from '../skills/mcpFolder.ts';
import { askToStartServer } from './hosts.ts';
import type { OpenServer } from './openServer.ts';

/** A server of the folder's `.mcp.json`, as the local server lists it. */
interface ListedServer {
  name: string;
  allowed: boolean;
  command?: string;
  /** The environment variables `.mcp.json` gives it, by name. */
  env?: string[];
  url?: string;
}

/** The folder's servers as the local server reads `.mcp.json` now; `problem` says why it cannot be used. */
const listServers = async ({ origin, token }: OpenServer): Promise<{ servers: ListedServer[]; source: string; problem?: string }> => {
  let response: Response;
  try {
    response = await fetch(`${origin}/api/mcp`, { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    throw new McpFailure('error', 'the loopscope open server does not answer (was it stopped?)');
  }
  const value = (await response.json().catch(() => ({}))) as { servers?: ListedServer[]; source?: string; problem?: string; error?: string };
  if (!response.ok || !Array.isArray(value.servers)) throw new McpFailure('error', value.error ?? `the loopscope open server answered ${response.status}`);
  return { servers: value.servers, source: value.source ?? '.mcp.json', problem: value.problem };
};

export const folderMcp = (server: OpenServer, graph: GraphFile): McpConnector => {
  const skills = serversNamed(graph);
  return folderConnector(server, async (name) => {
    const listed = await listServers(server);
    if (listed.problem) throw new McpFailure('error', `there is no MCP server "${name}": ${listed.problem}`);
    const entry = listed.servers.find((candidate) => candidate.name === name);
    if (!entry) {
      const known = listed.servers.map((candidate) => candidate.name);
      throw new McpFailure('error', `there is no MCP server "${name}" in ${listed.source} (it defines ${known.length > 0 ? known.join(', ') : 'none'})`);
    }
    // Allowed as it is defined now (here, in another tab or before a reload, while this open runs):
    // the local server remembers that, and forgets it when the definition changes.
    return entry.allowed || askToStartServer({ server: name, command: entry.command, env: entry.env ?? [], url: entry.url, source: listed.source, graphName: graph.name, skills: skills.get(name) ?? [] });
  });
};
