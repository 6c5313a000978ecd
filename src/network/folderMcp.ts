/**
 * A run's MCP servers under `loopscope open`: the folder's `.mcp.json`, reached through the local
 * server (src/cli/mcpRoutes.ts). Before the run, the person is asked, in the page:
 *
 * 1. to start each server not allowed yet, shown exactly as it runs (its command line, folder and
 *    environment): the local server remembers it for that definition, and a denied one fails its
 *    calls in this run (the next run asks again);
 * 2. then, its tools listed, which permission mode the graph gets: the graph file only asks for
 *    one. The person grants it, or read-only, or denies the run; the local server remembers the
 *    grant per graph file, for exactly what was shown (the mode, the servers, each call's access),
 *    and asks again when any of it changes.
 *
 * Nothing is called before the grant. Loaded with the first run of such a graph.
 */
import { serversNamed } from '../graph/mcpServers.ts';
import type { GraphFile, PermissionMode } from '../graph/schema.ts';
import { toolOfSkill } from '../graph/skillTypes/index.ts';
import { McpFailure, type McpConnector, type McpTool } from '../skills/mcp.ts';
import {
  allowServer, folderConnector, FolderRefusal, folderRequest, grantDigest, listServerTools, shownCalls,
  type FolderApi, type GrantAsk, type ListedServer,
} from '../skills/mcpFolder.ts';
import { askToGrant, askToStartServer } from './questions.ts';

/**
 * How many times a run's questions start over when the local server says that what was shown has
 * changed (409): each time the person is shown the new state, so a file changing under them cannot
 * keep the run waiting for ever.
 */
const MAX_ROUNDS = 5;

interface Listing {
  servers: ListedServer[];
  source: string;
  problem?: string;
}

/** The folder's servers as the local server reads `.mcp.json` now; `problem` says why it cannot be used. */
const listServers = async (api: FolderApi): Promise<Listing> => {
  const value = await folderRequest(api, 'GET', '');
  if (!Array.isArray(value.servers)) throw new McpFailure('error', 'the loopscope open server did not list the MCP servers');
  return { servers: value.servers as ListedServer[], source: typeof value.source === 'string' ? value.source : '.mcp.json', ...(typeof value.problem === 'string' ? { problem: value.problem } : {}) };
};

const changed = (error: unknown) => error instanceof FolderRefusal && error.status === 409;

/** Repeats `work` while the local server says that what the person was shown changed since. */
const askedAgainOnChange = async <T>(work: () => Promise<T>): Promise<T> => {
  for (let round = 1; ; round += 1) {
    try {
      return await work();
    } catch (error) {
      if (!changed(error) || round >= MAX_ROUNDS) throw error;
    }
  }
};

/** Why a server named by the graph is not reached, or its tools once it is allowed (asked when it is not yet). */
const startServer = async (api: FolderApi, graph: GraphFile, name: string, listing: Listing): Promise<{ server: ListedServer; tools: McpTool[] } | McpFailure> => {
  const { servers, source, problem } = listing;
  if (problem) return new McpFailure('error', `there is no MCP server "${name}": ${problem}`);
  const server = servers.find((candidate) => candidate.name === name);
  if (!server) {
    const known = servers.map((candidate) => candidate.name);
    return new McpFailure('error', `there is no MCP server "${name}" in ${source} (it defines ${known.length > 0 ? known.join(', ') : 'none'})`);
  }
  try {
    // Allowed as it is defined now (here, in another tab or before a reload, while this open runs):
    // the local server remembers that, and forgets it when the definition changes.
    if (!server.allowed) {
      if (!(await askToStartServer({ server, source, graphName: graph.name, skills: serversNamed(graph).get(name) ?? [] })))
        return new McpFailure('error', `the MCP server "${name}" was not started: it was denied in the page`);
      await allowServer(api, name, server.digest);
    }
    return { server, tools: await listServerTools(api, name) };
  } catch (error) {
    if (changed(error) || !(error instanceof McpFailure)) throw error;
    return error;
  }
}

/** The servers the graph names, started (once allowed) and listed, and why the others are not reached. */
const startServers = async (api: FolderApi, graph: GraphFile) => {
  const listing = await listServers(api);
  const shown: ListedServer[] = [];
  const tools = new Map<string, McpTool[]>();
  const failures = new Map<string, McpFailure>();
  for (const name of serversNamed(graph).keys()) {
    const started = await startServer(api, graph, name, listing);
    if (started instanceof McpFailure) failures.set(name, started);
    else {
      shown.push(started.server);
      tools.set(name, started.tools);
    }
  }
  return { shown, tools, failures, source: listing.source };
};

/** The tools of one server the folder defines, for the editor's listing: asks to start it as a run would, but grants nothing. */
export const folderTools = async (api: FolderApi, graph: GraphFile, name: string): Promise<McpTool[]> => {
  const started = await askedAgainOnChange(async () => startServer(api, graph, name, await listServers(api)));
  if (started instanceof McpFailure) throw started;
  return started.tools;
};

/** What the run reaches: the servers allowed, and the mode the person granted (absent: read-only). */
export interface FolderNetwork {
  mcp: McpConnector;
  granted?: PermissionMode;
}

/**
 * The run's connector and grant for `graph` (its file `file`, null when not a file yet). Throws when
 * the person denies the grant: nothing runs.
 */
export const folderNetwork = (api: FolderApi, graph: GraphFile, file: string | null): Promise<FolderNetwork> =>
  askedAgainOnChange(async () => {
    const { shown, tools, failures, source } = await startServers(api, graph);
    const mcp = folderConnector(api, tools, (server) => failures.get(server) ?? new McpFailure('error', `the MCP server "${server}" was not reached`));
    const { mode } = graph.permissions;
    // No server reached: every MCP call fails, and nothing was granted: the run's real calls may only read.
    if (shown.length === 0) return { mcp };
    const ask: GrantAsk = {
      graph: file,
      mode,
      servers: shown.map(({ name, digest }) => ({ name, digest })),
      calls: Object.entries(graph.skills).flatMap(([skill, definition]) => {
        const called = toolOfSkill(definition);
        return called && tools.has(called.server) ? [{ skill, ...called, declared: definition.access }] : [];
      }),
    };
    const digest = await grantDigest(ask, tools);
    const remembered = (await folderRequest(api, 'POST', '/granted', { ...ask, digest })).granted as PermissionMode | null;
    if (remembered) return { mcp, granted: remembered };
    const granted = await askToGrant({ graphName: graph.name, file, mode, servers: shown, calls: shownCalls(ask.calls, tools), source });
    if (granted === null) throw new Error('the access it asks of the folder’s MCP servers was denied.');
    await folderRequest(api, 'POST', '/grant', { ...ask, digest, granted });
    return { mcp, granted };
  });
