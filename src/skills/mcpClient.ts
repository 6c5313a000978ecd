/**
 * Connections to MCP servers with the official SDK's client, over any transport: Streamable HTTP
 * here (the page and the command line alike), stdio in ./mcpStdio.ts (Node only). Tool arguments
 * and structured answers are checked with @cfworker/json-schema, which interprets schemas instead
 * of compiling them to code: the page's policy allows no eval.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { boundedResponse } from '../graph/bytes.ts';
import { SKILL_LIMITS } from '../graph/limits.ts';
import { McpFailure, type McpAnswer, type McpConnection, type McpConnector, type McpTool } from './mcp.ts';

const CLIENT_INFO = { name: 'loopscope', version: '1' };

/** How long starting a server and its handshake may take. */
export const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Bounds on listing a server's tools, which every use of a server starts with (a run, the
 * editor's picker): a hostile server could answer `nextCursor` forever, or list without end. One
 * deadline covers the whole listing, whatever the skill's own time limit (a listing serves every
 * skill of the server).
 */
export interface ListingLimits {
  pages: number;
  tools: number;
  deadlineMs: number;
}
export const LISTING_LIMITS: ListingLimits = { pages: 100, tools: 1_000, deadlineMs: 30_000 };

export interface OpenedConnection extends McpConnection {
  /** Closes the transport (a stdio transport stops its process). */
  close(): Promise<void>;
  /** Resolves when the connection ends, closed or lost. */
  readonly closed: Promise<void>;
}

/**
 * Opens a connection to `server` over `transport`. `why` says what is known of a failure (a
 * stdio server's last line on stderr), for every message that names the server.
 */
export const openConnection = async (server: string, transport: Transport, why: () => string = () => '', limits: ListingLimits = LISTING_LIMITS): Promise<OpenedConnection> => {
  const client = new Client(CLIENT_INFO, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  let ended = false;
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => {
      ended = true;
      resolve();
    };
  });
  const failure = (error: unknown, doing: string): McpFailure => {
    const said = why();
    const tail = said ? `; its last words on stderr: ${said}` : '';
    if (error instanceof McpFailure) return error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return new McpFailure('timeout', `the MCP server "${server}" did not answer ${doing} within the time limit`);
    if (ended || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) return new McpFailure('error', `the MCP server "${server}" stopped while ${doing}${tail}`);
    return new McpFailure('error', `the MCP server "${server}" failed ${doing}: ${(error as Error).message}${tail}`);
  };
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = why();
    throw new McpFailure('error', `the MCP server "${server}" could not be started or reached: ${(error as Error).message}${said ? `; its last words on stderr: ${said}` : ''}`);
  }
  let listed: Promise<McpTool[]> | undefined;
  /** Every page of the server's tools, within the bounds: a server may page forever, or list without end. */
  const listAll = async (): Promise<McpTool[]> => {
    const tools: McpTool[] = [];
    const deadline = Date.now() + limits.deadlineMs;
    let cursor: string | undefined;
    for (let pages = 0; ; pages += 1) {
      if (pages === limits.pages) throw new McpFailure('error', `the MCP server "${server}" lists its tools in more than ${limits.pages} pages: Loopscope reads at most ${limits.pages}`);
      const left = deadline - Date.now();
      let page;
      try {
        page = await client.listTools(cursor ? { cursor } : undefined, { timeout: Math.max(1, left) });
      } catch (error) {
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) throw new McpFailure('error', `the MCP server "${server}" did not finish listing its tools within ${limits.deadlineMs / 1000} s, the time Loopscope gives a listing (${pages} pages read)`);
        throw error;
      }
      tools.push(...(page.tools as McpTool[]));
      if (tools.length > limits.tools) throw new McpFailure('error', `the MCP server "${server}" lists more than ${limits.tools} tools: Loopscope reads at most ${limits.tools}`);
      cursor = page.nextCursor;
      if (!cursor) return tools;
    }
  };
  return {
    closed,
    tools: () =>
      (listed ??= listAll().catch((error: unknown) => {
        // Asked again on the next use: a server that could not list now may later.
        listed = undefined;
        throw failure(error, 'listing its tools');
      })),
    call: async (tool, args, timeoutMs): Promise<McpAnswer> => {
      if (ended) throw failure(new McpError(ErrorCode.ConnectionClosed, 'closed'), `calling ${tool}`);
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs })) as McpAnswer;
      } catch (error) {
        const failed = failure(error, `calling ${tool}`);
        throw failed.outcome === 'timeout' ? new McpFailure('timeout', `the MCP server "${server}" did not answer ${tool} within ${timeoutMs} ms`) : failed;
      }
    },
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
};

/**
 * A fetch whose every answer is read to `SKILL_LIMITS.maxAnswerBytes` at most, as an http skill's
 * is: past that its body fails and is cancelled. The SDK reads a URL server's answer (JSON, or an
 * event stream) whole into memory, and a server that never ends one filled the memory of `run` and
 * `open` in seconds, whatever the call's time limit (a stdio server's lines are bounded by the SDK).
 */
const boundedAnswers = (server: string, fetchImpl: typeof fetch): typeof fetch => async (input, init) => {
  let read = 0;
  return boundedResponse(await fetchImpl(input, init), (chunk) => (read += chunk.byteLength) > SKILL_LIMITS.maxAnswerBytes,
    () => new McpFailure('error', `the MCP server "${server}" answered more than ${SKILL_LIMITS.maxAnswerBytes / 1_000_000} MB: Loopscope reads at most that`));
};

/** A Streamable HTTP connection; requests go through `fetchImpl` (the page's allows only the hosts the person allowed). */
export const openHttpConnection = (server: string, url: string, options: { fetch?: typeof fetch; headers?: Record<string, string> } = {}): Promise<OpenedConnection> => {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return Promise.reject(new McpFailure('error', `the MCP server "${server}" has an address that is not a URL: ${JSON.stringify(url)}`));
  }
  const transport = new StreamableHTTPClientTransport(address, {
    fetch: boundedAnswers(server, options.fetch ?? ((...args) => fetch(...args))),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
    // A server's redirect must not take the session (and its headers) to another origin.
    redirectPolicy: 'same-origin',
  });
  return openConnection(server, transport);
};

/**
 * A connector that opens each server once, on first use, and keeps it for the run; a connection
 * that ended (its server died) is opened again on the next use. `close` ends them all.
 */
export const cachingConnector = (open: (server: string) => Promise<OpenedConnection>): McpConnector & { close(): Promise<void> } => {
  const open_ = new Map<string, Promise<OpenedConnection>>();
  return {
    connect: (server) => {
      let connection = open_.get(server);
      if (!connection) {
        connection = open(server);
        open_.set(server, connection);
        connection.then((opened) => opened.closed.then(() => open_.get(server) === connection && open_.delete(server)), () => open_.get(server) === connection && open_.delete(server));
      }
      return connection;
    },
    close: async () => {
      const all = [...open_.values()];
      open_.clear();
      await Promise.all(all.map((connection) => connection.then((opened) => opened.close(), () => undefined)));
    },
  };
};
