/**
 * `loopscope export FILE --langgraph DIR`: a LangGraph.js project that `langgraphjs dev` (the
 * LangGraph server) runs. The project holds Loopscope's runtime bundled into one module
 * (`src/loopscope-runtime.js`, built here from src/runtime/exported.ts by esbuild), the graph file
 * as JSON data (`src/graph.json`), and a fixed `src/graph.ts` that reads the one with the other:
 * nothing is generated from strings in the file. LangGraph, LangChain core and zod stay outside the
 * bundle, pinned in the project's package.json to the versions Loopscope runs on, so the server's
 * LangGraph and the graph's are one copy.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeById, type GraphFile } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import type { McpConfig } from '../graph/mcpServers.ts';
import { reservedStateKey } from '../runtime/state.ts';
import { serverVariables } from './mcp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Packages the bundle imports rather than carries: the server must share LangGraph's classes with
 * the graph, and the MCP client is the SDK as the project pins it.
 */
const SHARED = ['@langchain/core', '@langchain/langgraph', 'zod', '@modelcontextprotocol/sdk', '@cfworker/json-schema'] as const;
/** The server and its client, for the project's own `npm install`. */
const SERVER = ['@langchain/langgraph-cli', '@langchain/langgraph-sdk'] as const;

export const RUNTIME_MODULE = 'src/loopscope-runtime.js';

/** The graph id the server knows the graph by: the graph's name in lower-case words joined by `-`. */
export const graphIdOf = (graph: GraphFile): string => graph.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'graph';

const pinnedVersions = async (names: readonly string[]): Promise<Record<string, string>> => {
  const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.fromEntries(names.map((name) => {
    const version = own.dependencies[name];
    if (!version) throw new Error(`Loopscope's package.json does not pin ${name}`);
    return [name, version];
  }));
};

let bundled: Promise<string> | undefined;

/** Loopscope's runtime as one ES module for Node (built once per process: it is the same for every graph). */
export const bundleRuntime = (): Promise<string> =>
  (bundled ??= build({
    entryPoints: [join(ROOT, 'src/runtime/exported.ts')],
    bundle: true, format: 'esm', platform: 'node', target: 'node20', write: false, legalComments: 'none',
    external: SHARED.flatMap((name) => [name, `${name}/*`]),
    banner: { js: '// Loopscope runtime, bundled by `loopscope export`: the same executor as the app and `loopscope run`.' },
  }).then((result) => result.outputFiles[0].text));

const GRAPH_TS = `/**
 * The Loopscope graph in src/graph.json, compiled to a LangGraph StateGraph by Loopscope's runtime
 * (src/loopscope-runtime.js). Keys for llm skills come from the environment (.env, see .env.example);
 * the MCP servers of its mcp skills from the project's .mcp.json, when there is one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exportedGraph } from './loopscope-runtime.js';

const file: unknown = JSON.parse(readFileSync(new URL('./graph.json', import.meta.url), 'utf8'));
const servers = new URL('../.mcp.json', import.meta.url);

export const graph = exportedGraph(file, process.env, existsSync(servers)
  ? { mcpServers: JSON.parse(readFileSync(servers, 'utf8')), dir: fileURLToPath(new URL('..', import.meta.url)) }
  : undefined);
`;

const RUNTIME_TYPES = `import type { CompiledStateGraph } from '@langchain/langgraph';

/** Compiles a Loopscope graph file (format loopscope/graph) into the StateGraph Loopscope runs; its mcp skills reach the servers of \`servers\` (a .mcp.json and its folder). */
export declare const exportedGraph: (file: unknown, env?: Readonly<Record<string, string | undefined>>, servers?: { mcpServers: unknown; dir: string }) => CompiledStateGraph<Record<string, unknown>, Record<string, unknown>, string>;

/** Stops the MCP servers the graphs started (they are killed when the process exits in any case). */
export declare const stopMcpServers: () => Promise<void>;
`;

