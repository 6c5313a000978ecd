/**
 * The tab's saved graph, read and parsed while the page's scripts load. The page's first script
 * (src/app/first.ts) starts a worker (saved.worker.ts) that reads the save from IndexedDB, parses
 * it as any save is parsed (parseGraph, the same limits and schema) and finds its problems, on a
 * thread of its own: by the time the page's scripts have run, the graph is ready to open. Read
 * after them, on the page, it waited for the database and then held the page for the parse and
 * the check. Kept small and with only type imports, so the first script loads at once.
 */
import type { GraphFile, ParseResult, Problem } from '../graph/index.ts';
import { OPEN_KEY, type SavedRead } from './libraryDb.ts';

/** The graph to read: this tab's, else (none) the one saved last. */
export type SavedRequest = { id: string | undefined };

/** What the worker found: the graph under the id, its save parsed and that graph's problems (null when there is none). */
export interface EarlyRead extends SavedRead {
  parsed: ParseResult<GraphFile> | null;
  problems: Problem[] | null;
}

let early: Promise<EarlyRead | null> | null = null;

const openId = () => {
  try {
    return sessionStorage.getItem(OPEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

/** Starts the read, once. Where it cannot say (no worker, storage refused, a worker that fails), the page reads the save itself. */
export const readSavedEarly = () => {
  if (early || typeof Worker === 'undefined') return;
  // The id goes as the worker's name, not in a message: a message to a worker still starting is
  // passed on by the page's thread, which is busy running the page's scripts until they are done.
  const worker = new Worker(new URL('./saved.worker.ts', import.meta.url), { type: 'module', name: openId() ?? '' });
  early = new Promise<EarlyRead | null>((resolve) => {
    worker.onmessage = (event: MessageEvent<EarlyRead | null>) => resolve(event.data);
    worker.onerror = () => resolve(null);
  }).finally(() => worker.terminate());
};

/** What the early read found, taken once: null when none was started or it could not say. */
export const takeEarlyRead = (): Promise<EarlyRead | null> => {
  const taken = early ?? Promise.resolve(null);
  early = null;
  return taken;
};
