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
 * `allow(name)` asks the person (in the page) whether the folder's server may be started; its
 * answer is asked once per server and page, and a refusal is every call's `permission_denied`.
 */
export const folderConnector = (api: FolderApi, allow: (server: string) => Promise<boolean>): McpConnector => {
  const asked = new Map<string, Promise<boolean>>();
  return {
    connect: async (server) => {
      let answer = asked.get(server);
      if (!answer) {
        answer = allow(server).then(async (yes) => (yes ? (await post(api, `${encodeURIComponent(server)}/allow`), true) : false));
        asked.set(server, answer);
      }
      if (!(await answer)) throw new McpFailure('permission_denied', `the MCP server "${server}" was not allowed to start`);
      const name = encodeURIComponent(server);
      let tools: Promise<McpTool[]> | undefined;
      const connection: McpConnection = {
        tools: () => (tools ??= post(api, `${name}/tools`).then((value) => value.tools as McpTool[])),
        call: async (tool, args, timeoutMs) => (await post(api, `${name}/call`, { tool, args, timeoutMs })).answer as McpAnswer,
      };
      return connection;
    },
  };
};
