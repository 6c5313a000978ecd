/**
 * The command line's MCP servers: the project's `.mcp.json` from the current folder (or the file
 * `--mcp FILE` names), read only when a graph has mcp skills, and a connector that starts a stdio
 * server on first use and stops it by its PID when the run ends, also on Ctrl-C, a kill, or a
 * crash of the run.
 */
import { resolve } from 'node:path';
import { decodeText } from '../graph/bytes.ts';
import { describeProblems } from '../graph/problems.ts';
import { visibleText } from '../graph/visible.ts';
import { McpConfig, commandLine, isStdioServer, serversNamed, variablesOf } from '../graph/mcpServers.ts';
import { parseWith } from '../graph/parse.ts';
import type { GraphFile } from '../graph/schema.ts';
import { MAX_GRAPH_BYTES, readRegular, UnsafePath } from './safeFs.ts';

export const MCP_FILE = '.mcp.json';

export interface ProjectServers {
  config: McpConfig;
  /** The file's absolute path. */
  file: string;
  /** How the file is named in messages: as the person gave it, or relative to the current folder. */
  source: string;
}

/** What `.mcp.json` holds, as messages say it. */
export const MCP_CONFIG_SHAPE = '{"mcpServers": {NAME: {"command", "args", "env"} or {"url"}}}';

/** Why `.mcp.json` could not be used: a sentence naming the file and the path inside it. */
export class McpConfigError extends Error {}

/** Reads and checks a `.mcp.json`; null when the default file is not there (a named one must be). */
export const readProjectServers = async (named: string | undefined, cwd = process.cwd()): Promise<ProjectServers | null> => {
  const file = resolve(cwd, named ?? MCP_FILE);
  const source = named ?? `./${MCP_FILE}`;
  let bytes: Uint8Array;
  try {
    // A named pipe there would hold the read (and `open`, which reads it on every request) forever.
    bytes = await readRegular(file, source, MAX_GRAPH_BYTES);
  } catch (error) {
    if (error instanceof UnsafePath) throw new McpConfigError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (named === undefined && code === 'ENOENT') return null;
    throw new McpConfigError(`${source}: cannot read the file (${code ?? (error as Error).message})`);
  }
  const text = decodeText(bytes);
  let value: unknown;
  try {
    value = text.ok ? JSON.parse(text.value) : undefined;
  } catch (error) {
    // The parser's message quotes the file's text: a folder's file must not drive the terminal it is printed on.
    throw new McpConfigError(visibleText(`${source} is not JSON: ${(error as Error).message}`));
  }
  if (!text.ok) throw new McpConfigError(`${source}: ${describeProblems(text.problems)}`);
  const parsed = parseWith(McpConfig, value);
  if (!parsed.ok) throw new McpConfigError(`${source} is not a list of MCP servers (${MCP_CONFIG_SHAPE}):\n${describeProblems(parsed.problems).replace(/^/gm, '  ')}`);
  return { config: parsed.value, file, source };
};

/** What a run will reach, in lines for stderr, before it starts anything. */
export const announceServers = (graph: GraphFile, servers: ProjectServers | null): string[] => {
  const lines: string[] = [];
  for (const [name, skills] of serversNamed(graph)) {
    const server = servers && Object.hasOwn(servers.config.mcpServers, name) ? servers.config.mcpServers[name] : undefined;
    if (!server) {
      lines.push(`note: no MCP server "${name}" in ${servers?.source ?? `./${MCP_FILE} (there is none here; --mcp FILE names another)`}: calls of ${skills.join(', ')} will fail`);
      continue;
    }
    const what = isStdioServer(server) ? `start the MCP server "${name}" (${commandLine(server.command, server.args ?? [])})` : `reach the MCP server "${name}" at ${server.url}`;
    lines.push(`note: this run may ${what} from ${servers?.source}, for ${skills.join(', ')}`);
  }
  return lines;
};


/** The environment variables the servers read (`${NAME}` in their definitions), by server. */
export const serverVariables = (config: McpConfig): { server: string; names: string[] }[] =>
  Object.entries(config.mcpServers).map(([server, definition]) => ({ server, names: variablesOf(definition) })).filter((entry) => entry.names.length > 0);
