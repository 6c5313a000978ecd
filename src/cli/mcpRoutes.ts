/**
 * The MCP servers of a folder's `.mcp.json`, reached by the page through a local server (meant for
 * `loopscope open`, whose API routes are token-protected): the page cannot start programs, so the
 * local server starts each stdio server with the node connector and passes the page's calls on.
 * A server is started only after the person allowed it in the page, as it was shown there; a
 * graph's calls go on only after the person granted it a permission mode, remembered per graph file
 * for exactly what was shown (src/skills/mcpFolder.ts: both sides digest it the same way).
 *
 *   GET  /api/mcp                 the servers as shown (ListedServer: command line, cwd and env, or address; a digest; allowed or not); the file, or why it cannot be used
 *   POST /api/mcp/NAME/allow      {digest}: the person allowed this server as shown (409 when .mcp.json says otherwise now)
 *   POST /api/mcp/NAME/tools      its tools (starts it on first use)
 *   POST /api/mcp/NAME/call       {tool, args, timeoutMs} → the answer, or {failure: {outcome, message}}
 *   POST /api/mcp/granted         a GrantAsk and its digest → {granted}: the mode granted for exactly that, or null
 *   POST /api/mcp/grant           the same and {granted}: the person granted that mode (409 when the servers or their tools changed)
 *
 * The handler knows nothing of the server it is mounted in: it is given the request's method, path
 * and body and answers with a status and a JSON value (`open`'s route table calls it for `/api/mcp/*`).
 */
import { resolve } from 'node:path';
import { ACCESS_LEVELS } from '../graph/mcpAccess.ts';
import { commandLine, expandVariables, headerVariables, isStdioServer, type McpConfig, type McpServer } from '../graph/mcpServers.ts';
import { parseUntrusted } from '../graph/parse.ts';
import { describeProblems } from '../graph/problems.ts';
import { PERMISSION_MODES, type PermissionMode } from '../graph/schema.ts';
import { z } from '../graph/zod.ts';
import { McpFailure, type McpTool } from '../skills/mcp.ts';
import { grantDigest, sha256, type ListedServer } from '../skills/mcpFolder.ts';
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

/** A server's definition as allowed: a change of its command, args, env, cwd or address asks again. */
const allowKey = (name: string, server: unknown) => `${name}\n${JSON.stringify(server)}`;

/** What the page sends when the person allows a server: the digest of the definition it showed. */
const AllowBody = z.strictObject({ digest: z.string() });

/** What the page sends to ask for, or give, a graph's grant (src/skills/mcpFolder.ts `GrantAsk`). */
const GrantBody = z.strictObject({
  graph: z.nullable(z.string().check(z.minLength(1))),
  mode: z.enum(PERMISSION_MODES),
  servers: z.array(z.strictObject({ name: z.string(), digest: z.string() })),
  calls: z.array(z.strictObject({ skill: z.string(), server: z.string(), tool: z.string(), declared: z.enum(ACCESS_LEVELS) })),
  digest: z.string(),
  granted: z.optional(z.enum(PERMISSION_MODES)),
});
type GrantBody = z.infer<typeof GrantBody>;

/** A request's body checked against its schema, or the refusal that names what is wrong and where. */
const bodyOf = async <S extends z.ZodMiniType>(schema: S, readBody: () => Promise<string>): Promise<z.infer<S> | McpAnswer> => {
  const parsed = parseUntrusted(schema, await readBody());
  return parsed.ok ? parsed.value : refusal(400, `the request's body: ${describeProblems(parsed.problems)}`);
};
const isAnswer = (value: unknown): value is McpAnswer => typeof value === 'object' && value !== null && 'status' in value && 'body' in value;

/**
 * `read` gives the folder's `.mcp.json` as it is now (null: there is none): it is read again on
 * every request, so a server added or changed while `open` runs is seen without a restart. A
 * server is allowed for its definition: once that changes or goes, the server started from the old
 * one stops, and the person is asked again.
 */
