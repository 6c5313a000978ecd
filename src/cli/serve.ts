/**
 * `loopscope serve FILE…`: the files exported as LangGraph projects (export.ts) side by side in one
 * folder, served by the LangGraph dev server (`langgraphjs dev` of @langchain/langgraph-cli, which
 * Loopscope depends on) on 127.0.0.1. The projects import LangGraph from Loopscope's own
 * node_modules (linked into the folder), so nothing is installed and nothing is fetched. The server
 * is Loopscope's child process, stopped by its own PID.
 */
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GraphFile } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { exportLangGraph, graphIdOf } from './export.ts';
import { startLangGraphServer, type LangGraphServer } from './langgraphDev.ts';

export { freePort, HOST } from './langgraphDev.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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
  /** Where the projects go; a fresh temporary folder (removed on stop) when not given. */
  dir?: string;
  /** Lines the server writes (its log), for a caller that shows them. */
  onLog?: (line: string) => void;
  /** How long to wait for the server to answer, in ms. */
  startTimeoutMs?: number;
  /** Key names (`--key NAME`) the server may read from the environment; other apiKeyNames of the graphs are kept from it. */
  keys?: ReadonlySet<string>;
}

/**
 * The server's environment: this one, minus every variable a graph names as an apiKeyName that the
 * person did not allow with `--key` (as `loopscope run` sends none without it).
 */
export const serverEnvironment = (graphs: readonly GraphFile[], env: NodeJS.ProcessEnv, keys: ReadonlySet<string> = new Set()): NodeJS.ProcessEnv => {
  const declared = new Set(graphs.flatMap((graph) => contactedHosts(graph).flatMap((host) => host.keyNames)));
  return { ...Object.fromEntries(Object.entries(env).filter(([name]) => !declared.has(name) || keys.has(name))), LANGGRAPH_CLI_NO_ANALYTICS: '1' };
};

/** Writes one project per graph into `dir` and a langgraph.json serving them all. */
const writeProjects = async (graphs: readonly GraphFile[], dir: string): Promise<string[]> => {
  const ids: string[] = [];
  for (const graph of graphs) {
    const base = graphIdOf(graph);
    let id = base;
    for (let n = 2; ids.includes(id); n += 1) id = `${base}-${n}`;
    ids.push(id);
    await exportLangGraph(graph, join(dir, id));
  }
  const config = { node_version: '20', graphs: Object.fromEntries(ids.map((id) => [id, `./${id}/src/graph.ts:graph`])), dependencies: ['.'] };
  await writeFile(join(dir, 'langgraph.json'), `${JSON.stringify(config, null, 2)}\n`);
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'loopscope-serve', private: true, type: 'module' }, null, 2)}\n`);
  await rm(join(dir, 'node_modules'), { force: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return ids;
};

export const serveGraphs = async (graphs: readonly GraphFile[], options: ServeOptions = {}): Promise<Served> => {
  const ownDir = options.dir === undefined;
  const dir = ownDir ? await mkdtemp(join(tmpdir(), 'loopscope-serve-')) : resolve(options.dir as string);
  if (!ownDir) await mkdir(dir, { recursive: true });
  const graphIds = await writeProjects(graphs, dir);
  // The server's worker may still be writing its state (.langgraph_api) as it goes: removal retries.
  const removeDir = () => (ownDir ? rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }) : Promise.resolve());
  let server: LangGraphServer;
  try {
    server = await startLangGraphServer(dir, serverEnvironment(graphs, process.env, options.keys), options);
  } catch (error) {
    await removeDir();
    throw error;
  }
  const stop = async () => {
    await server.stop();
    await removeDir();
  };
  return { url: server.url, dir, graphIds, pid: server.pid, exited: server.exited, stop };
};
