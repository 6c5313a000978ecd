/**
 * `loopscope serve FILE…`: the files exported as LangGraph projects (export.ts) side by side in one
 * folder, served by the LangGraph dev server (`langgraphjs dev` of @langchain/langgraph-cli, which
 * Loopscope depends on) on 127.0.0.1. The projects import LangGraph from Loopscope's own
 * node_modules (linked into the folder), so nothing is installed and nothing is fetched. The server
 * is Loopscope's child process, stopped by its own PID.
 */
import { lstat, mkdtemp, mkdir, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type GraphFile, type PermissionMode } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { isStdioServer, type McpConfig } from '../graph/mcpServers.ts';
import { KEYS_VARIABLE, writeAllowances, type AllowedKeys } from '../skills/environmentKeys.ts';
import { DEFAULT_GRANT, GRANT_VARIABLE, HOSTS_VARIABLE } from '../skills/grant.ts';
import { graphIdOf } from '../graph/index.ts';
import { exportLangGraph } from './export.ts';
import { langGraphCli, resolvePackage, startLangGraphServer, type LangGraphServer } from './langgraphDev.ts';
import { localPagesOnlyConfig } from './localPages.ts';
import type { ProjectServers } from './mcp.ts';
import { jsonText } from './projectText.ts';
import { readRegular, realFolder, UnsafePath, writeInside } from './safeFs.ts';

export { freePort, HOST } from './langgraphDev.ts';

/** The node_modules folder that holds Loopscope's LangGraph: the projects served link to it. */
const MODULES = dirname(dirname(resolvePackage('@langchain/langgraph')));


export interface Served {
  url: string;
  dir: string;
  /** Graph ids the server knows, one per file, in the files' order. */
  graphIds: string[];
  /** The server's PID. */
  pid: number;
  /** Resolves when the server process ends, with its exit code. */
  exited: Promise<number | null>;
  /** Stops the server (by its PID) and removes the folder when serve made it. */
  stop: () => Promise<void>;
}

export interface ServeOptions {
  port?: number;
  /** Where the projects go (an empty or new folder, or one serve made: claimFolder); a fresh temporary folder (removed on stop) when not given. */
  dir?: string;
  /** Lines the server writes (its log), for a caller that shows them. */
  onLog?: (line: string) => void;
  /** How long to wait for the server to answer, in ms. */
  startTimeoutMs?: number;
  /** Stops start-up (Ctrl-C): what it made is undone, and serveGraphs rejects with ServeAborted. */
  signal?: AbortSignal;
  /** What `--key` allows: the server gets these variables, each held to its origins; other apiKeyNames of the graphs are kept from it. */
  keys?: AllowedKeys;
  /** What `--grant` and `--host` allow: the server gets them as LOOPSCOPE_GRANT and LOOPSCOPE_HOSTS (absent: read-only, no host). */
  allowed?: ServerAllowance;
  /** The project's MCP servers (its `.mcp.json`), for the graphs' mcp skills. */
  mcp?: ProjectServers;
}

/**
 * The servers as each served project carries them: a stdio server still starts in the folder of
 * the person's `.mcp.json` (its `./data` is theirs, not the temporary project's).
 */
export const anchoredServers = (servers: ProjectServers): McpConfig => ({
  ...servers.config,
  mcpServers: Object.fromEntries(Object.entries(servers.config.mcpServers).map(([name, server]) =>
    [name, isStdioServer(server) ? { ...server, cwd: resolve(dirname(servers.file), server.cwd ?? '.') } : server])),
});

/** What the person grants the served graphs' real calls, and the hosts they may contact (`--grant`, `--host`). */
export interface ServerAllowance {
  granted: PermissionMode;
  hosts: readonly string[];
}

/**
 * The server's environment: this one, minus every variable a graph names as an apiKeyName that the
 * person did not allow with `--key` (as `loopscope run` sends none without it), and with the
 * `--key`s as the served graphs' allowances (`LOOPSCOPE_KEYS`, whatever the shell held), so the
 * server sends each key only to the origins `--key` names. So too the grant and the hosts: the
 * server's are `--grant`'s and `--host`'s, whatever the shell held.
 */
export const serverEnvironment = (
  graphs: readonly GraphFile[], env: NodeJS.ProcessEnv, keys: AllowedKeys = new Map(), allowed: ServerAllowance = { granted: DEFAULT_GRANT, hosts: [] },
): NodeJS.ProcessEnv => {
  const declared = new Set(graphs.flatMap((graph) => contactedHosts(graph).flatMap((host) => host.keyNames)));
  return {
    ...Object.fromEntries(Object.entries(env).filter(([name]) => !declared.has(name) || keys.has(name))),
    [KEYS_VARIABLE]: writeAllowances(keys),
    [GRANT_VARIABLE]: allowed.granted,
    [HOSTS_VARIABLE]: allowed.hosts.join(','),
    LANGGRAPH_CLI_NO_ANALYTICS: '1',
  };
};

