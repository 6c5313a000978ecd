/**
 * `loopscope export FILE --langgraph DIR`: a LangGraph.js project that `langgraphjs dev` (the
 * LangGraph server) runs. The project holds Loopscope's runtime bundled into one module
 * (`src/loopscope-runtime.js`, built here from src/runtime/exported.ts by esbuild), the graph file
 * as JSON data (`src/graph.json`), and a fixed `src/graph.ts` that reads the one with the other:
 * nothing is generated from strings in the file. LangGraph, LangChain core and zod stay outside the
 * bundle, pinned in the project's package.json to the versions Loopscope runs on, so the server's
 * LangGraph and the graph's are one copy.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { graphIdOf, nodeById, type GraphFile } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import { callsOfSkill } from '../graph/skillTypes/index.ts';
import type { McpConfig } from '../graph/mcpServers.ts';
import { visibleText } from '../graph/visible.ts';
import { refusedState } from '../runtime/state.ts';
import { KEYS_VARIABLE, writeAllowances } from '../skills/environmentKeys.ts';
import { grantLines } from './grants.ts';
import { LOCAL_PAGES_MODULE, localPagesOnlyConfig } from './localPages.ts';
import { serverVariables } from './mcp.ts';
import { dotenvText, jsonText, markdownText, type DotenvLine } from './projectText.ts';
import { realFolder, writeInside } from './safeFs.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Packages the bundle imports rather than carries: the server must share LangGraph's classes with
 * the graph, and the MCP client is the SDK as the project pins it.
 */
const SHARED = ['@langchain/core', '@langchain/langgraph', 'zod', '@modelcontextprotocol/sdk', '@cfworker/json-schema'] as const;
/** The server and its client, for the project's own `npm install`. */
const SERVER = ['@langchain/langgraph-cli', '@langchain/langgraph-sdk'] as const;

export const RUNTIME_MODULE = 'src/loopscope-runtime.js';

const pinnedVersions = async (names: readonly string[]): Promise<Record<string, string>> => {
  const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<'dependencies' | 'optionalDependencies' | 'devDependencies', Record<string, string> | undefined>;
  return Object.fromEntries(names.map((name) => {
    // The server is optional (serve's), the SDK the app's (bundled into its build): pinned all the same.
    const version = own.dependencies?.[name] ?? own.optionalDependencies?.[name] ?? own.devDependencies?.[name];
    if (!version) throw new Error(`Loopscope's package.json does not pin ${name}`);
    return [name, version];
  }));
};

/** The modules of a project, by path in it, and the source each is bundled from. */
export const BUNDLES = {
  [RUNTIME_MODULE]: 'src/runtime/exported.ts',
  [LOCAL_PAGES_MODULE]: 'src/cli/localPagesOnly.ts',
} as const;

/** How esbuild makes one of them an ES module for Node: at export from the sources, or ahead of time into the package (scripts/buildCli.ts). */
export const bundleOptions = (root: string, source: string) =>
  ({
    entryPoints: [join(root, source)],
    bundle: true, format: 'esm', platform: 'node', target: 'node20', legalComments: 'none',
    external: [...SHARED, ...SERVER].flatMap((name) => [name, `${name}/*`]),
    banner: { js: `// Loopscope's ${source}, bundled by \`loopscope export\`.` },
  }) satisfies BuildOptions;

/** Where the built command line keeps them, made ahead (build/modules/, by their path in a project). */
export const PREBUILT_MODULES = 'modules';
declare const __LOOPSCOPE_BUILT__: boolean | undefined;

let bundled: Promise<Record<string, string>> | undefined;

/**
 * Loopscope's runtime, and the server's request check, each as one ES module for Node (made once
 * per process: they are the same for every graph). The built command line carries them made
 * already (an installed package has no sources to bundle, nor esbuild); from the sources, esbuild
 * bundles them.
 */
export const bundleModules = (): Promise<Record<string, string>> =>
  (bundled ??= Promise.all(Object.entries(BUNDLES).map(async ([path, source]) => {
    if (typeof __LOOPSCOPE_BUILT__ !== 'undefined') return [path, await readFile(new URL(`../${PREBUILT_MODULES}/${path}`, import.meta.url), 'utf8')] as const;
    const { build } = await import('esbuild');
    const result = await build({ ...bundleOptions(ROOT, source), write: false });
    return [path, result.outputFiles[0].text] as const;
  })).then(Object.fromEntries));

