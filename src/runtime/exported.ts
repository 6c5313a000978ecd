/**
 * The entry of the runtime copy bundled into a LangGraph export (cli/export.ts): the exported
 * project's `src/graph.ts` hands it the graph file, read as JSON data, and the environment. The
 * StateGraph is the one the app and the command line run, so a LangGraph server runs the graph
 * exactly as Loopscope does, and its checkpoints carry the same `_run` ledger and `_step` trace step.
 */
import '../graph/zodProvided.ts';
import { describeProblems } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { environmentKeys, KEYS_IN_ENV, KEYS_VARIABLE, readAllowances } from '../skills/environmentKeys.ts';
import { buildStateGraph, recursionLimitOf } from './compile.ts';

/**
 * The compiled graph a LangGraph server serves; a file that is not a valid graph is refused with
 * the path that failed. An llm skill's key comes from the server's environment only where
 * `LOOPSCOPE_KEYS` (the project's .env) lets that variable go to that skill's origin, as `--key`
 * does on the command line: without it nothing is sent, whatever variables the server's shell holds.
 */
export const exportedGraph = (file: unknown, env: Readonly<Record<string, string | undefined>> = {}) => {
  const parsed = parseGraph(file);
  if (!parsed.ok) throw new Error(`graph.json is not a valid Loopscope graph:\n${describeProblems(parsed.problems)}`);
  const allowances = readAllowances(Object.hasOwn(env, KEYS_VARIABLE) ? env[KEYS_VARIABLE] : undefined);
  if ('refused' in allowances) throw new Error(`${KEYS_VARIABLE} in the project's .env: ${allowances.refused}`);
  const { compile } = buildStateGraph(parsed.value, { keys: environmentKeys(env, allowances.allowed, KEYS_IN_ENV) }, { describe: true, served: true });
  return compile().withConfig({ recursionLimit: recursionLimitOf(parsed.value) });
};
