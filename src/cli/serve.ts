/**
 * `loopscope serve FILE…`: the files exported as LangGraph projects (export.ts) side by side in one
 * folder, served by the LangGraph dev server (`langgraphjs dev` of @langchain/langgraph-cli, which
 * Loopscope depends on) on 127.0.0.1. The projects import LangGraph from Loopscope's own
 * node_modules (linked into the folder), so nothing is installed and nothing is fetched. The server
 * is Loopscope's child process, stopped by its own PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GraphFile } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { isStdioServer, type McpConfig } from '../graph/mcpServers.ts';
import { KEYS_VARIABLE, writeAllowances, type AllowedKeys } from '../skills/environmentKeys.ts';
import { exportLangGraph, graphIdOf } from './export.ts';
import { localPagesOnlyConfig } from './localPages.ts';
import type { ProjectServers } from './mcp.ts';
import { jsonText } from './projectText.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LANGGRAPH_CLI = join(ROOT, 'node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs');
export const HOST = '127.0.0.1';

/** A port nobody listens on now, chosen by the system. */
export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });

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

/**
 * The server's environment: this one, minus every variable a graph names as an apiKeyName that the
 * person did not allow with `--key` (as `loopscope run` sends none without it), and with the
 * `--key`s as the served graphs' allowances (`LOOPSCOPE_KEYS`, whatever the shell held), so the
 * server sends each key only to the origins `--key` names.
 */
export const serverEnvironment = (graphs: readonly GraphFile[], env: NodeJS.ProcessEnv, keys: AllowedKeys = new Map()): NodeJS.ProcessEnv => {
  const declared = new Set(graphs.flatMap((graph) => contactedHosts(graph).flatMap((host) => host.keyNames)));
  return {
    ...Object.fromEntries(Object.entries(env).filter(([name]) => !declared.has(name) || keys.has(name))),
    [KEYS_VARIABLE]: writeAllowances(keys),
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
    await exportLangGraph(graph, join(dir, id), servers);
  }
  const config = { node_version: '20', graphs: Object.fromEntries(ids.map((id) => [id, `./${id}/src/graph.ts:graph`])), dependencies: ['.'], ...localPagesOnlyConfig(`./${ids[0]}`) };
  await writeFile(join(dir, 'langgraph.json'), jsonText(config));
  await writeFile(join(dir, 'package.json'), jsonText({ name: 'loopscope-serve', private: true, type: 'module' }));
  await rm(join(dir, 'node_modules'), { force: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return ids;
};

const answers = async (url: string): Promise<boolean> => {
  try {
    return (await fetch(`${url}/ok`)).ok;
  } catch {
    return false;
  }
};

const stopProcess = (child: ChildProcess, exited: Promise<unknown>) => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  return exited;
};

/** The file that marks a folder as one `serve --dir` made: it may write there again. */
export const SERVE_MARKER = '.loopscope-serve';

/** A refusal of the options given, before anything is changed (the command line exits 2). */
export class ServeRefused extends Error {}

/**
 * Makes `dir` the folder of served projects: an absent or empty folder is taken (and marked), a
 * marked one is taken again; any other is refused as it is, since serving writes package.json,
 * langgraph.json and node_modules into it.
 */
export const claimFolder = async (dir: string): Promise<void> => {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw new ServeRefused(`--dir ${dir}: cannot read the folder (${error.code ?? error.message})`);
  });
  if (entries && entries.length > 0 && !entries.includes(SERVE_MARKER))
    throw new ServeRefused(`--dir ${dir} is not empty and was not made by loopscope serve: serving writes package.json, langgraph.json and node_modules there, so it takes an empty or new folder only (nothing was changed)`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, SERVE_MARKER), 'This folder holds graphs served by `loopscope serve`, which may replace its files.\n');
};

/** Why serving stopped before the server answered: the caller's signal (Ctrl-C). */
export class ServeAborted extends Error {}

/**
 * Serves the graphs. Everything start-up makes is undone if `options.signal` aborts at any moment
 * of it (the server stopped by its PID, a temporary folder removed), as after it by `stop()`.
 */
export const serveGraphs = async (graphs: readonly GraphFile[], options: ServeOptions = {}): Promise<Served> => {
  const { signal } = options;
  const ownDir = options.dir === undefined;
  if (!ownDir) await claimFolder(resolve(options.dir as string));
  const dir = ownDir ? await mkdtemp(join(tmpdir(), 'loopscope-serve-')) : resolve(options.dir as string);
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  const stop = async () => {
    if (child) await stopProcess(child, exited);
    // The server's worker may still be writing its state (.langgraph_api) as it goes: removal retries.
    if (ownDir) await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  const log: string[] = [];
  try {
    signal?.throwIfAborted();
    const graphIds = await writeProjects(graphs, dir, options.mcp && anchoredServers(options.mcp));
    const port = options.port ?? (await freePort());
    const url = `http://${HOST}:${port}`;
    signal?.throwIfAborted();
    const started = spawn(process.execPath, [LANGGRAPH_CLI, 'dev', '--host', HOST, '--port', String(port), '--no-browser', '--no-reload', '--config', join(dir, 'langgraph.json')], {
      cwd: dir, env: serverEnvironment(graphs, process.env, options.keys), stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    exited = new Promise<number | null>((done) => started.once('exit', (code) => done(code)));
    for (const stream of [started.stdout, started.stderr])
      stream?.setEncoding('utf8').on('data', (text: string) => {
        for (const line of text.split('\n').filter(Boolean)) {
          log.push(line);
          if (log.length > 200) log.shift();
          options.onLog?.(line);
        }
      });
    const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
    let ended = false;
    void exited.then(() => (ended = true));
    while (!(await answers(url))) {
      signal?.throwIfAborted();
      if (ended || Date.now() > deadline) {
        // eslint-disable-next-line no-control-regex
        const tail = log.slice(-15).join('\n').replace(/\u001b\[[0-9;]*m/g, '');
        throw new Error(`the LangGraph server did not start on ${url}${ended ? ' (it exited)' : ''}:\n${tail}`);
      }
      await new Promise((done) => setTimeout(done, 250));
    }
    signal?.throwIfAborted();
    return { url, dir, graphIds, pid: started.pid as number, exited, stop };
  } catch (error) {
    await stop();
    throw signal?.aborted ? new ServeAborted('serving stopped during start-up') : error;
  }
};
