/**
 * The tab's saved graph, read from IndexedDB while the page's scripts load. The page's first
 * script (src/app/first.ts) starts the read; by the time the page's scripts have run, the save is
 * there to parse, where read after them it waited for the database. Only the read moves: a
 * worker that also parsed the save competed with the page's scripts for the cores and made the
 * open no faster. Kept small and without imports of weight, so the first script loads at once.
 */
import { OPEN_KEY, readSaved, type SavedRead } from './libraryDb.ts';

let early: Promise<SavedRead | null> | null = null;

const openId = () => {
  try {
    return sessionStorage.getItem(OPEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

/** Starts the read, once. Where it cannot say (no IndexedDB, storage refused, a database to make or upgrade), the page reads the save itself. */
export const readSavedEarly = () => {
  if (early || typeof indexedDB === 'undefined') return;
  early = readSaved(indexedDB, openId());
};

/** What the early read found, taken once: null when none was started or it could not say. */
export const takeEarlyRead = (): Promise<SavedRead | null> => {
  const taken = early ?? Promise.resolve(null);
  early = null;
  return taken;
};
