import { create } from 'zustand';
import { describeProblems, parseGraph, serializeGraph, validateGraph, type GraphFile } from '../graph/index.ts';
import { useApp } from './index.ts';

/** Where the autosave lives; IndexedDB in the browser, a fake in tests (happy-dom has no IndexedDB). */
export interface GraphStorage {
  read: () => Promise<string | undefined>;
  write: (text: string) => Promise<void>;
}

export const DB_NAME = 'loopscope';
export const STORE_NAME = 'graphs';
export const AUTOSAVE_KEY = 'autosave';
const DEBOUNCE_MS = 300;
const RESTORE_TIMEOUT_MS = 3000;

const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

export const indexedDbStorage = (factory: IDBFactory | undefined = globalThis.indexedDB): GraphStorage => {
  let opening: Promise<IDBDatabase> | null = null;
  // Kept once open, so a save on `pagehide` starts its transaction before the page goes away.
  let opened: IDBDatabase | null = null;
  const open = () => {
    if (!factory) return Promise.reject(new Error('IndexedDB is not available in this browser'));
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE_NAME);
      req.onsuccess = () => resolve((opened = req.result));
      req.onerror = () => reject(req.error ?? new Error('could not open IndexedDB'));
      req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    // A failed open is retried on the next write rather than remembered forever.
    opening.catch(() => (opening = null));
    return opening;
  };
  const put = (db: IDBDatabase, text: string) => {
    const tx = db.transaction(STORE_NAME, 'readwrite');
    tx.objectStore(STORE_NAME).put(text, AUTOSAVE_KEY);
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('the write failed'));
      tx.onabort = () => reject(tx.error ?? new Error('the write was aborted'));
    });
    tx.commit?.();
    return done;
  };
  return {
    read: async () => {
      const db = await open();
      const value = await request(db.transaction(STORE_NAME, 'readonly').objectStore(STORE_NAME).get(AUTOSAVE_KEY));
      return value === undefined ? undefined : String(value);
    },
    write: (text) => {
      try {
        return opened ? put(opened, text) : open().then((db) => put(db, text));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
};

/**
 * The autosave's health, shown to the person; the graph itself never depends on it.
 * A failed write clears once a write works; a lost restore stays until dismissed.
 */
export const useAutosave = create<{ error: string | null; restoreError: string | null }>()(() => ({ error: null, restoreError: null }));

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'unknown error';
const message = (what: string) => `Autosave failed: ${what}. Your graph is kept in memory.`;
const fail = (what: string) => useAutosave.setState({ error: message(what) });
const failRestore = (what: string) => useAutosave.setState({ restoreError: message(what) });

/** A link that names its own graph wins over the autosave. */
export const urlOpensGraph = (url: URL) => url.searchParams.has('template') || new URLSearchParams(url.hash.replace(/^#/, '')).has('graph');

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the browser storage did not answer')), ms))]);

/** Loads the autosaved graph, if any, as the first screen (not an undoable edit). */
export const restoreAutosave = async (storage: GraphStorage, timeoutMs = RESTORE_TIMEOUT_MS): Promise<boolean> => {
  let text: string | undefined;
  try {
    text = await withTimeout(storage.read(), timeoutMs);
  } catch (error) {
    failRestore(`could not read the saved graph (${reasonOf(error)})`);
    return false;
  }
  if (text === undefined) return false;
  const parsed = parseGraph(text);
  if (!parsed.ok) {
    failRestore(`the saved graph is damaged and was not opened (${describeProblems(parsed.problems).split('\n')[0]})`);
    return false;
  }
  const graph: GraphFile = parsed.value;
  useApp.setState({ graph, problems: validateGraph(graph), past: [], future: [] });
  return true;
};

export interface AutosaveOptions {
  delayMs?: number;
  /** Where `pagehide` is listened for. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/** Saves the graph after every change (debounced) and on `pagehide`; returns a stop function. */
export const startAutosave = (storage: GraphStorage, { delayMs = DEBOUNCE_MS, target = window }: AutosaveOptions = {}) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = async () => {
    timer = null;
    try {
      await storage.write(serializeGraph(useApp.getState().graph));
      if (useAutosave.getState().error) useAutosave.setState({ error: null });
    } catch (error) {
      fail(reasonOf(error));
    }
  };
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    void save();
  };
  const unsubscribe = useApp.subscribe((state, previous) => {
    if (state.graph === previous.graph) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => void save(), delayMs);
  });
  target.addEventListener('pagehide', flush);
  return () => {
    unsubscribe();
    target.removeEventListener('pagehide', flush);
    if (timer !== null) clearTimeout(timer);
  };
};

/** Startup: the autosave beats the default template, a link naming a graph beats the autosave. */
export const startPersistence = async (url: URL, storage: GraphStorage = indexedDbStorage(), options?: AutosaveOptions) => {
  if (!urlOpensGraph(url)) await restoreAutosave(storage);
  return startAutosave(storage, options);
};
