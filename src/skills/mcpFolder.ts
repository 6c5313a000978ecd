/**
 * The page's connector under a local server that reaches a folder's MCP servers for it
 * (src/cli/mcpRoutes.ts, for `loopscope open`): each call goes to the local API with its token,
 * and a server is asked for only once the person allowed it (`allow`, once per server). No MCP
 * client runs in the page: the local server speaks MCP.
 */
import { McpFailure, type McpAnswer, type McpConnection, type McpConnector, type McpTool } from './mcp.ts';

export interface FolderApi {
  /** The local server's origin, e.g. `http://127.0.0.1:5290`. */
  origin: string;
  token: string;
  fetch?: typeof fetch;
}

const post = async (api: FolderApi, path: string, body?: unknown): Promise<Record<string, unknown>> => {
  const response = await (api.fetch ?? fetch)(`${api.origin}/api/mcp/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const value = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new McpFailure(response.status === 403 ? 'permission_denied' : 'error', typeof value.error === 'string' ? value.error : `the local server answered ${response.status}`);
  const failure = value.failure as { outcome?: McpFailure['outcome']; message?: string } | undefined;
  if (failure) throw new McpFailure(failure.outcome ?? 'error', failure.message ?? 'the MCP server failed');
  return value;
};

/**
 * `allow(name)` asks the person (in the page) whether the folder's server may be started; it is
 * asked once per server and connector, and a refusal makes every call of that server an `error`
 * that says so (the person's refusal is not the run's permission mode: nothing is there to approve).
 * `allow` may throw an McpFailure (a server the folder does not define): every call says it.
 */
export const folderConnector = (api: FolderApi, allow: (server: string) => Promise<boolean>): McpConnector => {
  const connections = new Map<string, Promise<McpConnection>>();
  const open = async (server: string): Promise<McpConnection> => {
    if (!(await allow(server))) throw new McpFailure('error', `the MCP server "${server}" was not started: it was denied in the page`);
    const name = encodeURIComponent(server);
    await post(api, `${name}/allow`);
    let tools: Promise<McpTool[]> | undefined;
    return {
      // Listed once; a failed listing (a server that could not start) is asked again next time.
      tools: () => (tools ??= post(api, `${name}/tools`).then((value) => value.tools as McpTool[], (error: unknown) => {
        tools = undefined;
        throw error;
      })),
      call: async (tool, args, timeoutMs) => (await post(api, `${name}/call`, { tool, args, timeoutMs })).answer as McpAnswer,
    };
  };
  return {
    connect: (server) => {
      let connection = connections.get(server);
      if (!connection) connections.set(server, (connection = open(server)));
      return connection;
    },
  };
};
