/**
 * The entry of the runtime copy bundled into a LangGraph export (cli/export.ts): the exported
 * project's `src/graph.ts` hands it the graph file, read as JSON data, and the environment. The
 * StateGraph is the one the app and the command line run, so a LangGraph server runs the graph
 * exactly as Loopscope does, and its checkpoints carry the same `_run` ledger and `_step` trace step.
 */
import { describeProblems } from '../graph/index.ts';
import { McpConfig } from '../graph/mcpServers.ts';
import { parseGraph, parseWith } from '../graph/parse.ts';
import { environmentKeys, KEYS_IN_ENV, KEYS_VARIABLE, readAllowances, type AllowedKeys } from '../skills/environmentKeys.ts';
import { allowedHosts, GRANT_VARIABLE, HOSTS_VARIABLE, readGrant, readOrigins } from '../skills/grant.ts';
import { fetchOnlyTo } from '../skills/net.ts';
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

type Env = Readonly<Record<string, string | undefined>>;

const setting = (env: Env, name: string) => (Object.hasOwn(env, name) ? env[name] : undefined);

/** What the person granted the project's real skill calls: `LOOPSCOPE_GRANT` in its .env, never graph.json (read-only when absent). */
const grantOf = (env: Env) => {
  const read = readGrant(setting(env, GRANT_VARIABLE), `${GRANT_VARIABLE} in the project's .env`);
  if ('refused' in read) throw new Error(read.refused);
  return read.granted;
};

/** The project's fetch: requests go only to the origins of `LOOPSCOPE_HOSTS` and those its keys are allowed to go to. */
const fetchOf = (env: Env, keys: AllowedKeys): typeof fetch => {
  const read = readOrigins(setting(env, HOSTS_VARIABLE), `${HOSTS_VARIABLE} in the project's .env`);
  if ('refused' in read) throw new Error(read.refused);
  return fetchOnlyTo(allowedHosts(read.origins, keys), undefined, (origin) => `${HOSTS_VARIABLE}=${origin} in the project's .env, or loopscope serve --host ${origin}, allows it`);
};

/**
 * The compiled graph a LangGraph server serves; a file that is not a valid graph is refused with
 * the path that failed. An llm skill's key comes from the server's environment only where
 * `LOOPSCOPE_KEYS` (the project's .env) lets that variable go to that skill's origin, as `--key`
 * does on the command line: without it nothing is sent, whatever variables the server's shell holds.
 * A real call may do what `LOOPSCOPE_GRANT` grants, and reach the hosts `LOOPSCOPE_HOSTS` names, as
 * `--grant` and `--host` on the command line: graph.json's permissions.mode only asks.
 */
export const exportedGraph = (file: unknown, env: Env = {}, servers?: ExportedServers) => {
  const parsed = parseGraph(file);
  if (!parsed.ok) throw new Error(`graph.json is not a valid Loopscope graph:\n${describeProblems(parsed.problems)}`);
  const allowances = readAllowances(setting(env, KEYS_VARIABLE));
  if ('refused' in allowances) throw new Error(`${KEYS_VARIABLE} in the project's .env: ${allowances.refused}`);
  const granted = grantOf(env);
  const mcp = servers ? projectConnector(servers, env) : undefined;
  const fetchImpl = fetchOf(env, allowances.allowed);
  const { compile } = buildStateGraph(parsed.value, { keys: environmentKeys(env, allowances.allowed, KEYS_IN_ENV), mcp, granted, fetch: fetchImpl }, { describe: true, served: true });
  return compile().withConfig({ recursionLimit: recursionLimitOf(parsed.value) });
};
