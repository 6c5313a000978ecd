/**
 * The project's `.mcp.json` (the convention of MCP clients): the person's own list of MCP servers,
 * `{"mcpServers": {NAME: {command, args, env} | {url, headers}}}`. A graph names a server; only
 * this file says what it is, so a graph someone sends cannot start a program or reach a server the
 * person did not set up. Keys other clients add (`disabled`, `description`, …) are left alone.
 * `${NAME}` (or `${NAME:-default}`) in args, env, url and headers is read from the environment.
 */
import { z } from './zod.ts';
import type { GraphFile } from './schema.ts';
import { toolOfSkill } from './skillTypes/index.ts';

const Text = z.string();
const TextMap = z.record(z.string(), z.string());

export const StdioServer = z.looseObject({
  type: z.optional(z.literal('stdio')),
  command: z.string().check(z.minLength(1)),
  args: z.optional(z.array(Text)),
  env: z.optional(TextMap),
  /** Where the program starts; relative to the folder of `.mcp.json`, which is the default. */
  cwd: z.optional(z.string()),
});

export const UrlServer = z.looseObject({
  type: z.optional(z.enum(['http', 'streamable-http'])),
  url: z.string().check(z.minLength(1)),
  headers: z.optional(TextMap),
});

export const McpServer = z.union([StdioServer, UrlServer]);
export const McpConfig = z.looseObject({ mcpServers: z.record(z.string(), McpServer) });

export type StdioServer = z.infer<typeof StdioServer>;
export type UrlServer = z.infer<typeof UrlServer>;
export type McpServer = z.infer<typeof McpServer>;
export type McpConfig = z.infer<typeof McpConfig>;

/** A stdio server's command line as a shell would read it: a word with spaces or quotes is quoted, so what the person reads is what runs. */
export const commandLine = (command: string, args: readonly string[]) =>
  [command, ...args].map((word) => (/^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');

export const isStdioServer = (server: McpServer): server is StdioServer => 'command' in server && typeof server.command === 'string';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The variables these texts read, in order, once each; `withDefault`: those with a `:-default` too. */
const variablesIn = (texts: readonly string[], withDefault: boolean): string[] =>
  [...new Set(texts.flatMap((text) => [...text.matchAll(VARIABLE)].filter((match) => withDefault || match[2] === undefined).map((match) => match[1])))];

/** The environment variables a server's definition needs (none with a default), in order. */
export const variablesOf = (server: McpServer): string[] =>
  variablesIn(isStdioServer(server)
    ? [server.command, ...(server.args ?? []), ...Object.values(server.env ?? {}), server.cwd ?? '']
    : [server.url, ...Object.values(server.headers ?? {})], false);

/** Every environment variable a URL server's headers send (one with a default too): they may be keys. */
export const headerVariables = (server: UrlServer): string[] => variablesIn(Object.values(server.headers ?? {}), true);

/** `${NAME}` filled from `env`; the names it needed and did not find. */
export const expandVariables = (text: string, env: Readonly<Record<string, string | undefined>>): { text: string; missing: string[] } => {
  const missing: string[] = [];
  const filled = text.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { text: filled, missing };
};

/** The servers a graph's mcp skills name (and its scenarios' overrides), each with the skills that use it. */
export const serversNamed = (graph: GraphFile): Map<string, string[]> => {
  const named = new Map<string, string[]>();
  for (const [name, skill] of Object.entries(graph.skills)) {
    const server = toolOfSkill(skill)?.server;
    if (server !== undefined) named.set(server, [...(named.get(server) ?? []), name]);
  }
  return named;
};
