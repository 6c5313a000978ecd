/**
 * `loopscope validate | run | test`. Exit codes: 0 fine, 1 problems (validation errors, failed
 * scenarios), 2 not a graph (or a usage mistake). A bad file always gets a message naming the
 * path inside it, never a stack trace.
 */
import { readFile } from 'node:fs/promises';
import { contactedHosts, decodeText, describeProblems, hasErrors, parseGraph, validateGraph, type GraphFile } from '../graph/index.ts';
import { ScenarioError } from '../runtime/apply-scenario.ts';
import { environmentKeys, KEY_NAME } from './keys.ts';
import { report, REPORTERS, tally, type CaseReport, type FileReport, type ReporterName } from './reporters.ts';
import { printable } from './terminal.ts';
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
  loopscope run FILE [--json] [--seed N] [--scenario NAME]  run it headless and print the timeline (or the trace)
  loopscope test FILE… [--reporter text|junit|tap]         run the files' scenarios (exit 1 if any fails or a file has none)
  loopscope --help

  --key NAME   lets llm skills send the environment variable NAME as their API key (repeatable);
               without it no variable is sent, whatever the file names`;

class Refusal extends Error {}

/** The runtime brings LangGraph: loaded only by the commands that run a graph, so `validate` starts fast. */
const loadRuntime = () => import('../runtime/index.ts');

const loadGraph = async (file: string): Promise<GraphFile> => {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new Refusal(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const text = decodeText(bytes);
  const parsed = text.ok ? parseGraph(text.value) : text;
  if (!parsed.ok) throw new Refusal(`${file} is not a valid Loopscope graph:\n${describeProblems(parsed.problems).replace(/^/gm, '  ')}`);
  return parsed.value;
};

const validate = async (files: string[], io: Output): Promise<number> => {
  if (files.length !== 1) throw new Refusal('validate takes one FILE');
  const graph = await loadGraph(files[0]);
  const problems = validateGraph(graph);
  for (const problem of problems) {
    const where = problem.path ?? (problem.nodeId ? `node ${problem.nodeId}` : problem.edgeId ? `edge ${problem.edgeId}` : '');
    io.out(`${problem.severity.padEnd(7)} ${problem.code.padEnd(18)} ${problem.message}${where ? ` (${where})` : ''}`);
  }
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  io.out(errors > 0 ? `${files[0]}: ${errors} error(s), ${problems.length - errors} warning(s)` : `${files[0]}: valid${problems.length ? ` with ${problems.length} warning(s)` : ''}`);
  return hasErrors(problems) ? 1 : 0;
};

const readFlags = (args: string[]) => {
  const files: string[] = [];
  const flags: { json: boolean; seed?: number; scenario?: string; keys: Set<string>; reporter: ReporterName } = { json: false, keys: new Set(), reporter: 'text' };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--json') flags.json = true;
    else if (arg === '--seed') {
      const seed = Number(args[++index]);
      if (!Number.isInteger(seed)) throw new Refusal('--seed needs a whole number');
      flags.seed = seed;
    } else if (arg === '--scenario') {
      flags.scenario = args[++index];
      if (!flags.scenario) throw new Refusal('--scenario needs a NAME');
    } else if (arg === '--key') {
      const name = args[++index];
      if (!name || !KEY_NAME.test(name)) throw new Refusal('--key needs the NAME of an environment variable');
      flags.keys.add(name);
    } else if (arg === '--reporter' || arg.startsWith('--reporter=')) {
      const name = arg === '--reporter' ? args[++index] : arg.slice('--reporter='.length);
      if (!(REPORTERS as readonly string[]).includes(name ?? '')) throw new Refusal(`--reporter needs one of ${REPORTERS.join(', ')}${name ? `, got "${name}"` : ''}`);
      flags.reporter = name as ReporterName;
    } else if (arg.startsWith('--')) throw new Refusal(`unknown option ${arg}`);
    else files.push(arg);
  }
  return { files, flags };
};

/** Says on stderr which hosts a run may contact, before it does. */
const announceHosts = (graph: GraphFile, io: Output) => {
  for (const host of contactedHosts(graph))
    io.err(`note: this run may contact ${host.address} (${host.skills.join(', ')})${host.keyNames.length ? `, sending ${host.keyNames.join(', ')} if allowed with --key` : ''}`);
};

const run = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args);
  if (files.length !== 1) throw new Refusal('run takes one FILE');
  const graph = await loadGraph(files[0]);
  announceHosts(graph, io);
  const { runGraph } = await loadRuntime();
  const trace = await runGraph(graph, { seed: flags.seed, scenario: flags.scenario, keys: environmentKeys(process.env, flags.keys), compact: true });
  if (flags.json) io.out(JSON.stringify(trace, null, 2));
  else for (const line of formatTimeline(trace)) io.out(line);
  return 0;
};

// A scenario is an offline test (its real skills are refused, see applyScenario): it contacts no
// host and needs no key, so `test` announces none and sends none.
const testCase = async (graph: GraphFile, scenario: GraphFile['scenarios'][number]): Promise<CaseReport> => {
  const started = performance.now();
  try {
    const { runScenario } = await loadRuntime();
    const { failures, trace, divergence } = await runScenario(graph, scenario, { compact: true });
    return { name: scenario.name, failures, stopReason: trace.stopReason, steps: trace.steps.length, divergence, durationMs: performance.now() - started };
  } catch (error) {
    // One scenario that cannot run is that scenario's failure; the others still run.
    if (!(error instanceof ScenarioError)) throw error;
    return { name: scenario.name, failures: [], error: error.message, stopReason: null, steps: 0, divergence: null, durationMs: performance.now() - started };
  }
};

const testFile = async (file: string): Promise<FileReport> => {
  let graph: GraphFile;
  try {
    graph = await loadGraph(file);
  } catch (error) {
    // One bad file is reported and the others still run.
    const message = error instanceof Refusal ? error.message : `${file}: ${error instanceof Error ? error.message : String(error)}`;
    return { file, problem: { kind: 'unreadable', message }, cases: [] };
  }
  if (graph.scenarios.length === 0)
    return { file, graph: graph.name, problem: { kind: 'no_scenarios', message: `${file} (${graph.name}): no scenario to run; add "scenarios" to the graph, or save a run as a scenario in the app` }, cases: [] };
  const cases: CaseReport[] = [];
  for (const scenario of graph.scenarios) cases.push(await testCase(graph, scenario));
  return { file, graph: graph.name, cases };
};

/** Exit 2 when a file is not a graph, else 1 when a scenario failed or a file had none, else 0. */
const test = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args);
  if (files.length === 0) throw new Refusal('test takes at least one FILE');
  const reports: FileReport[] = [];
  for (const file of files) reports.push(await testFile(file));
  for (const line of report(flags.reporter, reports)) io.out(line);
  // Machine-readable output stays parseable: what went wrong with a file also goes to stderr, for people.
  if (flags.reporter !== 'text') for (const file of reports) if (file.problem) io.err(file.problem.message);
  if (reports.some((file) => file.problem?.kind === 'unreadable')) return 2;
  return tally(reports).failed > 0 || reports.some((file) => file.problem) ? 1 : 0;
};
export const main = async (argv: string[], terminal: Output = processOutput): Promise<number> => {
  const io: Output = { out: (line) => terminal.out(printable(line)), err: (line) => terminal.err(printable(line)) };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validate(rest, io);
      case 'run':
        return await run(rest, io);
      case 'test':
        return await test(rest, io);
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
    if (error instanceof Refusal || error instanceof ScenarioError) {
      io.err(error.message);
      return 2;
    }
    io.err(`loopscope failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
};
