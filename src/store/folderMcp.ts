/**
 * A run's MCP servers under `loopscope open`: the folder's `.mcp.json`, reached through the local
 * server (src/cli/mcpRoutes.ts), which starts a stdio server only once the person allowed it here.
 * Each server is asked about once: an allowed one is remembered for the page (the local server
 * keeps it running until `open` stops), a denied one for the run (the next run asks again).
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

/** Servers the person allowed in this page. */
const allowedHere = new Set<string>();

const NO_FILE = 'the folder loopscope open serves has no usable .mcp.json (it names the MCP servers; see the terminal where open runs, and start it again once the file is there)';

/** The folder's servers; null when it has no `.mcp.json` (the local server mounts no MCP routes then). */
const listServers = async ({ origin, token }: OpenServer): Promise<{ servers: ListedServer[]; source: string } | null> => {
  let response: Response;
  try {
    response = await fetch(`${origin}/api/mcp`, { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    throw new McpFailure('error', 'the loopscope open server does not answer (was it stopped?)');
  }
  if (response.status === 404) return null;
  const value = (await response.json().catch(() => ({}))) as { servers?: ListedServer[]; source?: string; error?: string };
  if (!response.ok || !Array.isArray(value.servers)) throw new McpFailure('error', value.error ?? `the loopscope open server answered ${response.status}`);
  return { servers: value.servers, source: value.source ?? '.mcp.json' };
};

export const folderMcp = (server: OpenServer, graph: GraphFile): McpConnector => {
  const skills = serversNamed(graph);
  return folderConnector(server, async (name) => {
    if (allowedHere.has(name)) return true;
    const listed = await listServers(server);
    if (!listed) throw new McpFailure('error', `there is no MCP server "${name}": ${NO_FILE}`);
    const entry = listed.servers.find((candidate) => candidate.name === name);
    if (!entry) {
      const known = listed.servers.map((candidate) => candidate.name);
      throw new McpFailure('error', `there is no MCP server "${name}" in ${listed.source} (it defines ${known.length > 0 ? known.join(', ') : 'none'})`);
    }
    // Allowed in another tab or before a reload, while this open runs: the server may be running already.
    const allowed = entry.allowed || (await askToStartServer({ server: name, command: entry.command, env: entry.env ?? [], url: entry.url, source: listed.source, graphName: graph.name, skills: skills.get(name) ?? [] }));
    if (allowed) allowedHere.add(name);
    return allowed;
  });
};
