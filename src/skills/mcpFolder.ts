/**
 * The folder API of a local server that reaches a folder's MCP servers for the page
 * (src/cli/mcpRoutes.ts, for `loopscope open`), as both sides speak it: what the page is shown of
 * a server and of a graph's access, and the digest that binds an allowance to exactly that. No MCP
 * client runs in the page: the local server speaks MCP.
 */
import { callAccess, type AccessLevel } from '../graph/mcpAccess.ts';
import type { PermissionMode } from '../graph/schema.ts';
import { McpFailure, type McpAnswer, type McpConnector, type McpTool } from './mcp.ts';

export interface FolderApi {
  /** The local server's origin, e.g. `http://127.0.0.1:5290`. */
  origin: string;
  token: string;
  fetch?: typeof fetch;
}

/**
 * A server of the folder's `.mcp.json` as the page shows it: everything that decides what runs
 * (the command line, the folder it runs in, each environment variable with its value; or the
 * address and the names of the headers sent), and the digest of its definition, which the page
 * sends back when the person allows it.
 */
export interface ListedServer {
  name: string;
  /** Allowed in the page, for this very definition. */
  allowed: boolean;
  digest: string;
  /** A stdio server's command line, quoted as a shell reads it. */
  command?: string;
  /** The absolute folder it starts in. */
  cwd?: string;
  /** Its environment, as `.mcp.json` writes it (`${NAME}` is read from `open`'s environment at start). */
  env?: [string, string][];
  url?: string;
  /** The names of the headers sent to a URL server (their values may be keys). */
  headers?: string[];
  /** The environment variables of `open` those headers send (`${NAME}` in their values), by name. */
  headerVariables?: string[];
}

/** A call a graph's mcp skill makes: the access its skill declares (a tool's annotations may only make it stricter). */
export interface GrantCall {
  skill: string;
  server: string;
  tool: string;
  declared: AccessLevel;
}

/** What a graph asks of the folder's servers: sent with a grant, and digested with the tools as the servers list them. */
export interface GrantAsk {
  /** The graph's file in the folder; null for a graph that is not a file yet (nothing is remembered for it). */
  graph: string | null;
  /** The permission mode the graph file asks for. */
  mode: PermissionMode;
  /** Each server it uses, with the digest of the definition shown. */
  servers: { name: string; digest: string }[];
  calls: GrantCall[];
}

/** A call as shown: its tool's access as a run decides it (the tool's annotations, or the skill's own where stricter). */
export interface ShownCall extends Omit<GrantCall, 'declared'> {
  access: AccessLevel;
  /** The server does not list this tool: the call fails, and asks nothing. */
  missing?: true;
}

export const shownCalls = (calls: readonly GrantCall[], tools: ReadonlyMap<string, readonly McpTool[]>): ShownCall[] =>
  calls.map(({ declared, ...call }) => {
    const listed = tools.get(call.server)?.find((tool) => tool.name === call.tool);
    return { ...call, access: callAccess(declared, listed), ...(listed ? {} : { missing: true as const }) };
  });

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a text, in hex (the page and Node alike). */
export const sha256 = async (text: string): Promise<string> => hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/**
 * The digest of what the person is shown and grants: the graph, the mode it asks, each server's
 * definition (by its digest) and each call with its access. A grant is remembered under it, and
 * the local server takes a grant only when its own view gives the same digest.
 */
export const grantDigest = (ask: GrantAsk, tools: ReadonlyMap<string, readonly McpTool[]>): Promise<string> =>
  sha256(JSON.stringify([ask.graph, ask.mode, ask.servers.map((server) => [server.name, server.digest]), shownCalls(ask.calls, tools)]));

/** A refusal of the local server, with its status: a 409 says that what the page showed has changed. */
export class FolderRefusal extends McpFailure {
  readonly status: number;

  constructor(status: number, message: string) {
    super(status === 403 ? 'permission_denied' : 'error', message);
    this.status = status;
  }
}

export const folderRequest = async (api: FolderApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> => {
  let response: Response;
  try {
    response = await (api.fetch ?? fetch)(`${api.origin}/api/mcp${path}`, {
      method,
      cache: 'no-store',
      headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new McpFailure('error', 'the loopscope open server does not answer (was it stopped?)');
  }
  const value = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new FolderRefusal(response.status, typeof value.error === 'string' ? value.error : `the local server answered ${response.status}`);
  const failure = value.failure as { outcome?: McpFailure['outcome']; message?: string } | undefined;
  if (failure) throw new McpFailure(failure.outcome ?? 'error', failure.message ?? 'the MCP server failed');
  return value;
};

const serverPath = (server: string) => `/${encodeURIComponent(server)}`;

/** Tells the local server the person allowed this server, as the definition of this digest: refused (409) when `.mcp.json` now says otherwise. */
export const allowServer = (api: FolderApi, server: string, digest: string) => folderRequest(api, 'POST', `${serverPath(server)}/allow`, { digest });

/** The tools of an allowed server (it starts on first use). */
export const listServerTools = async (api: FolderApi, server: string): Promise<McpTool[]> =>
  (await folderRequest(api, 'POST', `${serverPath(server)}/tools`)).tools as McpTool[];

/**
 * The connector of a run whose servers were allowed and whose tools were listed before it started:
 * each server's tools are the ones shown, so a call's access is what the person granted it for;
 * `refused` says why a server is not reached (denied, not defined, not listed), and its calls fail so.
 */
export const folderConnector = (api: FolderApi, tools: ReadonlyMap<string, readonly McpTool[]>, refused: (server: string) => McpFailure): McpConnector => ({
  connect: async (server) => {
    const listed = tools.get(server);
    if (!listed) throw refused(server);
    return {
      tools: async () => [...listed],
      call: async (tool, args, timeoutMs) => (await folderRequest(api, 'POST', `${serverPath(server)}/call`, { tool, args, timeoutMs })).answer as McpAnswer,
    };
  },
});
