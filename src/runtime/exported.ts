/**
 * The entry of the runtime copy bundled into a LangGraph export (cli/export.ts): the exported
 * project's `src/graph.ts` hands it the graph file, read as JSON data, and the environment. The
 * StateGraph is the one the app and the command line run, so a LangGraph server runs the graph
 * exactly as Loopscope does, and its checkpoints carry the same `_run` ledger and `_step` trace step.
 */
import '../graph/zodProvided.ts';
import { describeProblems } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { McpConfig } from '../graph/mcpServers.ts';
import { parseGraph, parseWith } from '../graph/parse.ts';
import type { KeyRing } from '../skills/index.ts';
import { createNodeConnector, type NodeConnector } from '../skills/mcpNode.ts';
import { buildStateGraph, recursionLimitOf } from './compile.ts';

/**
 * Keys for the graph's llm skills from the server's environment (its `.env`): a key name the graph
 * itself declares is sent to that skill's origin, as `--key NAME` allows on the command line; the
 * person chose it by writing it into the project's `.env`.
 */
const environmentKeyRing = (declared: ReadonlySet<string>, env: Readonly<Record<string, string | undefined>>): KeyRing => (name) => {
  if (!declared.has(name)) return { refused: `${name} is not an apiKeyName of this graph` };
  const key = env[name];
  return key ? { key } : { refused: `set ${name} in the project's .env (see .env.example)` };
};

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

/** The compiled graph a LangGraph server serves; a file that is not a valid graph is refused with the path that failed. */
export const exportedGraph = (file: unknown, env: Readonly<Record<string, string | undefined>> = {}, servers?: ExportedServers) => {
  const parsed = parseGraph(file);
  if (!parsed.ok) throw new Error(`graph.json is not a valid Loopscope graph:\n${describeProblems(parsed.problems)}`);
  const graph = parsed.value;
  const declared = new Set(contactedHosts(graph).flatMap((host) => host.keyNames));
  const mcp = servers ? projectConnector(servers, env) : undefined;
  const { compile } = buildStateGraph(graph, { keys: environmentKeyRing(declared, env), mcp }, { describe: true });
  return compile().withConfig({ recursionLimit: recursionLimitOf(graph) });
};