const GRAPH_TS = `/**
 * The Loopscope graph in src/graph.json, compiled to a LangGraph StateGraph by Loopscope's runtime
 * (src/loopscope-runtime.js). Keys for llm skills come from the environment (.env, see .env.example),
 * each sent only where LOOPSCOPE_KEYS allows it; the MCP servers of its mcp skills from the project's
 * .mcp.json, when there is one.
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

/** The origins each key name of the graph's llm skills goes to, by name. */
const keyOrigins = (graph: GraphFile): Map<string, string[]> => {
  const origins = new Map<string, string[]>();
  for (const skill of Object.values(graph.skills))
    for (const { address, keyName } of callsOfSkill(skill)) {
      if (!keyName) continue;
      const origin = originOf(address) ?? address;
      const known = origins.get(keyName) ?? [];
      if (!known.includes(origin)) origins.set(keyName, [...known, origin]);
    }
  return new Map([...origins].sort(([a], [b]) => (a < b ? -1 : 1)));
};

/**
 * The keys the graph's llm skills name, empty, for the person to fill in; and the allowance that
 * lets each go to its skill's origin, written commented out: nothing is sent until the person
 * allows it (the command line's `--key` rule).
 */
const envExample = (graph: GraphFile, servers: McpConfig | undefined): string => {
  const origins = keyOrigins(graph);
  const lines: DotenvLine[] = [{ comment: 'API keys for the graph\'s llm skills: copy to .env and fill in. .env is never committed.' }];
  if (origins.size > 0) {
    const allowances = writeAllowances(new Map([...origins].map(([name, to]) => [name, new Set(to)])));
    lines.push(
      { comment: `A key is sent only where ${KEYS_VARIABLE} allows it (NAME@ORIGIN, separated by commas): uncomment to allow what the graph asks.` },
      { name: KEYS_VARIABLE, value: allowances, commented: true },
    );
    for (const [name, to] of origins) lines.push({ comment: `sent to ${to.join(', ')}` }, { name, value: '' });
  }
  lines.push(...grantLines(graph));
  // What the MCP servers of .mcp.json read from the environment (`${NAME}` in their definitions).
  for (const { server, names } of servers ? serverVariables(servers) : [])
    lines.push({ comment: `read by the MCP server "${server}" (.mcp.json)` }, ...names.map((name) => ({ name, value: '' })));
  return dotenvText(lines);
};

const MCP_README = `
The graph's mcp skills reach the MCP servers of \`.mcp.json\` (the servers of the project it was
exported from): a stdio server starts on first use, in this folder (so \`./data\` means this
folder's data/), and stops with the server; variables it reads are named in \`.env.example\`.
`;

const readme = (graph: GraphFile, id: string, servers: boolean) => `# ${id}

A LangGraph.js project exported by Loopscope from the graph “${markdownText(graph.name)}” (\`src/graph.json\`).

\`\`\`sh
npm install
cp .env.example .env          # then fill in the keys it names, if any, and allow them in LOOPSCOPE_KEYS,
                              # and grant what it asks in LOOPSCOPE_GRANT and LOOPSCOPE_HOSTS
npx langgraphjs dev --host 127.0.0.1 --port 2024 --no-browser
\`\`\`

The server serves the graph as \`${id}\`. A run starts from the graph's initial state; send
\`{"question": …}\` (any state field) as input to change it, and \`config.configurable.seed\` to
choose the seed. Each checkpoint holds the whole run: the agent state, the ledger \`_run\`, and
\`_step\`, the trace step of the node that ran last (what Loopscope's timeline shows); those two
are the runtime's own, and neither a run's input nor updateState sets them. Attempts go out on the
\`custom\` stream. Open Loopscope and use "Connect to a LangGraph server" to watch it: the server
answers the pages of this machine only (http://127.0.0.1 and http://localhost, any port).
${servers ? MCP_README : ''}`;

/** Why a graph cannot become a LangGraph project (LangGraph refuses a graph with nothing to start from), or null. */
export const cannotExport = (graph: GraphFile): string | null => {
  if (!nodeById(graph, graph.entry)) return `the graph's entry "${graph.entry}" is not one of its nodes: a LangGraph graph needs a node to start from`;
  const refused = refusedState(graph);
  return refused ? `${refused}: rename it` : null;
};

export interface ExportedProject {
  dir: string;
  graphId: string;
  files: string[];
}

/**
 * Writes the project into `dir` (created when missing; files of the same names are replaced, a link
 * or anything but a regular file in their place refused, see safeFs.ts), with
 * the project's `.mcp.json` when given: the servers its mcp skills name, as the person defined them.
 */
export const exportLangGraph = async (graph: GraphFile, dir: string, servers?: McpConfig): Promise<ExportedProject> => {
  const graphId = graphIdOf(graph);
  const files: Record<string, string> = {
    'langgraph.json': jsonText({ node_version: '20', graphs: { [graphId]: './src/graph.ts:graph' }, dependencies: ['.'], env: '.env', ...localPagesOnlyConfig() }),
    'package.json': jsonText({
      name: graphId, version: '0.1.0', private: true, type: 'module',
      description: `Exported by Loopscope from the graph “${visibleText(graph.name)}”`,
      scripts: { dev: 'langgraphjs dev --host 127.0.0.1 --no-browser' },
      dependencies: await pinnedVersions(SHARED),
      devDependencies: await pinnedVersions(SERVER),
    }),
    '.env.example': envExample(graph, servers),
    ...(servers ? { '.mcp.json': jsonText(servers) } : {}),
    // The dev server reads .env when langgraph.json names it: an empty one, for the person to fill.
    '.env': '',
    '.gitignore': 'node_modules\n.env\n.langgraph_api\n',
    'README.md': readme(graph, graphId, servers !== undefined),
    'src/graph.json': jsonText(graph),
    'src/graph.ts': GRAPH_TS,
    ...(await bundleModules()),
    'src/loopscope-runtime.d.ts': RUNTIME_TYPES,
  };
  await mkdir(dir, { recursive: true });
  await realFolder(dir, ['src'], 'src', true);
  for (const [name, text] of Object.entries(files)) {
    // An existing .env holds the person's keys: never overwritten (nor anything a link named .env leads to).
    if (name === '.env') await writeInside(dir, name, text, { create: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    // Each file is replaced as a regular file of the folder: a link in its place is refused, never written through.
    else await writeInside(dir, name, text);
  }
  return { dir, graphId, files: Object.keys(files) };
};
