/**
 * The MCP servers of a folder's `.mcp.json`, reached by the page through a local server (meant for
 * `loopscope open`, whose API routes are token-protected): the page cannot start programs, so the
 * local server starts each stdio server with the node connector and passes the page's calls on.
 * A server is started only after the person allowed it in the page, once per server.
 *
 *   GET  /api/mcp                 the servers: name, command line (and env names) or address, allowed or not; the file, or why it cannot be used
 *   POST /api/mcp/NAME/allow      the person allowed this server (asked in the page)
 *   POST /api/mcp/NAME/tools      its tools (starts it on first use)
 *   POST /api/mcp/NAME/call       {tool, args, timeoutMs} → the answer, or {failure: {outcome, message}}
 *
 * The handler knows nothing of the server it is mounted in: it is given the request's method, path
 * and body and answers with a status and a JSON value (`open`'s route table calls it for `/api/mcp/*`).
 */
import { isStdioServer, type McpConfig } from '../graph/mcpServers.ts';
import { McpFailure } from '../skills/mcp.ts';
import { createNodeConnector, type NodeConnector } from '../skills/mcpNode.ts';
import { MCP_CONFIG_SHAPE, McpConfigError, type ProjectServers } from './mcp.ts';
import type { Route, RouteContext } from './open.ts';

export const MCP_ROUTE = '/api/mcp';

export interface McpAnswer {
  status: number;
  body: unknown;
}

export interface McpRoutes {
  handle: (method: string, path: string, readBody: () => Promise<string>) => Promise<McpAnswer>;
  /** Stops every server started for the page (by PID). */
  close: () => Promise<void>;
}

/** A stdio server's command line as a shell would read it: a word with spaces or quotes is quoted, so what the person reads is what runs. */
const commandLine = (command: string, args: readonly string[]) =>
  [command, ...args].map((word) => (/^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');

const refusal = (status: number, message: string): McpAnswer => ({ status, body: { error: message } });

/** What a call's body must be. */
const callOf = (text: string): { tool: string; args: Record<string, unknown>; timeoutMs: number } | null => {
  try {
    const body = JSON.parse(text) as { tool?: unknown; args?: unknown; timeoutMs?: unknown };
    const args = body.args ?? {};
    if (typeof body.tool !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args) || typeof body.timeoutMs !== 'number') return null;
    return { tool: body.tool, args: args as Record<string, unknown>, timeoutMs: body.timeoutMs };
  } catch {
    return null;
  }
};

export interface McpRoutesOptions {
  /** The folder of `.mcp.json`, where its stdio servers start. */
  dir: string;
  env?: NodeJS.ProcessEnv;
  /** Told when a server starts, with its PID. */
  onStart?: (server: string, pid: number) => void;
}

/** A server's definition as allowed: a change of its command, args, env or address asks again. */
const allowKey = (name: string, server: unknown) => `${name}\n${JSON.stringify(server)}`;

/**
 * `read` gives the folder's `.mcp.json` as it is now (null: there is none): it is read again on
 * every request, so a server added or changed while `open` runs is seen without a restart. A
 * server is allowed for its definition: once that changes or goes, the server started from the old
 * one stops, and the person is asked again.
 */
export const mcpRoutes = (read: () => Promise<ProjectServers | null>, options: McpRoutesOptions = { dir: process.cwd() }): McpRoutes => {
  const allowed = new Set<string>();
  /** One connector per started server, with the definition it was started from. */
  const started = new Map<string, { key: string; connector: NodeConnector }>();
  const stop = async (name: string) => {
    const entry = started.get(name);
    started.delete(name);
    await entry?.connector.close();
  };
  const stopChanged = (defined: McpConfig['mcpServers']) =>
    Promise.all([...started].filter(([name, { key }]) => !Object.hasOwn(defined, name) || key !== allowKey(name, defined[name])).map(([name]) => stop(name)));
  const connect = (servers: ProjectServers, name: string) => {
    let entry = started.get(name);
    if (!entry) {
      const config = { mcpServers: { [name]: servers.config.mcpServers[name] } };
      entry = { key: allowKey(name, config.mcpServers[name]), connector: createNodeConnector(config, { dir: options.dir, env: options.env, source: servers.source, onStart: options.onStart }) };
      started.set(name, entry);
    }
    return entry.connector.connect(name);
  };
  return {
    handle: async (method, path, readBody) => {
      let servers: ProjectServers | null;
      try {
        servers = await read();
      } catch (error) {
        if (!(error instanceof McpConfigError)) throw error;
        // The file is being edited or is wrong: nothing is started from it, and the page says why.
        return method === 'GET' && path === MCP_ROUTE ? { status: 200, body: { source: '.mcp.json', servers: [], problem: error.message } } : refusal(409, error.message);
      }
      const source = servers?.source ?? 'the folder (it has no .mcp.json)';
      const defined = servers?.config.mcpServers ?? {};
      await stopChanged(defined);
      const rest = path.slice(MCP_ROUTE.length).split('/').filter(Boolean).map(decodeURIComponent);
      if (rest.length === 0 && method === 'GET')
        return {
          status: 200,
          body: {
            source,
            ...(servers ? {} : { problem: `the folder has no .mcp.json to name its MCP servers (${MCP_CONFIG_SHAPE}); it is read again on each use` }),
            servers: Object.entries(defined).map(([name, server]) => ({
              name, allowed: allowed.has(allowKey(name, server)),
              ...(isStdioServer(server) ? { command: commandLine(server.command, server.args ?? []), env: Object.keys(server.env ?? {}) } : { url: server.url }),
            })),
          },
        };
      const [name, action] = rest;
      if (rest.length !== 2 || method !== 'POST') return refusal(404, `no such MCP route: ${method} ${path}`);
      if (!servers || !Object.hasOwn(defined, name)) return refusal(404, `there is no MCP server "${name}" in ${source}`);
      const key = allowKey(name, defined[name]);
      if (action === 'allow') {
        allowed.add(key);
        return { status: 200, body: { allowed: name } };
      }
      // Nothing is started or reached before the person said yes in the page, to this definition.
      if (!allowed.has(key)) return refusal(403, `the MCP server "${name}" was not allowed in the page`);
      try {
        if (action === 'tools') return { status: 200, body: { tools: await (await connect(servers, name)).tools() } };
        if (action === 'call') {
          const call = callOf(await readBody());
          if (!call) return refusal(400, 'a call is {"tool": NAME, "args": {...}, "timeoutMs": N}');
          return { status: 200, body: { answer: await (await connect(servers, name)).call(call.tool, call.args, call.timeoutMs) } };
        }
      } catch (error) {
        return { status: 200, body: { failure: { outcome: error instanceof McpFailure ? error.outcome : 'error', message: (error as Error).message } } };
      }
      return refusal(404, `no such MCP route: ${method} ${path}`);
    },
    close: async () => {
      await Promise.all([...started.keys()].map(stop));
    },
  };
};

/**
 * The routes as `loopscope open` mounts them in its table, behind the Host and token checks of
 * every API route; when `open` stops, the servers they started stop (by PID).
 */
export const openMcpRoutes = (mcp: McpRoutes): Route[] => {
  const handle = async ({ request, url, readText, json }: RouteContext) => {
    const { status, body } = await mcp.handle(request.method ?? 'GET', url.pathname, () => readText());
    json(status, body);
  };
  return [
    { method: 'GET', path: MCP_ROUTE, handle },
    { method: 'POST', path: `${MCP_ROUTE}/*`, handle, stop: () => mcp.close() },
  ];
};
