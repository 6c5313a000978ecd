/**
 * The library as the graph files of the folder `loopscope open` serves (src/cli/open.ts): each
 * graph is a file, its id `file://FOLDER/PATH` (so its runs and its journal are kept apart from a
 * file of the same path in another folder), written through the server's API with the token the
 * page was opened with. Loaded only on a page served that way (main.tsx).
 */
import { blankGraph, serializeGraph } from '../graph/index.ts';
import { fileIsInvalid, startFileSync } from './fileSync.ts';
import { saveWorker } from './saveAside.ts';
import { callServer } from './serverCall.ts';
import type { FileChange, FileLibrary, LibraryEntry, LibraryStorage, LibrarySummary } from './persistence.ts';

interface Listing {
  path: string;
  name?: string;
  savedAt: number;
  problem?: string;
}

const defaultFetch: typeof fetch = (...args) => fetch(...args);

export const folderLibrary = async (token: string, origin = window.location.origin, fetchImpl: typeof fetch = defaultFetch): Promise<LibraryStorage & { files: FileLibrary }> => {
  const call = (method: string, path: string, options?: { body?: string; keepalive?: boolean }) => callServer(`${origin}${path}`, token, method, options, fetchImpl);
  const info = await call('GET', '/api/info').catch((error: Error & { status?: number }) => {
    throw error.status === 403 ? new Error('this tab\'s address is from a `loopscope open` that has stopped or restarted') : error;
  });
  const { folder } = (await info.json()) as { folder: string };
  const prefix = `file://${folder}/`;
  const pathOf = (id: string) => (id.startsWith(prefix) ? id.slice(prefix.length) : null);
  const idOf = (path: string) => `${prefix}${path}`;
  const query = (id: string) => `/api/graph?path=${encodeURIComponent(pathOf(id) ?? '')}`;
  /** How this page names itself to the server: the change on disk a write of its makes comes back tagged with it. */
  const writer = crypto.randomUUID();
  const writeQuery = (id: string) => `${query(id)}&by=${writer}`;
  const held: FileLibrary['held'] = new Map();
  const summaryOf = (listing: Listing): LibrarySummary => ({
    id: idOf(listing.path),
    name: listing.name ?? listing.path,
    savedAt: listing.savedAt,
    path: listing.path,
    ...(listing.problem ? { problem: listing.problem } : {}),
  });
  const list = async () => ((await (await call('GET', '/api/graphs')).json()) as { graphs: Listing[] }).graphs.map(summaryOf);

  const readFile: FileLibrary['readFile'] = async (id) => {
    const path = pathOf(id);
    if (path === null) return undefined;
    try {
      const response = await call('GET', query(id));
      const problem = response.headers.get('X-Problem');
      return { text: await response.text(), savedAt: Number(response.headers.get('X-Saved-At')) || Date.now(), ...(problem === null ? {} : { problem: decodeURIComponent(problem) }) };
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 404) return undefined;
      // Too big to open: shown read-only with what the server said.
      if (status === 413) return { text: '', savedAt: 0, problem: (error as Error).message };
      throw error;
    }
  };

  const write = async (id: string, _name: string, text: string) => {
    if (pathOf(id) === null) throw new Error('this graph is not a file of the folder yet');
    // keepalive: a save as the page goes (pagehide) still reaches the server, when it is small enough for the browser to keep.
    await call('PUT', writeQuery(id), { body: text, keepalive: text.length < 60_000 });
  };
  // Where the page's fetch is the browser's own: a test's fake one is called on the page.
  const aside = typeof Worker !== 'undefined' && fetchImpl === defaultFetch ? saveWorker() : null;

  return {
    list,
    read: async (id) => {
      const file = await readFile(id);
      if (!file) return undefined;
      const name = pathOf(id) as string;
      if (file.problem === undefined) {
        if (held.get(id) === 'invalid') held.delete(id);
        return { id, name, savedAt: file.savedAt, text: file.text, copies: [] };
      }
      // Not a valid graph: the person's to fix. It opens read-only, as a blank graph named by its path, its problem said; never written over.
      held.set(id, 'invalid');
      fileIsInvalid(id, file.problem);
      return { id, name, savedAt: file.savedAt, text: serializeGraph({ ...blankGraph(), name }), copies: [] } satisfies LibraryEntry;
    },
    write,
    autosave: async (id, name, text, leaving) => {
      if (leaving || !aside || pathOf(id) === null) return write(id, name, text);
      // The file is written by the save worker: handing it the text costs the page a copy of it, where
      // a request's body made of a big graph's text held the page's thread for frames.
      await aside({ kind: 'put', url: `${origin}${writeQuery(id)}`, token, text }, () => write(id, name, text));
    },
    remove: async (id) => {
      await call('DELETE', query(id));
    },
    // The graph file changed last: what a person who just ran `loopscope open` most likely works on.
    lastSaved: async () => (await list()).filter((entry) => !entry.problem).sort((a, b) => b.savedAt - a.savedAt)[0]?.id,
    files: {
      folder,
      pathOf,
      idOf,
      keeps: (id) => pathOf(id) !== null && !held.has(id),
      held,
      writer,
      readFile,
      follow: startFileSync,
      create: async (path, text) => {
        const id = idOf(path);
        await call('POST', writeQuery(id), { body: text });
        return id;
      },
      watch: (onChange) => {
        const events = new EventSource(`${origin}/api/events?token=${encodeURIComponent(token)}`);
        events.addEventListener('change', (event) => {
          const change = JSON.parse((event as MessageEvent<string>).data) as { path: string; kind: 'changed' | 'removed'; savedAt?: number; by?: string };
          onChange({ ...change, id: idOf(change.path) } as FileChange);
        });
        return () => events.close();
      },
    },
  };
};
