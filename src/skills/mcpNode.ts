/**
 * The command line's MCP connector (Node only: the page never imports it). Servers come from the
 * project's `.mcp.json`: a stdio server is started on first use, in the folder of `.mcp.json`, as
 * the leader of a process group of its own, and stopped with its group when the connector closes
 * (its stdin closed, then SIGTERM, then SIGKILL: ./mcpStdio.ts), so that what it started goes too;
 * a URL server is spoken to over Streamable HTTP. If the process ends without closing it (an
 * uncaught error, `process.exit`), the servers it started are killed on the way out all the same.
 */
import { resolve } from 'node:path';
import { expandVariables, isStdioServer, type McpConfig, type StdioServer } from '../graph/mcpServers.ts';
import { McpFailure, type McpConnector } from './mcp.ts';
import { cachingConnector, openConnection, openHttpConnection, type OpenedConnection } from './mcpClient.ts';
import { GroupStdioTransport } from './mcpStdio.ts';

export interface NodeConnectorOptions {
  /** The folder of `.mcp.json`: where stdio servers start, and what their relative paths mean. */
  dir: string;
  /** Where `${NAME}` is read from. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the servers came from, for messages (e.g. `./.mcp.json`). */
  source?: string;
  /** Told when a server starts, with its PID. */
  onStart?: (server: string, pid: number) => void;
}

export interface NodeConnector extends McpConnector {
  /** Stops every server it started (by PID) and closes every connection. */
  close(): Promise<void>;
  /** PIDs of the stdio servers running now. */
  pids(): number[];
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** How much of a server's last line on stderr is kept: its end, so that a line without end cannot fill the memory or a message. */
const LAST_WORDS_CHARS = 300;

/** At most the last LAST_WORDS_CHARS characters of a line, marked when cut. */
const endOf = (line: string) => (line.length > LAST_WORDS_CHARS ? `…${line.slice(-LAST_WORDS_CHARS)}` : line);

/** Keeps (the end of) the last non-empty line a stream wrote. */
const lastLineOf = (stream: NodeJS.ReadableStream | null) => {
  let last = '';
  let partial = '';
  stream?.setEncoding?.('utf8');
  stream?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split(/\r?\n/);
    // A line still being written keeps its end only (with one character more, to tell it was cut).
    partial = (lines.pop() ?? '').slice(-(LAST_WORDS_CHARS + 1));
    const said = lines.map((line) => line.replace(ANSI, '').trim()).filter(Boolean).at(-1);
    if (said) last = endOf(said);
  });
  return () => endOf(partial.replace(ANSI, '').trim()) || last;
};

const filled = (server: string, texts: readonly string[], env: Readonly<Record<string, string | undefined>>, source: string): string[] => {
  const results = texts.map((text) => expandVariables(text, env));
  const missing = [...new Set(results.flatMap((result) => result.missing))];
  if (missing.length > 0) throw new McpFailure('error', `the MCP server "${server}" of ${source} needs the environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not set`);
  return results.map((result) => result.text);
};

export const createNodeConnector = (config: McpConfig, options: NodeConnectorOptions): NodeConnector => {
  const env = options.env ?? process.env;
  const source = options.source ?? '.mcp.json';
  const running = new Map<number, GroupStdioTransport>();
  const killAll = () => {
    for (const transport of running.values()) transport.kill('SIGKILL');
  };

  const startStdio = async (name: string, server: StdioServer): Promise<OpenedConnection> => {
    const [command, ...args] = filled(name, [server.command, ...(server.args ?? [])], env, source);
    const variables = Object.entries(server.env ?? {});
    const values = filled(name, variables.map(([, value]) => value), env, source);
    const [cwd] = filled(name, [server.cwd ?? '.'], env, source);
    const transport = new GroupStdioTransport({
      command, args, cwd: resolve(options.dir, cwd),
      env: Object.fromEntries(variables.map(([key], index) => [key, values[index]])),
    });
    const lastLine = lastLineOf(transport.stderr);
    let pid: number | null = null;
    const forget = () => {
      if (pid !== null) running.delete(pid);
      if (running.size === 0) process.off('exit', killAll);
    };
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      pid = transport.pid;
      if (pid === null) return;
      if (running.size === 0) process.on('exit', killAll);
      running.set(pid, transport);
      options.onStart?.(name, pid);
    };
    let opened: OpenedConnection;
    try {
      opened = await openConnection(name, transport, lastLine);
    } catch (error) {
      forget();
      // A program that is not there: say which, not just ENOENT.
      if ((error as Error).message.includes('ENOENT')) throw new McpFailure('error', `the MCP server "${name}" could not be started: there is no program "${command}" (${source})`);
      throw error;
    }
    // A server that stopped (on its own or closed) is forgotten: its PID may be reused.
    void opened.closed.then(forget);
    return opened;
  };

  const connector = cachingConnector(async (name) => {
    const server = Object.hasOwn(config.mcpServers, name) ? config.mcpServers[name] : undefined;
    if (!server) {
      const known = Object.keys(config.mcpServers);
      throw new McpFailure('error', `there is no MCP server "${name}" in ${source} (it defines ${known.length > 0 ? known.join(', ') : 'none'})`);
    }
    if (isStdioServer(server)) return startStdio(name, server);
    const [url, ...headerValues] = filled(name, [server.url, ...Object.values(server.headers ?? {})], env, source);
    const headers = Object.fromEntries(Object.keys(server.headers ?? {}).map((key, index) => [key, headerValues[index]]));
    return openHttpConnection(name, url, { headers });
  });

  return {
    connect: connector.connect,
    close: async () => {
      await connector.close();
      // Anything still running (a transport that never finished starting) goes with its group too.
      killAll();
      running.clear();
      process.off('exit', killAll);
    },
    pids: () => [...running.keys()],
  };
};