const envExample = (graph: GraphFile, servers: McpConfig | undefined): string => {
  const hosts = contactedHosts(graph).filter((host) => host.keyNames.length > 0);
  const lines = ['# API keys for the graph\'s llm skills: copy to .env and fill in. .env is never committed.'];
  for (const name of [...new Set(hosts.flatMap((host) => host.keyNames))].sort())
    lines.push(`# sent to ${hosts.filter((host) => host.keyNames.includes(name)).map((host) => host.address).join(', ')}`, `${name}=`);
  // What the MCP servers of .mcp.json read from the environment (`${NAME}` in their definitions).
  for (const { server, names } of servers ? serverVariables(servers) : []) lines.push(`# read by the MCP server "${server}" (.mcp.json)`, ...names.map((name) => `${name}=`));
  return `${lines.join('\n')}\n`;
};

const MCP_README = `
The graph's mcp skills reach the MCP servers of \`.mcp.json\` (the servers of the project it was
exported from): a stdio server starts on first use, in this folder (so \`./data\` means this
folder's data/), and stops with the server; variables it reads are named in \`.env.example\`.
`;

const readme = (graph: GraphFile, id: string, servers: boolean) => `# ${id}

A LangGraph.js project exported by Loopscope from the graph "${graph.name}" (\`src/graph.json\`).

\`\`\`sh
npm install
cp .env.example .env          # then fill in the keys it names, if any
npx langgraphjs dev --host 127.0.0.1 --port 2024 --no-browser
\`\`\`

The server serves the graph as \`${id}\`. A run starts from the graph's initial state; send
\`{"question": …}\` (any state field) as input to change it, and \`config.configurable.seed\` to
choose the seed. Each checkpoint holds the whole run: the agent state, the ledger \`_run\`, and
\`_step\`, the trace step of the node that ran last (what Loopscope's timeline shows). Attempts go
out on the \`custom\` stream. Open Loopscope and use "Connect to a LangGraph server" to watch it.
${servers ? MCP_README : ''}`;

/** Why a graph cannot become a LangGraph project (LangGraph refuses a graph with nothing to start from), or null. */
export const cannotExport = (graph: GraphFile): string | null => {
  if (!nodeById(graph, graph.entry)) return `the graph's entry "${graph.entry}" is not one of its nodes: a LangGraph graph needs a node to start from`;
  const reserved = reservedStateKey(graph);
  return reserved ? `the state field "${reserved}" is kept by the runtime: rename it` : null;
};

export interface ExportedProject {
  dir: string;
  graphId: string;
  files: string[];
}

/**
 * Writes the project into `dir` (created when missing; files of the same names are replaced), with
 * the project's `.mcp.json` when given: the servers its mcp skills name, as the person defined them.
 */
export const exportLangGraph = async (graph: GraphFile, dir: string, servers?: McpConfig): Promise<ExportedProject> => {
  const graphId = graphIdOf(graph);
  const files: Record<string, string> = {
    'langgraph.json': `${JSON.stringify({ node_version: '20', graphs: { [graphId]: './src/graph.ts:graph' }, dependencies: ['.'], env: '.env' }, null, 2)}\n`,
    'package.json': `${JSON.stringify({
      name: graphId, version: '0.1.0', private: true, type: 'module',
      description: `"${graph.name}", exported by Loopscope`,
      scripts: { dev: 'langgraphjs dev --host 127.0.0.1 --no-browser' },
      dependencies: await pinnedVersions(SHARED),
      devDependencies: await pinnedVersions(SERVER),
    }, null, 2)}\n`,
    '.env.example': envExample(graph, servers),
    ...(servers ? { '.mcp.json': `${JSON.stringify(servers, null, 2)}\n` } : {}),
    // The dev server reads .env when langgraph.json names it: an empty one, for the person to fill.
    '.env': '',
    '.gitignore': 'node_modules\n.env\n.langgraph_api\n',
    'README.md': readme(graph, graphId, servers !== undefined),
    'src/graph.json': `${JSON.stringify(graph, null, 2)}\n`,
    'src/graph.ts': GRAPH_TS,
    [RUNTIME_MODULE]: await bundleRuntime(),
    'src/loopscope-runtime.d.ts': RUNTIME_TYPES,
  };
  await mkdir(join(dir, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    // An existing .env holds the person's keys: never overwritten.
    if (name === '.env') await writeFile(join(dir, name), text, { flag: 'a' });
    else await writeFile(join(dir, name), text);
  }
  return { dir, graphId, files: Object.keys(files) };
};