/** Writes one project per graph into `dir` and a langgraph.json serving them all. */
const writeProjects = async (graphs: readonly GraphFile[], dir: string, servers: McpConfig | undefined): Promise<string[]> => {
  const ids: string[] = [];
  for (const graph of graphs) {
    const base = graphIdOf(graph);
    let id = base;
    for (let n = 2; ids.includes(id); n += 1) id = `${base}-${n}`;
    ids.push(id);
    // A project's folder is a real folder of dir: one named like the graph that is a link is refused, not written through.
    await exportLangGraph(graph, await realFolder(dir, [id], id, true), servers).catch((error: unknown) => {
      throw error instanceof UnsafePath ? new UnsafePath(`${id}/${error.message}`) : error;
    });
  }
  const config = { node_version: '20', graphs: Object.fromEntries(ids.map((id) => [id, `./${id}/src/graph.ts:graph`])), dependencies: ['.'], ...localPagesOnlyConfig(`./${ids[0]}`) };
  await writeInside(dir, 'langgraph.json', jsonText(config));
  await writeInside(dir, 'package.json', jsonText({ name: 'loopscope-serve', private: true, type: 'module' }));
  // A link is removed itself (rm does not follow one), never what it leads to.
  await rm(join(dir, 'node_modules'), { force: true });
  await symlink(MODULES, join(dir, 'node_modules'), 'dir');
  return ids;
};

/** The file that marks a folder as one `serve --dir` made: it may write there again. */
export const SERVE_MARKER = '.loopscope-serve';

/** A refusal of the options given, before anything is changed (the command line exits 2). */
export class ServeRefused extends Error {}

/**
 * What a marker says of the folder serve wrote it in: the folder's device and inode. A folder that
 * was copied, cloned or unpacked — someone else's, with a marker in it — is another folder, and its
 * files (a project's own node_modules, a tsconfig.json, the server's .langgraph_api) would be loaded
 * by the server as they are: so a marker counts only in the very folder it was written in.
 */
const markerText = async (dir: string) => {
  const { dev, ino } = await lstat(dir, { bigint: true });
  return `This folder holds graphs served by \`loopscope serve\`, which may replace its files.\nfolder: ${dev}:${ino}\n`;
};

/**
 * Makes `dir` the folder of served projects: an absent or empty folder is taken (and marked), a
 * folder serve marked is taken again unless it holds a link; any other (a marker copied with its
 * folder included) is refused as it is, since serving writes package.json, langgraph.json and
 * node_modules into it and the server loads what the folder holds.
 */
export const claimFolder = async (dir: string): Promise<void> => {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw new ServeRefused(`--dir ${dir}: cannot read the folder (${error.code ?? error.message})`);
  });
  if (entries && entries.length > 0 && !entries.includes(SERVE_MARKER))
    throw new ServeRefused(`--dir ${dir} is not empty and was not made by loopscope serve: serving writes package.json, langgraph.json and node_modules there, so it takes an empty or new folder only (nothing was changed)`);
  // Serve makes no link there but node_modules: any other (the marker itself, a project's folder,
  // the server's .langgraph_api) would take what is written in the folder out of it.
  for (const name of entries ?? [])
    if (name !== 'node_modules' && (await lstat(join(dir, name))).isSymbolicLink())
      throw new ServeRefused(`--dir ${dir}: ${name} is a link, and serve writes nothing through a link: remove it, or choose another folder (nothing was changed)`);
  await mkdir(dir, { recursive: true });
  const marker = await markerText(dir);
  try {
    if (entries && entries.length > 0 && new TextDecoder().decode(await readRegular(join(dir, SERVE_MARKER), SERVE_MARKER, 1_000)) !== marker)
      throw new ServeRefused(`--dir ${dir} holds a ${SERVE_MARKER} that serve did not write in this folder (was it copied, cloned or unpacked?): serving would load the files it holds, so it takes an empty or new folder, or one serve made here (nothing was changed)`);
    await writeInside(dir, SERVE_MARKER, marker);
  } catch (error) {
    if (error instanceof UnsafePath) throw new ServeRefused(`--dir ${dir}: ${error.message} (nothing was changed)`);
    throw error;
  }
};

/** Why serving stopped before the server answered: the caller's signal (Ctrl-C). */
export class ServeAborted extends Error {}

/**
 * Serves the graphs. Everything start-up makes is undone if `options.signal` aborts at any moment
 * of it (the server stopped by its PID, a temporary folder removed), as after it by `stop()`.
 */
export const serveGraphs = async (graphs: readonly GraphFile[], options: ServeOptions = {}): Promise<Served> => {
  const { signal } = options;
  // An install without the LangGraph dev server is told so before any folder is claimed or written.
  langGraphCli();
  const ownDir = options.dir === undefined;
  if (!ownDir) await claimFolder(resolve(options.dir as string));
  const dir = ownDir ? await mkdtemp(join(tmpdir(), 'loopscope-serve-')) : resolve(options.dir as string);
  let server: LangGraphServer | undefined;
  const stop = async () => {
    await server?.stop();
    // The server's worker may still be writing its state (.langgraph_api) as it goes: removal retries.
    if (ownDir) await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  try {
    signal?.throwIfAborted();
    const graphIds = await writeProjects(graphs, dir, options.mcp && anchoredServers(options.mcp));
    server = await startLangGraphServer(dir, serverEnvironment(graphs, process.env, options.keys, options.allowed), options);
    return { url: server.url, dir, graphIds, pid: server.pid, exited: server.exited, stop };
  } catch (error) {
    await stop();
    throw signal?.aborted ? new ServeAborted('serving stopped during start-up') : error;
  }
};
