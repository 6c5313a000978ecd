/**
 * `loopscope validate | run | test`. Exit codes: 0 fine, 1 problems (validation errors, failed
 * scenarios), 2 not a graph (or a usage mistake). A bad file always gets a message naming the
 * path inside it, never a stack trace.
 */
import { readFile } from 'node:fs/promises';
import { contactedHosts, decodeText, describeProblems, hasErrors, parseGraph, validateGraph, type GraphFile } from '../graph/index.ts';
import { runGraph, runScenario, ScenarioError } from '../runtime/index.ts';
import { environmentKeys, KEY_NAME } from './keys.ts';
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
  loopscope test FILE…                                      run the files' scenarios (exit 1 if any fails)
  loopscope --help

  --key NAME   lets llm skills send the environment variable NAME as their API key (repeatable);
               without it no variable is sent, whatever the file names`;

class Refusal extends Error {}

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
  const flags: { json: boolean; seed?: number; scenario?: string; keys: Set<string> } = { json: false, keys: new Set() };
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
  const trace = await runGraph(graph, { seed: flags.seed, scenario: flags.scenario, keys: environmentKeys(process.env, flags.keys), compact: !flags.json });
  if (flags.json) io.out(JSON.stringify(trace, null, 2));
  else for (const line of formatTimeline(trace)) io.out(line);
  return 0;
};

const test = async (args: string[], io: Output): Promise<number> => {
  const { files, flags } = readFlags(args);
  if (files.length === 0) throw new Refusal('test takes at least one FILE');
  let passed = 0;
  let failed = 0;
  let unreadable = 0;
  const keys = environmentKeys(process.env, flags.keys);
  for (const file of files) {
    let graph: GraphFile;
    try {
      graph = await loadGraph(file);
    } catch (error) {
      // One bad file is reported and the others still run.
      io.err(error instanceof Refusal ? error.message : `${file}: ${error instanceof Error ? error.message : String(error)}`);
      unreadable += 1;
      continue;
    }
    announceHosts(graph, io);
    io.out(`${file} (${graph.name}): ${graph.scenarios.length} scenario(s)`);
    for (const scenario of graph.scenarios) {
      let result;
      try {
        result = await runScenario(graph, scenario, { keys, compact: true });
      } catch (error) {
        if (!(error instanceof ScenarioError)) throw error;
        failed += 1;
        io.out(`  ✗ ${scenario.name}\n      could not run: ${error.message}`);
        continue;
      }
      const { failures, trace } = result;
      if (failures.length === 0) {
        passed += 1;
        io.out(`  ✓ ${scenario.name} (${trace.stopReason}, ${trace.steps.length} steps)`);
      } else {
        failed += 1;
        io.out(`  ✗ ${scenario.name}`);
        for (const failure of failures) io.out(`      ${failure}`);
      }
    }
  }
  io.out(`${passed} passed, ${failed} failed`);
  if (unreadable > 0) return 2;
  return failed > 0 ? 1 : 0;
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
