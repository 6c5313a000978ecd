/**
 * The entry of the runtime copy bundled into a LangGraph export (cli/export.ts): the exported
 * project's `src/graph.ts` hands it the graph file, read as JSON data, and the environment. The
 * StateGraph is the one the app and the command line run, so a LangGraph server runs the graph
 * exactly as Loopscope does, and its checkpoints carry the same `_run` ledger and `_step` trace step.
 */
import { describeProblems } from '../graph/index.ts';
import { McpConfig } from '../graph/mcpServers.ts';
import { parseGraph, parseWith } from '../graph/parse.ts';
import { environmentKeys, KEYS_IN_ENV, KEYS_VARIABLE, readAllowances } from '../skills/environmentKeys.ts';
import { GRANT_VARIABLE, readGrant } from '../skills/grant.ts';
import { createNodeConnector, type NodeConnector } from '../skills/mcpNode.ts';
import { buildStateGraph, recursionLimitOf } from './compile.ts';

/** The project's MCP servers, as its `src/graph.ts` reads them: the `.mcp.json` carried into it, and its folder. */
export interface ExportedServers {
  mcpServers: unknown;
  dir: string;
}

/**
 * The MCP servers of the project, for the graph's mcp skills: stdio servers start on first use and
 * run as long as the server does (they are killed by PID when its process exits).
 */
const projectConnector = (servers: ExportedServers, env: Readonly<Record<string, string | undefined>>) => {
  const parsed = parseWith(McpConfig, servers.mcpServers);
  if (!parsed.ok) throw new Error(`.mcp.json is not a list of MCP servers:\n${describeProblems(parsed.problems)}`);
  const connector = createNodeConnector(parsed.value, { dir: servers.dir, env, source: 'the project\'s .mcp.json' });
  connectors.add(connector);
  return connector;
};

const connectors = new Set<NodeConnector>();

/** Stops every MCP server the exported graphs started (by PID), for a host that ends without exiting its process. */
export const stopMcpServers = async () => {
  const all = [...connectors];
  connectors.clear();
  await Promise.all(all.map((connector) => connector.close()));
};

/** What the person granted the project's real skill calls: `LOOPSCOPE_GRANT` in its .env, never graph.json (read-only when absent). */
const grantOf = (env: Readonly<Record<string, string | undefined>>) => {
  const read = readGrant(Object.hasOwn(env, GRANT_VARIABLE) ? env[GRANT_VARIABLE] : undefined, `${GRANT_VARIABLE} in the project's .env`);
  if ('refused' in read) throw new Error(read.refused);
  return read.granted;
};

/**
 * The compiled graph a LangGraph server serves; a file that is not a valid graph is refused with
 * the path that failed. An llm skill's key comes from the server's environment only where
 * `LOOPSCOPE_KEYS` (the project's .env) lets that variable go to that skill's origin, as `--key`
 * does on the command line: without it nothing is sent, whatever variables the server's shell holds.
 * A real call may do what `LOOPSCOPE_GRANT` grants, as `--grant` on the command line: graph.json's
 * permissions.mode only asks.
 */
export const exportedGraph = (file: unknown, env: Readonly<Record<string, string | undefined>> = {}, servers?: ExportedServers) => {
  const parsed = parseGraph(file);
  if (!parsed.ok) throw new Error(`graph.json is not a valid Loopscope graph:\n${describeProblems(parsed.problems)}`);
  const allowances = readAllowances(Object.hasOwn(env, KEYS_VARIABLE) ? env[KEYS_VARIABLE] : undefined);
  if ('refused' in allowances) throw new Error(`${KEYS_VARIABLE} in the project's .env: ${allowances.refused}`);
  const granted = grantOf(env);
  const mcp = servers ? projectConnector(servers, env) : undefined;
  const { compile } = buildStateGraph(parsed.value, { keys: environmentKeys(env, allowances.allowed, KEYS_IN_ENV), mcp, granted }, { describe: true, served: true });
  return compile().withConfig({ recursionLimit: recursionLimitOf(parsed.value) });
};
