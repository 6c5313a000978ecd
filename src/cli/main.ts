/**
 * `loopscope validate | run | test | export | serve | open`. Exit codes: 0 fine, 1 problems (validation errors, failed
 * scenarios), 2 not a graph (or a usage mistake). A bad file always gets a message naming the
 * path inside it, never a stack trace.
 */
import { dirname } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { decodeText } from '../graph/bytes.ts';
import { describeProblems, type GraphFile, type PermissionMode } from '../graph/index.ts';
import { PERMISSION_MODES } from '../graph/schema.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { parseGraph } from '../graph/parse.ts';
import { hasErrors, validateGraph } from '../graph/validate.ts';
import { ScenarioError } from '../runtime/apply-scenario.ts';
import { serversNamed } from '../graph/mcpServers.ts';
import type { McpConnector } from '../skills/mcp.ts';
import { announceServers, McpConfigError, readProjectServers, type ProjectServers } from './mcp.ts';
import { allowKey, environmentKeys, exactOrigin, readAllowance, type AllowedKeys } from '../skills/environmentKeys.ts';
import { allowedHosts, DEFAULT_GRANT, readGrant } from '../skills/grant.ts';
import { allowedFetch, ungranted } from './grants.ts';
import { keysToOtherOrigins } from './keys.ts';
import { report, REPORTERS, tally, type CaseReport, type FileReport, type ReporterName } from './reporters.ts';
import { MAX_GRAPH_BYTES, readRegular, UnsafePath } from './safeFs.ts';
import { visibleLines, visibleText } from '../graph/visible.ts';
import { formatTimeline } from './timeline.ts';

export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export const USAGE = `Usage:
  loopscope validate FILE                                   check a graph (exit 1 on errors, 2 if not a graph)
  loopscope run FILE [--json] [--seed N] [--scenario NAME] [--grant MODE] [--host ORIGIN] [--key NAME] [--mcp FILE]
                                                            run it headless and print the timeline (or the trace)
  loopscope test FILE|FOLDER… [--reporter text|junit|tap]  run the files' scenarios, a folder's graph files too (exit 1 if any fails or a file has none)
  loopscope test FILE|FOLDER… --watch                      run them again when a file changes, printing what changed (Ctrl-C stops it)
  loopscope export FILE --langgraph DIR [--mcp FILE]        write a LangGraph.js project that the LangGraph server runs
  loopscope serve FILE… [--port N] [--dir DIR] [--grant MODE] [--host ORIGIN] [--key NAME] [--mcp FILE]
                                                            serve the files on a LangGraph dev server at 127.0.0.1 (Ctrl-C stops it)
  loopscope open [PATH] [--port N] [--no-browser]          edit the graph files of a folder (PATH, a graph file's folder, or this one) in the app
  loopscope --help

  --grant MODE  what real (not mock) skills may do: read-only (the default), workspace (also write) or
               full (also exec); a graph's permissions.mode only asks, and one asking for more is refused
  --host ORIGIN  lets http and llm skills contact ORIGIN (e.g. https://api.example.com; repeatable); a
               graph that contacts a host not allowed is refused, and so is any request to one
  --key NAME[@ORIGIN]  lets llm skills send the environment variable NAME as their API key, to ORIGIN
               only when given (e.g. OPENAI_API_KEY@https://api.openai.com; repeatable); without it no
               variable is sent (serve: none reaches the server), whatever the file names; ORIGIN is
               allowed as by --host
  --mcp FILE   the MCP servers that mcp skills name (default: ./.mcp.json); run: a stdio server starts on
               first use and stops when the run ends; export and serve carry it into the project`;

class Refusal extends Error {}

/** The runtime brings LangGraph: loaded only by the commands that run a graph, so `validate` starts fast. */
const loadRuntime = () => import('../runtime/index.ts');

