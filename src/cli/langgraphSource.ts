/**
 * `loopscope open` hands the page a LangGraph agent's source, so that a step of its run on a server
 * can name the routing function that chose a branch and show the line that returned (SPEC §8,
 * src/runtime/routerExplain.ts). The folder's `langgraph.json` names each graph's file and export
 * (`"react-agent": "./src/agent.ts:graph"`); the route answers that file's text, read only: nothing
 * of it runs. Only a file inside the folder (its real path, links followed) is read, and only up to
 * MAX_SOURCE_BYTES, and only a regular file (a named pipe or a kernel file would never end its read).
 */
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FolderError } from './folder.ts';
import { readRegular, UnsafePath } from './safeFs.ts';
import type { Route } from './open.ts';

/** The largest source file answered: an agent's file, not a bundle. */
export const MAX_SOURCE_BYTES = 1_000_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A graph's entry in langgraph.json: `./file.ts:export` (or `{ "path": … }`), split into its file and export. */
const entryOf = (value: unknown): { file: string; exported: string } | null => {
  const text = typeof value === 'string' ? value : isRecord(value) && typeof value.path === 'string' ? value.path : null;
  if (!text) return null;
  const at = text.lastIndexOf(':');
  return at > 0 ? { file: text.slice(0, at), exported: text.slice(at + 1) } : { file: text, exported: 'default' };
};

/** The source file of graph `graph`, as the folder's langgraph.json names it; or a FolderError saying why there is none. */
export const agentSource = async (root: string, graph: string): Promise<{ graph: string; file: string; exported: string; text: string }> => {
  const real = await realpath(root);
  let config: unknown;
  try {
    config = JSON.parse(textOf(await readRegular(join(real, 'langgraph.json'), 'langgraph.json', MAX_SOURCE_BYTES)));
  } catch (error) {
    if (codeOf(error) === 'ENOENT') throw new FolderError(404, 'the folder has no langgraph.json, which names each graph\'s file and export');
    throw new FolderError(400, `langgraph.json cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const graphs = isRecord(config) && isRecord(config.graphs) ? config.graphs : {};
  const entry = Object.hasOwn(graphs, graph) ? entryOf(graphs[graph]) : null;
  if (!entry) throw new FolderError(404, `langgraph.json names no graph ${JSON.stringify(graph)}`);
  const named = resolve(real, entry.file);
  let file: string;
  try {
    file = await realpath(named);
  } catch {
    throw new FolderError(404, `${entry.file}, the file langgraph.json names for ${graph}, is not in the folder`);
  }
  const inside = insideOf(real, file);
  if (inside === null) throw new FolderError(403, `${entry.file}: outside the folder`);
  return { graph, file: inside, exported: entry.exported, text: await sourceText(file, entry.file) };
};

/** A real path's place in the folder (`/`-separated), or null when it is outside. */
const insideOf = (real: string, file: string): string | null => {
  const inside = relative(real, file);
  return inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside) ? null : inside.split(sep).join('/');
};

/** A source file's text: a regular file up to MAX_SOURCE_BYTES, read as text only. */
const sourceText = async (file: string, shown: string) => {
  try {
    return textOf(await readRegular(file, shown, MAX_SOURCE_BYTES));
  } catch (error) {
    if (error instanceof UnsafePath) throw new FolderError(413, `${error.message}: Loopscope reads an agent's source, a regular file up to ${MAX_SOURCE_BYTES} bytes`);
    throw error;
  }
};

/** The files a relative import may name, as TypeScript and Node resolve it: `./a.js` is `a.ts` in a TypeScript project, `./a` any of its extensions or its folder's index. */
const candidatesOf = (path: string): string[] => {
  const swapped: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
  const extension = /\.[cm]?[jt]sx?$/.exec(path)?.[0];
  if (extension) return [path, ...(swapped[extension] ?? []).map((other) => path.slice(0, -extension.length) + other)];
  const extensions = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];
  return [...extensions.map((other) => path + other), ...extensions.map((other) => join(path, `index${other}`))];
};

/**
 * The file of the folder a relative import of source file `from` (relative to the folder) names,
 * read as `agentSource` reads the graph's: inside the folder, a regular file up to MAX_SOURCE_BYTES,
 * as text only; or a FolderError saying why it is not read.
 */
export const importedSource = async (root: string, from: string, specifier: string): Promise<{ file: string; text: string }> => {
  if (!/^\.\.?\//.test(specifier)) throw new FolderError(400, `${specifier} is not a relative import: only files of the folder are read`);
  const real = await realpath(root);
  let importing: string;
  try {
    importing = await realpath(resolve(real, from));
  } catch {
    throw new FolderError(404, `${from} is not in the folder`);
  }
  if (insideOf(real, importing) === null) throw new FolderError(403, `${from}: outside the folder`);
  for (const candidate of candidatesOf(resolve(dirname(importing), specifier))) {
    let file: string;
    try {
      file = await realpath(candidate);
    } catch {
      continue;
    }
    const inside = insideOf(real, file);
    if (inside === null) throw new FolderError(403, `${specifier}, imported by ${from}: outside the folder`);
    return { file: inside, text: await sourceText(file, inside) };
  }
  throw new FolderError(404, `${specifier}, imported by ${from}, is not a file of the folder`);
};

/**
 * `GET /api/langgraph/source?graph=ID`: `{ graph, file, exported, text }`, or why there is none;
 * with `&from=FILE&import=SPECIFIER`: the file of the folder that relative import names, `{ graph, file, text }`.
 */
export const langGraphSourceRoutes: readonly Route[] = [
  {
    method: 'GET', path: '/api/langgraph/source', handle: async ({ folder, url, json }) => {
      const graph = url.searchParams.get('graph') ?? '';
      const specifier = url.searchParams.get('import');
      if (specifier === null) return json(200, await agentSource(folder.root, graph));
      return json(200, { graph, ...(await importedSource(folder.root, url.searchParams.get('from') ?? '', specifier)) });
    },
  },
];