export const mcpRoutes = (read: () => Promise<ProjectServers | null>, options: McpRoutesOptions = { dir: process.cwd() }): McpRoutes => {
  const allowed = new Set<string>();
  /** The mode the person granted each graph file, for the digest of what they were shown. */
  const grants = new Map<string, { digest: string; granted: PermissionMode }>();
  /**
   * A server as the page shows it: whatever decides what runs (`${NAME}`s stay as the file writes
   * them: they may be keys), but for the folder it starts in, shown as it will be, variables filled
   * in (`${HOME}` resolved against the folder would name a folder it never runs in).
   */
  const shown = async (name: string, server: McpServer): Promise<ListedServer> => ({
    name, allowed: allowed.has(allowKey(name, server)), digest: await sha256(allowKey(name, server)),
    ...(isStdioServer(server)
      ? { command: commandLine(server.command, server.args ?? []), cwd: resolve(options.dir, expandVariables(server.cwd ?? '.', options.env ?? process.env).text), env: Object.entries(server.env ?? {}) }
      : { url: server.url, headers: Object.keys(server.headers ?? {}), headerVariables: headerVariables(server) }),
  });
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
  /**
   * A grant request checked against `.mcp.json` and the servers' tools as they are now: its digest
   * must be the one this side makes of them, so that what is granted is what the person was shown.
   */
  const checkGrant = async (body: GrantBody, servers: ProjectServers | null, defined: McpConfig['mcpServers'], source: string): Promise<McpAnswer | null> => {
    const tools = new Map<string, McpTool[]>();
    for (const { name, digest } of body.servers) {
      if (!servers || !Object.hasOwn(defined, name)) return refusal(409, `there is no MCP server "${name}" in ${source} any more: the page asks again`);
      const key = allowKey(name, defined[name]);
      if (digest !== (await sha256(key))) return refusal(409, `the MCP server "${name}" changed in ${source} since the page showed it: the page asks again`);
      if (!allowed.has(key)) return refusal(403, `the MCP server "${name}" was not allowed in the page`);
      try {
        tools.set(name, await (await connect(servers, name)).tools());
      } catch (error) {
        return refusal(409, `the tools of the MCP server "${name}" cannot be listed now (${(error as Error).message}): the page asks again`);
      }
    }
    const unknown = body.calls.findIndex((call) => !tools.has(call.server));
    if (unknown >= 0) return refusal(400, `calls[${unknown}].server: "${body.calls[unknown].server}" is not one of the servers shown`);
    if ((await grantDigest(body, tools)) !== body.digest)
      return refusal(409, `the tools of ${body.servers.map((server) => `"${server.name}"`).join(', ')} changed since the page showed them: the page asks again`);
    return null;
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
      let rest: string[];
      try {
        rest = path.slice(MCP_ROUTE.length).split('/').filter(Boolean).map(decodeURIComponent);
      } catch {
        return refusal(400, `not a route: ${path} is not a well-formed address`);
      }
      if (rest.length === 0 && method === 'GET')
        return {
          status: 200,
          body: {
            source,
            ...(servers ? {} : { problem: `the folder has no .mcp.json to name its MCP servers (${MCP_CONFIG_SHAPE}); it is read again on each use` }),
            servers: await Promise.all(Object.entries(defined).map(([name, server]) => shown(name, server))),
          },
        };
      if (method === 'POST' && rest.length === 1 && (rest[0] === 'granted' || rest[0] === 'grant')) {
        const body = await bodyOf(GrantBody, readBody);
        if (isAnswer(body)) return body;
        const refused = await checkGrant(body, servers, defined, source);
        if (refused) return refused;
        if (rest[0] === 'granted') {
          const remembered = body.graph === null ? undefined : grants.get(body.graph);
          return { status: 200, body: { granted: remembered?.digest === body.digest ? remembered.granted : null } };
        }
        if (body.granted !== 'read-only' && body.granted !== body.mode)
          return refusal(400, `granted: the person grants the mode the graph asks (${body.mode}) or read-only, not ${JSON.stringify(body.granted ?? null)}`);
        if (body.graph !== null) grants.set(body.graph, { digest: body.digest, granted: body.granted });
        return { status: 200, body: { granted: body.granted } };
      }
      const [name, action] = rest;
      if (rest.length !== 2 || method !== 'POST') return refusal(404, `no such MCP route: ${method} ${path}`);
      if (!servers || !Object.hasOwn(defined, name)) return refusal(404, `there is no MCP server "${name}" in ${source}`);
      const key = allowKey(name, defined[name]);
      if (action === 'allow') {
        const body = await bodyOf(AllowBody, readBody);
        if (isAnswer(body)) return body;
        // The allowance is for the definition the person was shown, not for whatever the file says at the click.
        if (body.digest !== (await sha256(key))) return refusal(409, `the MCP server "${name}" changed in ${source} since the page showed it: it is asked about again`);
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
