/**
 * The library as the panels show it (the list of graphs, whether another tab has the open one) and
 * what they do with it; the saver keeps both current. Not needed by the first screen, so not in
 * persistence.ts.
 */
import { create } from 'zustand';
import { blankGraph, serializeGraph, type GraphFile } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { activePersistence, fail, JOURNAL_PREFIX, openAsNewGraph, openFromLibrary, reasonOf, type FileLibrary, type LibraryStorage, type LibrarySummary } from './persistence.ts';

export const useLibrary = create<{ entries: LibrarySummary[] }>()(() => ({ entries: [] }));

/**
 * Whether this tab may save the open graph: `elsewhere` when another tab had it open first,
 * `taken` when another tab took it over from this one. Either way this tab saves nothing of it.
 */
export const useGraphTab = create<{ conflict: 'elsewhere' | 'taken' | null }>()(() => ({ conflict: null }));

/** The list with one graph's new save in it, newest first: what a save or another tab's save changes. */
export const withSaved = (entries: readonly LibrarySummary[], saved: LibrarySummary): LibrarySummary[] => {
  const others = entries.filter((entry) => entry.id !== saved.id);
  // A folder's files are listed by path.
  if (saved.path !== undefined) return [...others, saved].sort((a, b) => (a.path ?? '').localeCompare(b.path ?? ''));
  return [saved, ...others].sort((a, b) => b.savedAt - a.savedAt);
};

export const refreshList = async (library: LibraryStorage) => {
  try {
    useLibrary.setState({ entries: await library.list() });
  } catch {
    // The list is a convenience; a failed save already says what is wrong.
  }
};


/** Reads the library's list again (another tab may have added graphs). */
export const refreshLibrary = () => {
  const active = activePersistence();
  return active ? refreshList(active.options.library) : Promise.resolve();
};

/** Edits the open graph here instead of in the tab that has it: that tab saves and lets go, and its latest save opens here. */
export const takeOverGraph = async () => {
  const saver = await activePersistence()?.saving;
  if (!saver) return;
  const id = useApp.getState().documentId;
  await saver.takeOver(id);
  await openFromLibrary(id);
};

/** Keeps this tab's version of a graph another tab has, as a new graph of the library. */
export const openCopyOfGraph = () => {
  const { graph } = useApp.getState();
  openAsNewGraph({ ...graph, name: `${graph.name} (copy)` });
};

export const removeFromLibrary = async (id: string) => {
  const active = activePersistence();
  if (!active || id === useApp.getState().documentId) return;
  try {
    await active.options.library.remove(id);
    active.options.journal.removeItem(JOURNAL_PREFIX + id);
  } catch (error) {
    fail(`could not remove the graph (${reasonOf(error)})`);
  }
  await refreshList(active.options.library);
};

export type FileNotice =
  | { id: string; kind: 'invalid'; problem: string }
  | { id: string; kind: 'changed'; text: string; graph: GraphFile }
  | { id: string; kind: 'invalid-on-disk'; problem: string }
  | { id: string; kind: 'deleted' };

/** Under `loopscope open`, what the page says about the open graph's file (fileSync.ts); shown while that graph is open. */
export const useFileNotice = create<{ notice: FileNotice | null; busy: boolean; error: string | null }>()(() => ({ notice: null, busy: false, error: null }));

let fileActions: { loadFromDisk: () => void; keepMine: () => Promise<void> } | null = null;
/** What the notice's buttons do, while the page follows the folder's files (fileSync.ts). */
export const setFileActions = (actions: typeof fileActions) => void (fileActions = actions);
/** The page's version is dropped for the file's (it stays one Undo away). */
export const loadFromDisk = () => fileActions?.loadFromDisk();
/** The page's version is written over the file (Keep mine; Save again for a deleted file). */
export const keepMine = () => fileActions?.keepMine() ?? Promise.resolve();

/** The folder's files, when the page was opened by `loopscope open`; null for the browser's library. */
export const fileLibrary = (): FileLibrary | null => activePersistence()?.options.library.files ?? null;

/** What the person typed as a file name, as a path in the folder: `.json` added when left out. */
export const graphFilePath = (typed: string) => {
  const path = typed.trim().replace(/^\.\//, '');
  return path.toLowerCase().endsWith('.json') ? path : `${path}.json`;
};

/** Writes `graph` as a new file (refused when the name is taken) and gives its id; the library counts it as saved. */
const createFile = async (files: FileLibrary, path: string, graph: GraphFile) => {
  const active = activePersistence();
  const text = serializeGraph(graph);
  const id = await files.create(graphFilePath(path), text);
  active?.lastSaved.set(id, text);
  active?.openedAsSaved.set(id, graph);
  if (active) void refreshList(active.options.library);
  return id;
};

/** New graph, in a folder: a blank graph in a new file of the person's naming, opened. */
export const newGraphFile = async (path: string) => {
  const files = fileLibrary();
  if (!files) return;
  const graph = blankGraph();
  useApp.getState().openDocument(graph, await createFile(files, path, graph));
};

/** The open graph (a template, an import: no file yet) saved as a new file, and edited there from now on; its history stays. */
export const saveAsFile = async (path: string) => {
  const files = fileLibrary();
  if (!files) return;
  const id = await createFile(files, path, useApp.getState().graph);
  useApp.setState({ documentId: id });
};
