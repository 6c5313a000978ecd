/**
 * The tab's saved graph, read and parsed while the page's scripts load. The page's first script
 * (src/app/first.ts) starts the parsing worker, which reads the save from IndexedDB and parses it
 * as any save is parsed (parseGraph, the same limits and schema) on a thread of its own; by the
 * time the page's scripts have run, the graph is ready to open. Reading it after them, on the
 * page, waited for the database and then held the page for the parse. Kept small and with only
 * type imports, so the first script loads at once.
 */
import type { GraphFile, ParseResult } from '../graph/index.ts';
import { OPEN_KEY, type SavedRead } from './libraryDb.ts';

export type SavedRequest = { kind: 'saved'; id: string | undefined };

/** What the worker found: the graph under the id and its save parsed (null when there is none). */
export interface EarlyRead extends SavedRead {
  parsed: ParseResult<GraphFile> | null;
}

let early: { worker: Worker; answer: Promise<{ read: EarlyRead | null; failed: boolean }> } | null = null;

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
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
  const answer = new Promise<{ read: EarlyRead | null; failed: boolean }>((resolve) => {
    worker.onmessage = (event: MessageEvent<EarlyRead | null>) => resolve({ read: event.data, failed: false });
    worker.onerror = () => resolve({ read: null, failed: true });
  });
  worker.postMessage({ kind: 'saved', id: openId() } satisfies SavedRequest);
  early = { worker, answer };
};

/**
 * What the early read found, taken once (null when none was started). Its worker, once it has
 * answered, goes on to parse files: it is handed to `keep`.
 */
export const takeEarlyRead = (keep: (worker: Worker) => void): Promise<EarlyRead | null> | null => {
  const taken = early;
  early = null;
  if (!taken) return null;
  return taken.answer.then(({ read, failed }) => {
    if (failed) taken.worker.terminate();
    else keep(taken.worker);
    return read;
  });
};
