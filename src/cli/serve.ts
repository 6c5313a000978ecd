/**
 * `loopscope serve FILE…`: the files exported as LangGraph projects (export.ts) side by side in one
 * folder, served by the LangGraph dev server (`langgraphjs dev` of @langchain/langgraph-cli, which
 * Loopscope depends on) on 127.0.0.1. The projects import LangGraph from Loopscope's own
 * node_modules (linked into the folder), so nothing is installed and nothing is fetched. The server
 * is Loopscope's child process, stopped by its own PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { type GraphFile } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { exportLangGraph, graphIdOf } from './export.ts';

// Found where npm put them: beside Loopscope in a project that installed it, in its own node_modules in its repository.
const resolvePackage = (name: string) => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
/** The node_modules folder that holds Loopscope's LangGraph: the projects served link to it. */
const MODULES = dirname(dirname(resolvePackage('@langchain/langgraph')));
/**
 * The LangGraph dev server's command line: an optional dependency of Loopscope (it is big, and only
 * `serve` uses it), so an install made with `--omit=optional` (a CI that only tests) has none.
 */
const langGraphCli = () => {
  try {
    return join(resolvePackage('@langchain/langgraph-cli'), 'dist/cli/cli.mjs');
  } catch {
    throw new Error('serve needs the LangGraph dev server, which this install left out (npm install --omit=optional): run `npm install @langchain/langgraph-cli@1.5.1`');
  }
};
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
  await symlink(MODULES, join(dir, 'node_modules'), 'dir');
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

export const serveGraphs = async (graphs: readonly GraphFile[], options: ServeOptions = {}): Promise<Served> => {
  const cli = langGraphCli();
  const ownDir = options.dir === undefined;
  const dir = ownDir ? await mkdtemp(join(tmpdir(), 'loopscope-serve-')) : resolve(options.dir as string);
  if (!ownDir) await mkdir(dir, { recursive: true });
  const graphIds = await writeProjects(graphs, dir);
  const port = options.port ?? (await freePort());
  const url = `http://${HOST}:${port}`;
  const child = spawn(process.execPath, [cli, 'dev', '--host', HOST, '--port', String(port), '--no-browser', '--no-reload', '--config', join(dir, 'langgraph.json')], {
    cwd: dir, env: serverEnvironment(graphs, process.env, options.keys), stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream?.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        log.push(line);
        if (log.length > 200) log.shift();
        options.onLog?.(line);
      }
    });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const stop = async () => {
    await stopProcess(child, exited);
    // The server's worker may still be writing its state (.langgraph_api) as it goes: removal retries.
    if (ownDir) await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  let ended = false;
  void exited.then(() => (ended = true));
  while (!(await answers(url))) {
    if (ended || Date.now() > deadline) {
      await stop();
      // eslint-disable-next-line no-control-regex
      const tail = log.slice(-15).join('\n').replace(/\u001b\[[0-9;]*m/g, '');
      throw new Error(`the LangGraph server did not start on ${url}${ended ? ' (it exited)' : ''}:\n${tail}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  return { url, dir, graphIds, pid: child.pid as number, exited, stop };
};
