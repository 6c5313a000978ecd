/**
 * The library as the panels show it (the list of graphs, whether another tab has the open one) and
 * what they do with it; the saver keeps both current. Not needed by the first screen, so not in
 * persistence.ts.
 */
import { create } from 'zustand';
import { useApp } from './index.ts';
import { activePersistence, fail, JOURNAL_PREFIX, openAsNewGraph, openFromLibrary, reasonOf, type LibraryStorage, type LibrarySummary } from './persistence.ts';

export const useLibrary = create<{ entries: LibrarySummary[] }>()(() => ({ entries: [] }));

/**
 * Whether this tab may save the open graph: `elsewhere` when another tab had it open first,
 * `taken` when another tab took it over from this one. Either way this tab saves nothing of it.
 */
export const useGraphTab = create<{ conflict: 'elsewhere' | 'taken' | null }>()(() => ({ conflict: null }));

/** The list with one graph's new save in it, newest first: what a save or another tab's save changes. */
export const withSaved = (entries: readonly LibrarySummary[], saved: LibrarySummary): LibrarySummary[] =>
  [saved, ...entries.filter((entry) => entry.id !== saved.id)].sort((a, b) => b.savedAt - a.savedAt);

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