const loadGraph = async (file: string): Promise<GraphFile> => {
  let bytes: Uint8Array;
  try {
    bytes = await readRegular(file, file, MAX_GRAPH_BYTES);
  } catch (error) {
    if (error instanceof UnsafePath) throw new Refusal(visibleText(error.message));
    throw new Refusal(`${visibleText(file)}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const text = decodeText(bytes);
  const parsed = text.ok ? parseGraph(text.value) : text;
  if (!parsed.ok) throw new Refusal(`${visibleText(file)} is not a valid Loopscope graph:\n${describeProblems(parsed.problems).replace(/^/gm, '  ')}`);
  return parsed.value;
};

const validate = async (files: string[], io: Output): Promise<number> => {
  if (files.length !== 1) throw new Refusal('validate takes one FILE');
  const graph = await loadGraph(files[0]);
  const problems = validateGraph(graph);
  for (const problem of problems) {
    const where = problem.path ?? (problem.nodeId ? `node ${problem.nodeId}` : problem.edgeId ? `edge ${problem.edgeId}` : '');
    io.out(visibleText(`${problem.severity.padEnd(7)} ${problem.code.padEnd(18)} ${problem.message}${where ? ` (${where})` : ''}`));
  }
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  io.out(visibleText(errors > 0 ? `${files[0]}: ${errors} error(s), ${problems.length - errors} warning(s)` : `${files[0]}: valid${problems.length ? ` with ${problems.length} warning(s)` : ''}`));
  return hasErrors(problems) ? 1 : 0;
};

/** Every command's options, as node:util's parseArgs reads them. */
const OPTIONS = {
  json: { type: 'boolean' },
  'no-browser': { type: 'boolean' },
  watch: { type: 'boolean' },
  seed: { type: 'string' },
  scenario: { type: 'string' },
  key: { type: 'string', multiple: true },
  grant: { type: 'string' },
  host: { type: 'string', multiple: true },
  reporter: { type: 'string' },
  langgraph: { type: 'string' },
  port: { type: 'string' },
  dir: { type: 'string' },
  mcp: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;
type Option = `--${keyof typeof OPTIONS}`;

/** What a value-taking option needs, said when it is missing or wrong. */
const NEEDS = {
  seed: () => 'a whole number',
  scenario: () => 'a NAME',
  reporter: () => `one of ${REPORTERS.join(', ')}`,
  langgraph: () => 'a folder (DIR)',
  // `open` takes 0 too: a port the system picks (tests, several folders at once).
  port: (command: string) => `a port number (${command === 'open' ? 0 : 1}-65535)`,
  dir: () => 'a folder',
  mcp: () => "a file (the project's .mcp.json)",
  grant: () => `one of ${PERMISSION_MODES.join(', ')}`,
} satisfies Record<string, (command: string) => string>;

const isOption = (name: string): name is keyof typeof OPTIONS => Object.hasOwn(OPTIONS, name);

/**
 * The one reader of every command's options; a command names the ones it takes, and any other is
 * refused. parseArgs splits the words (`--reporter=tap`, `--` before a file named like an option);
 * it reads leniently so that each refusal names the option and what it needs, in our words.
 */
const readFlags = (args: string[], command: string, accepted: readonly Option[]) => {
  const { tokens } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const files: string[] = [];
  // Each option's values in order; undefined where one lacks its value (`--seed` last, or before another option).
  const given = new Map<keyof typeof OPTIONS, (string | undefined)[]>();
  for (const token of tokens) {
    if (token.kind === 'positional') files.push(token.value);
    if (token.kind !== 'option') continue;
    const name = token.name;
    if (!isOption(name) || token.rawName !== `--${name}`) throw new Refusal(`unknown option ${token.rawName}`);
    if (!accepted.includes(`--${name}`)) throw new Refusal(`${command} does not take --${name}`);
    if (OPTIONS[name].type === 'boolean' && token.value !== undefined) throw new Refusal(`--${name} takes no value`);
    // A following option is not a value: `--langgraph --json` lacks its folder.
    const value = token.value === undefined || (!token.inlineValue && token.value.startsWith('--')) ? undefined : token.value;
    given.set(name, [...(given.get(name) ?? []), value]);
  }
  /** The option's last value; refused when it has none. */
  const valueOf = (name: keyof typeof NEEDS) => {
    const values = given.get(name);
    if (!values) return undefined;
    const value = values.at(-1);
    if (value === undefined) throw new Refusal(`--${name} needs ${NEEDS[name](command)}`);
    return value;
  };
  const flags: { json: boolean; seed?: number; scenario?: string; keys: AllowedKeys; granted: PermissionMode; hosts: string[]; reporter: ReporterName; langgraph?: string; port?: number; dir?: string; mcp?: string; noBrowser: boolean; watch: boolean } = {
    json: given.has('json'),
    watch: given.has('watch'),
    granted: DEFAULT_GRANT,
    hosts: [],
    noBrowser: given.has('no-browser'),
    keys: new Map(),
    reporter: 'text',
    scenario: valueOf('scenario'),
    langgraph: valueOf('langgraph'),
    dir: valueOf('dir'),
    mcp: valueOf('mcp'),
  };
  const seed = valueOf('seed');
  if (seed !== undefined) {
    flags.seed = Number(seed);
    if (!Number.isInteger(flags.seed)) throw new Refusal(`--seed needs ${NEEDS.seed()}`);
  }
  for (const text of given.get('key') ?? []) {
    const key = readAllowance(text);
    if ('refused' in key) throw new Refusal(key.refused);
    flags.keys = allowKey(flags.keys, key.name, key.origin);
  }
  const grant = valueOf('grant');
  if (grant !== undefined) {
    const read = readGrant(grant, '--grant');
    if ('refused' in read) throw new Refusal(read.refused);
    flags.granted = read.granted;
  }
  for (const text of given.get('host') ?? []) {
    const origin = text === undefined ? null : exactOrigin(text);
    if (!origin) throw new Refusal(`--host needs an origin such as https://api.example.com${text ? `, got "${text}"` : ''}`);
    flags.hosts.push(origin);
  }
  const reporter = valueOf('reporter');
  if (reporter !== undefined) {
    if (!(REPORTERS as readonly string[]).includes(reporter)) throw new Refusal(`--reporter needs ${NEEDS.reporter()}, got "${reporter}"`);
    flags.reporter = reporter as ReporterName;
  }
  const port = valueOf('port');
  if (port !== undefined) {
    flags.port = Number(port);
    if (!Number.isInteger(flags.port) || flags.port < (command === 'open' ? 0 : 1) || flags.port > 65535) throw new Refusal(`--port needs ${NEEDS.port(command)}`);
  }
  return { files, flags };
};

/** Says on stderr which hosts a run may contact, before it does. */
const announceHosts = (graph: GraphFile, io: Output) => {
  for (const host of contactedHosts(graph))
    io.err(visibleText(`note: this run may contact ${host.address} (${host.skills.join(', ')})${host.keyNames.length ? `, sending ${host.keyNames.join(', ')} if allowed with --key` : ''}`));
};

/** The project's MCP servers, when the graph names any (none is read otherwise), announced on stderr when they will run. */
const projectServers = async (graphs: readonly GraphFile[], named: string | undefined, io: Output, announce = true): Promise<ProjectServers | null> => {
  if (graphs.every((graph) => serversNamed(graph).size === 0) && named === undefined) return null;
  const servers = await readProjectServers(named);
  if (announce) for (const graph of graphs) for (const line of announceServers(graph, servers)) io.err(visibleText(line));
  return servers;
};

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Runs `work` with the MCP servers it starts stopped when it ends: by its end, by Ctrl-C or a kill
 * (then the process exits once they are stopped), or by a crash (their PIDs are killed on exit).
 */
const withServers = async <T>(servers: ProjectServers, io: Output, work: (mcp: McpConnector) => Promise<T>): Promise<T> => {
  const { createNodeConnector } = await import('../skills/mcpNode.ts');
  const connector = createNodeConnector(servers.config, {
    dir: dirname(servers.file), source: servers.source,
    onStart: (name, pid) => io.err(`note: started the MCP server "${visibleText(name)}" (pid ${pid})`),
  });
  const handlers = Object.entries(SIGNALS).map(([signal, code]) => {
    const handler = () => {
      io.err(`${signal}: stopping the MCP servers this run started`);
      void connector.close().finally(() => process.exit(code));
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  try {
    return await work(connector);
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    await connector.close();
  }
};

const run = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args, 'run', ['--json', '--seed', '--scenario', '--key', '--grant', '--host', '--mcp']);
  if (files.length !== 1) throw new Refusal('run takes one FILE');
  const graph = await loadGraph(files[0]);
  const allowed = { granted: flags.granted, hosts: allowedHosts(flags.hosts, flags.keys) };
  // A scenario reaches nothing (its real skills are refused, see applyScenario): it needs no grant.
  const refused = flags.scenario === undefined ? ungranted(files[0], graph, allowed) : null;
  if (refused) throw new Refusal(refused);
  announceHosts(graph, io);
  // A scenario is an offline test: its MCP skills are mocks, and no server is read or started.
  const servers = flags.scenario === undefined ? await projectServers([graph], flags.mcp, io) : null;
  const { runGraph } = await loadRuntime();
  const options = { seed: flags.seed, scenario: flags.scenario, keys: environmentKeys(process.env, flags.keys), granted: flags.granted, fetch: allowedFetch(allowed), compact: true };
  const trace = servers ? await withServers(servers, io, (mcp) => runGraph(graph, { ...options, mcp })) : await runGraph(graph, options);
  if (flags.json) io.out(JSON.stringify(trace, null, 2));
  else for (const line of formatTimeline(trace)) io.out(line);
  return 0;
};

// A scenario is an offline test (its real skills are refused, see applyScenario): it contacts no
// host and needs no key, so `test` announces none and sends none.
const testCase = async (graph: GraphFile, scenario: GraphFile['scenarios'][number]): Promise<CaseReport> => {
  const started = performance.now();
  try {
    const { runScenario, stepsRan } = await loadRuntime();
    const { failures, trace, divergence, cause } = await runScenario(graph, scenario, { compact: true });
    return { name: scenario.name, failures, stopReason: trace.stopReason, steps: stepsRan(trace.steps), divergence, cause, durationMs: performance.now() - started };
  } catch (error) {
    // One scenario that cannot run is that scenario's failure; the others still run.
    if (!(error instanceof ScenarioError)) throw error;
    return { name: scenario.name, failures: [], error: error.message, stopReason: null, steps: 0, divergence: null, cause: null, durationMs: performance.now() - started };
  }
};

const testFile = async (file: string): Promise<FileReport> => {
  let graph: GraphFile;
  try {
    graph = await loadGraph(file);
  } catch (error) {
    // One bad file is reported and the others still run.
    const message = error instanceof Refusal ? error.message : visibleText(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    return { file, problem: { kind: 'unreadable', message }, cases: [] };
  }
  if (graph.scenarios.length === 0)
    return { file, graph: graph.name, problem: { kind: 'no_scenarios', message: `${visibleText(file)} (${visibleText(graph.name)}): no scenario to run; add "scenarios" to the graph, or save a run as a scenario in the app` }, cases: [] };
  const cases: CaseReport[] = [];
  for (const scenario of graph.scenarios) cases.push(await testCase(graph, scenario));
  return { file, graph: graph.name, cases };
};

/** Exit 2 when a file is not a graph, else 1 when a scenario failed or a file had none, else 0. */
/**
 * The files a command names: a folder stands for its graph files, found as `loopscope open` lists
 * them (subfolders included, node_modules and dot-folders left out), in path order.
 */
const graphFilesOf = async (paths: string[]): Promise<string[]> => {
  const { stat } = await import('node:fs/promises');
  const files: string[] = [];
  for (const path of paths) {
    const isFolder = await stat(path).then((stats) => stats.isDirectory(), () => false);
    if (!isFolder) {
      files.push(path);
      continue;
    }
    const { join } = await import('node:path');
    const { openFolder } = await import('./folder.ts');
    const found = await (await openFolder(path)).list();
    if (found.length === 0) throw new Refusal(`${path}: no graph file in the folder (a .json file whose "format" is "loopscope/graph")`);
    files.push(...found.map((listing) => join(path, ...listing.path.split('/'))));
  }
  return files;
};

/** What stops a command that runs until stopped (open, test --watch): Ctrl-C, a kill, a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const untilStopped = () =>
  new Promise<void>((done) => {
    for (const signal of STOP_SIGNALS) process.once(signal, () => done());
  });
const stopListening = () => {
  for (const signal of STOP_SIGNALS) process.removeAllListeners(signal);
};

const test = async (args: string[], io: Output): Promise<number> => {
  const { files: named, flags } = readFlags(args, 'test', ['--reporter', '--watch']);
  if (named.length === 0) throw new Refusal('test takes at least one FILE or FOLDER');
  if (flags.watch && flags.reporter !== 'text') throw new Refusal('--watch prints what changed as text: it takes no --reporter');
  const files = await graphFilesOf(named);
  if (flags.watch) {
    const { watchTests } = await import('./testWatch.ts');
    try {
      return await watchTests({ named, files, testFile, io, stopped: untilStopped() });
    } finally {
      stopListening();
    }
  }
  const reports: FileReport[] = [];
  for (const file of files) reports.push(await testFile(file));
  for (const line of report(flags.reporter, reports)) io.out(line);
  // Machine-readable output stays parseable: what went wrong with a file also goes to stderr, for people.
  if (flags.reporter !== 'text') for (const file of reports) if (file.problem) io.err(file.problem.message);
  if (reports.some((file) => file.problem?.kind === 'unreadable')) return 2;
  return tally(reports).failed > 0 || reports.some((file) => file.problem) ? 1 : 0;
};

const exportProject = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args, 'export', ['--langgraph', '--mcp']);
  if (!flags.langgraph) throw new Refusal('export needs --langgraph DIR');
  if (files.length !== 1) throw new Refusal('export takes one FILE');
  const graph = await loadGraph(files[0]);
  const { cannotExport, exportLangGraph } = await import('./export.ts');
  const refused = cannotExport(graph);
  if (refused) throw new Refusal(visibleText(`${files[0]} cannot be exported: ${refused}`));
  const servers = await projectServers([graph], flags.mcp, io, false);
  const project = await exportLangGraph(graph, flags.langgraph, servers?.config);
  io.out(visibleText(`${files[0]} → ${project.dir} (LangGraph graph "${project.graphId}"): ${project.files.join(', ')}`));
  io.out(`  cd ${project.dir} && npm install && npx langgraphjs dev --host 127.0.0.1 --no-browser`);
  return 0;
};

const serve = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args, 'serve', ['--port', '--dir', '--grant', '--host', '--key', '--mcp']);
  if (files.length === 0) throw new Refusal('serve takes at least one FILE');
  const { cannotExport } = await import('./export.ts');
  const graphs: GraphFile[] = [];
  for (const file of files) {
    const graph = await loadGraph(file);
    const refused = cannotExport(graph);
    if (refused) throw new Refusal(visibleText(`${file} cannot be served: ${refused}`));
    const notAllowed = ungranted(file, graph, { granted: flags.granted, hosts: allowedHosts(flags.hosts, flags.keys) }, 'served');
    if (notAllowed) throw new Refusal(notAllowed);
    announceHosts(graph, io);
    const misdirected = keysToOtherOrigins(graph, flags.keys);
    if (misdirected) throw new Refusal(visibleText(`${file} cannot be served with these keys: ${misdirected}`));
    graphs.push(graph);
  }
  const servers = await projectServers(graphs, flags.mcp, io);
  const { serveGraphs, ServeAborted, ServeRefused } = await import('./serve.ts');
  // Listened for from the first moment: a Ctrl-C during start-up stops the server it started and removes its folder too.
  const interrupted = new AbortController();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const onSignal = () => interrupted.abort();
  for (const signal of signals) process.on(signal, onSignal);
  try {
    io.err('starting the LangGraph dev server…');
    let served;
    try {
      const allowed = { granted: flags.granted, hosts: flags.hosts };
      served = await serveGraphs(graphs, { port: flags.port, dir: flags.dir, keys: flags.keys, allowed, signal: interrupted.signal, mcp: servers ?? undefined });
    } catch (error) {
      if (error instanceof ServeRefused) throw new Refusal(error.message);
      if (!(error instanceof ServeAborted)) throw error;
      io.err('stopped during start-up: the LangGraph server was stopped and its folder removed');
      return 0;
    }
    io.out(`LangGraph server: ${served.url}`);
    served.graphIds.forEach((id, index) => io.out(visibleText(`  graph ${id}  (${files[index]})`)));
    io.out(`In Loopscope: Connect to a LangGraph server → ${served.url}   ·   Ctrl-C stops the server`);
    const stopped = await new Promise<'signal' | number | null>((done) => {
      interrupted.signal.addEventListener('abort', () => done('signal'), { once: true });
      if (interrupted.signal.aborted) done('signal');
      void served.exited.then(done);
    });
    await served.stop();
    if (stopped === 'signal') {
      io.err('the LangGraph server stopped');
      return 0;
    }
    io.err(`the LangGraph server exited on its own (code ${stopped})`);
    return 1;
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
  }
};

/**
 * The folder's MCP servers for the page (`/api/mcp`, src/cli/mcpRoutes.ts): its `.mcp.json` is
 * read again on each use, so one written or changed while open runs is seen; nothing starts until
 * the person allows a server in the page. A file that cannot be read is said, here and there.
 */
const folderMcpRoutes = async (folderPath: string, io: Output) => {
  // Named by its path: the person may have started open from another folder.
  const read = async () => {
    const servers = await readProjectServers(undefined, folderPath);
    return servers && { ...servers, source: servers.file };
  };
  try {
    const servers = await read();
    const names = Object.keys(servers?.config.mcpServers ?? {});
    if (servers) io.err(visibleText(`note: the page may start the MCP servers of ${servers.source} (${names.join(', ') || 'none'}), each once you allow it there; they stop with loopscope open`));
  } catch (error) {
    if (!(error instanceof McpConfigError)) throw error;
    io.err(`note: ${error.message}`);
    io.err('note: MCP skills cannot reach the folder\'s servers until it is fixed (it is read again on each use)');
  }
  const { mcpRoutes, openMcpRoutes } = await import('./mcpRoutes.ts');
  return openMcpRoutes(mcpRoutes(read, { dir: folderPath, onStart: (name, pid) => io.err(`note: started the MCP server "${visibleText(name)}" (pid ${pid}), allowed in the page`) }));
};

/** `open PATH`: the folder, or a graph file's folder (that file opens first); the current folder when none is given. */
const openFolderOf = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args, 'open', ['--port', '--no-browser']);
  if (files.length > 1) throw new Refusal('open takes one PATH (a folder or a graph file)');
  const given = files[0] ?? '.';
  const { stat } = await import('node:fs/promises');
  const { basename, dirname, resolve } = await import('node:path');
  let first: string | undefined;
  let folderPath = resolve(given);
  try {
    if ((await stat(folderPath)).isFile()) {
      first = basename(folderPath);
      folderPath = dirname(folderPath);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Refusal(code === 'ENOENT' ? `${given}: no such folder or file` : `${given}: cannot be read (${code ?? String(error)})`);
  }
  const { FolderError, openFolder } = await import('./folder.ts');
  const { hasDesktop, openBrowser, startOpen } = await import('./open.ts');
  // The folder's LangGraph agents' source, read as text for the step that says why a branch was taken.
  const routes = [...(await folderMcpRoutes(folderPath, io)), ...(await import('./langgraphSource.ts')).langGraphSourceRoutes];
  let opened;
  try {
    const folder = await openFolder(folderPath);
    opened = await startOpen({ folder, port: flags.port, routes, onNote: (line) => io.err(line) });
  } catch (error) {
    for (const route of routes) await route.stop?.();
    if (error instanceof FolderError) throw new Refusal(error.message);
    throw error;
  }
  const url = first ? `${opened.url}&file=${encodeURIComponent(first)}` : opened.url;
  io.out(`Loopscope is editing the graphs of ${folderPath} at ${url}   ·   Ctrl-C stops it`);
  if (!flags.noBrowser && hasDesktop()) openBrowser(url);
  // A closed terminal (SIGHUP) stops it too, and with it the MCP servers it started.
  await untilStopped();
  stopListening();
  await opened.stop();
  return 0;
};

export const main = async (argv: string[], terminal: Output = processOutput): Promise<number> => {
  // No escape reaches the terminal. A newline does, as a text of several lines (the usage, a JSON
  // trace, a list of problems) needs its own; so each name from a file is made visible where its line
  // is built (visibleText), and cannot start a line of its own.
  const io: Output = { out: (line) => terminal.out(visibleLines(line)), err: (line) => terminal.err(visibleLines(line)) };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validate(rest, io);
      case 'run':
        return await run(rest, io);
      case 'test':
        return await test(rest, io);
      case 'export':
        return await exportProject(rest, io);
      case 'serve':
        return await serve(rest, io);
      case 'open':
        return await openFolderOf(rest, io);
      case '--help':
      case '-h':
      case 'help':
        io.out(USAGE);
        return 0;
      default:
        io.err(command ? `unknown command "${command}"` : 'no command given');
        io.err(USAGE);
        return 2;
    }
  } catch (error) {
    // A path refused for what it is (a link, a named pipe): a refusal of the folder given, not a failure.
    if (error instanceof Refusal || error instanceof ScenarioError || error instanceof McpConfigError || error instanceof UnsafePath) {
      io.err(error.message);
      return 2;
    }
    io.err(`loopscope failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
};
