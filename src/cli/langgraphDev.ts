/**
 * The LangGraph dev server (`langgraphjs dev` of @langchain/langgraph-cli, which Loopscope depends
 * on) started on a project folder, on 127.0.0.1, as this process's child stopped by its own PID.
 * Node's modules only: `loopscope serve` and the journeys' LangGraph fixtures both start it here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A package's folder, found where npm put it: beside Loopscope in a project that installed it, in its own node_modules in its repository. */
export const resolvePackage = (name: string) => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
/**
 * The LangGraph dev server's command line, as its package publishes it (its `langgraphjs` bin):
 * an optional dependency of Loopscope (it is big, and only `serve` uses it), so an install made
 * with `--omit=optional` (a CI that only tests) has none.
 */
export const langGraphCli = () => {
  let folder: string;
  try {
    folder = resolvePackage('@langchain/langgraph-cli');
  } catch {
    throw new Error('serve needs the LangGraph dev server, which this install left out (npm install --omit=optional): run `npm install @langchain/langgraph-cli@1.5.1`');
  }
  const { bin } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  if (typeof bin?.langgraphjs !== 'string') throw new Error(`@langchain/langgraph-cli in ${folder} has no langgraphjs command: install @langchain/langgraph-cli@1.5.1`);
  return join(folder, bin.langgraphjs);
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

/** A LangGraph dev server on a project folder, started by `startLangGraphServer`. */
export interface LangGraphServer {
  url: string;
  /** The server's PID. */
  pid: number;
  /** Resolves when the server process ends, with its exit code. */
  exited: Promise<number | null>;
  /** Stops the server by its PID. */
  stop: () => Promise<void>;
}

export interface StartOptions {
  port?: number;
  onLog?: (line: string) => void;
  /** How long to wait for the server to answer, in ms. */
  startTimeoutMs?: number;
  /** Stops start-up at any moment (Ctrl-C): the server, once spawned, is stopped by its PID, and the start rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Starts the LangGraph dev server (`langgraphjs dev`) on the project whose langgraph.json is in `dir`,
 * on 127.0.0.1 and a free port (or `options.port`), and waits until it answers. It is this
 * process's child, stopped by its own PID; it writes its state (.langgraph_api) into `dir`. A start
 * that fails or is aborted leaves no process behind.
 */
export const startLangGraphServer = async (dir: string, env: NodeJS.ProcessEnv, options: StartOptions = {}): Promise<LangGraphServer> => {
  const { signal } = options;
  const port = options.port ?? (await freePort());
  const url = `http://${HOST}:${port}`;
  signal?.throwIfAborted();
  const child = spawn(process.execPath, [langGraphCli(), 'dev', '--host', HOST, '--port', String(port), '--no-browser', '--no-reload', '--config', join(dir, 'langgraph.json')], {
    cwd: dir, env: { ...env, LANGGRAPH_CLI_NO_ANALYTICS: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
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
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  let ended = false;
  void exited.then(() => (ended = true));
  try {
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
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid as number, exited, stop };
};

