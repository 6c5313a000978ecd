/**
 * The graph library: every graph the person opens is kept in the browser (IndexedDB) under an id
 * of its own, with its own autosave and its last good copies. Opening a template, a file or a
 * link adds a graph; it never writes over another one. A reload opens what this tab was editing.
 */
import { create } from 'zustand';
import { describeProblems, loadTemplates, own, readJson, type GraphFile, type ParseResult } from '../graph/index.ts';
import { takeEarlyParse, takeEarlyRead } from './earlyRead.ts';
import type { GraphLocks } from './graphLocks.ts';
import { newDocumentId } from './graphSlice.ts';
import { useApp } from './index.ts';
import { DB_NAME, DB_VERSION, GRAPH_SCHEMA, LAST_KEY, LIBRARY_STORE, META_STORE, OPEN_KEY, request, type LibraryEntry, type SavedRead } from './libraryDb.ts';
import { isOwnSave, readSave } from './ownSave.ts';

export { OPEN_KEY, type LibraryEntry };

export type LibrarySummary = Pick<LibraryEntry, 'id' | 'name' | 'savedAt'>;

/** Where the library lives; IndexedDB in the browser, fake-indexeddb or a fake in tests. */
export interface LibraryStorage {
  /** Every graph, the most recently saved first. */
  list: () => Promise<LibrarySummary[]>;
  read: (id: string) => Promise<LibraryEntry | undefined>;
  /**
   * Saves, reads the save back to check it, and keeps the replaced text among the copies. `text` is
   * this page's serialization of a graph it has read: it is stamped with the page's `GRAPH_SCHEMA`.
   */
  write: (id: string, name: string, text: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
  /** The graph saved last in any tab, for a tab that has none of its own. */
  lastSaved: () => Promise<string | undefined>;
}

/** The synchronous storages: this tab's open graph (sessionStorage) and the save journal (localStorage). */
export type SyncStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The version 1 autosave: one graph under one key, taken into the library on upgrade. */
const LEGACY_STORE = 'graphs';
const LEGACY_KEY = 'autosave';
export const JOURNAL_PREFIX = 'loopscope.journal.';
/** How many earlier saves each graph keeps. */
export const COPIES_KEPT = 3;
const DEBOUNCE_MS = 300;
const STORAGE_TIMEOUT_MS = 3000;
/** What this page's saves carry: the fingerprint of the graph layer that read the graph (ownSave.ts). */
export const SAVE_STAMP = GRAPH_SCHEMA === null ? {} : { schema: GRAPH_SCHEMA };

const completion = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('the write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('the write was aborted'));
  });

/** The name a damaged or old save gives itself, read within the input limits; a stand-in when it has none. */
const nameIn = (text: string) => {
  const json = readJson(text);
  const name = json.ok && json.value !== null && typeof json.value === 'object' ? own(json.value as Record<string, unknown>, 'name') : undefined;
  return typeof name === 'string' ? name : 'Restored graph';
};

/** Version 1 kept one autosave; it becomes the library's first graph. */
const upgrade = (db: IDBDatabase, tx: IDBTransaction, oldVersion: number) => {
  const library = db.objectStoreNames.contains(LIBRARY_STORE) ? tx.objectStore(LIBRARY_STORE) : db.createObjectStore(LIBRARY_STORE, { keyPath: 'id' });
  if (!db.objectStoreNames.contains(META_STORE)) db.createObjectStore(META_STORE);
  if (oldVersion < 1 || !db.objectStoreNames.contains(LEGACY_STORE)) return;
  const legacy = tx.objectStore(LEGACY_STORE).get(LEGACY_KEY);
  legacy.onsuccess = () => {
    if (typeof legacy.result === 'string') {
      const id = newDocumentId();
      const entry: LibraryEntry = { id, name: nameIn(legacy.result), savedAt: Date.now(), text: legacy.result, copies: [] };
      library.put(entry);
      tx.objectStore(META_STORE).put(id, LAST_KEY);
    }
    db.deleteObjectStore(LEGACY_STORE);
  };
};

export const indexedDbLibrary = (factory: IDBFactory | undefined = globalThis.indexedDB): LibraryStorage => {
  let opening: Promise<IDBDatabase> | null = null;
  // Kept once open, so a save on `pagehide` starts its transaction before the page goes away.
  let opened: IDBDatabase | null = null;
  const open = () => {
    if (opened) return Promise.resolve(opened);
    if (!factory) return Promise.reject(new Error('IndexedDB is not available in this browser'));
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = (event) => upgrade(req.result, req.transaction!, event.oldVersion);
      req.onsuccess = () => {
        opened = req.result;
        // Another tab upgrading the database: let it, and open again on the next use.
        opened.onversionchange = () => {
          opened?.close();
          opened = null;
          opening = null;
        };
        resolve(opened);
      };
      req.onerror = () => reject(req.error ?? new Error('could not open IndexedDB'));
      req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    // A failed open is tried again on the next use rather than remembered forever.
    opening.catch(() => (opening = null));
    return opening;
  };
  const read = async (id: string) => {
    const db = await open();
    return (await request(db.transaction(LIBRARY_STORE, 'readonly').objectStore(LIBRARY_STORE).get(id))) as LibraryEntry | undefined;
  };
  const put = (db: IDBDatabase, id: string, name: string, text: string) => {
    const tx = db.transaction([LIBRARY_STORE, META_STORE], 'readwrite');
    const library = tx.objectStore(LIBRARY_STORE);
    const previous = library.get(id);
    previous.onsuccess = () => {
      const old = previous.result as LibraryEntry | undefined;
      const copies = old ? (old.text === text ? old.copies : [old.text, ...old.copies].slice(0, COPIES_KEPT)) : [];
      library.put({ id, name, savedAt: Date.now(), text, copies, ...SAVE_STAMP } satisfies LibraryEntry);
      tx.objectStore(META_STORE).put(id, LAST_KEY);
    };
    const done = completion(tx);
    return done;
  };
  return {
    list: async () => {
      const db = await open();
      const entries = (await request(db.transaction(LIBRARY_STORE, 'readonly').objectStore(LIBRARY_STORE).getAll())) as LibraryEntry[];
      return entries.map(({ id, name, savedAt }) => ({ id, name, savedAt })).sort((a, b) => b.savedAt - a.savedAt);
    },
    read,
    write: async (id, name, text) => {
      // The transaction starts in this turn when the database is open: a save on `pagehide` gets in.
      await (opened ? put(opened, id, name, text) : open().then((db) => put(db, id, name, text)));
      const back = await read(id);
      if (back?.text !== text) throw new Error('the saved graph did not read back the same');
    },
    remove: async (id) => {
      const db = await open();
      const tx = db.transaction(LIBRARY_STORE, 'readwrite');
      tx.objectStore(LIBRARY_STORE).delete(id);
      await completion(tx);
    },
    lastSaved: async () => {
      const db = await open();
      const id = await request(db.transaction(META_STORE, 'readonly').objectStore(META_STORE).get(LAST_KEY));
      return typeof id === 'string' ? id : undefined;
    },
  };
};

/**
 * The library's health and contents, shown to the person; the graph itself never depends on it.
 * A failed write clears once a write works; a lost restore stays until dismissed.
 */
export const useAutosave = create<{ error: string | null; restoreError: string | null }>()(() => ({ error: null, restoreError: null }));
export const useLibrary = create<{ entries: LibrarySummary[] }>()(() => ({ entries: [] }));

/**
 * Whether this tab may save the open graph: `elsewhere` when another tab had it open first,
 * `taken` when another tab took it over from this one. Either way this tab saves nothing of it.
 */
export const useGraphTab = create<{ conflict: 'elsewhere' | 'taken' | null }>()(() => ({ conflict: null }));

/** The list with one graph's new save in it, newest first: what a save or another tab's save changes. */
export const withSaved = (entries: readonly LibrarySummary[], saved: LibrarySummary): LibrarySummary[] =>
  [saved, ...entries.filter((entry) => entry.id !== saved.id)].sort((a, b) => b.savedAt - a.savedAt);

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'unknown error';
export const fail = (what: string) => useAutosave.setState({ error: `Autosave failed: ${what}. Your graph is kept in memory.` });
const failRestore = (text: string) => useAutosave.setState({ restoreError: text });

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the browser storage did not answer')), ms))]);

export interface JournalEntry {
  name: string;
  text: string;
  savedAt: number;
  /** As a library entry's. */
  schema?: string;
}

export const readJournal = (sync: SyncStorage, id: string): JournalEntry | null => {
  try {
    const value = JSON.parse(sync.getItem(JOURNAL_PREFIX + id) ?? 'null') as JournalEntry | null;
    return value && typeof value.text === 'string' && typeof value.savedAt === 'number' ? value : null;
  } catch {
    return null;
  }
};

export interface PersistenceOptions {
  library?: LibraryStorage;
  /** This tab's open graph: survives a reload of the tab, not shared with other tabs. */
  session?: SyncStorage;
  /**
   * A synchronous copy of a save IndexedDB does not have yet, written on `pagehide` (a reload right
   * after an edit can leave before IndexedDB finishes, but a synchronous write then always lands)
   * and when a write fails; removed once a later write lands.
   */
  journal?: SyncStorage;
  delayMs?: number;
  timeoutMs?: number;
  /** Where `pagehide` is listened for. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Which tab may save which graph (graphLocks.ts; Web Locks where there are none given). */
  locks?: GraphLocks;
  /**
   * When the saver starts (autosave.ts, loaded then): the page's, once its first screen is drawn;
   * at once where none is given. It saves what changed before it started.
   */
  savingFrom?: Promise<unknown>;
}

export type ResolvedOptions = Required<Omit<PersistenceOptions, 'locks' | 'savingFrom'>> & Pick<PersistenceOptions, 'locks'>;

/** No storage at all (a browser that refuses it): the app still works, in memory. */
const memoryStorage = (): SyncStorage => {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value), removeItem: (key) => void values.delete(key) };
};

const browserStorage = (name: 'sessionStorage' | 'localStorage'): SyncStorage => {
  try {
    return globalThis[name] ?? memoryStorage();
  } catch {
    return memoryStorage();
  }
};

/**
 * Gestures under way on the canvas (a node dragged, the view panned or zoomed). A save waits until
 * there are none: writing a big graph (serialising it, its journal copy, IndexedDB) holds the page
 * for a few frames, a visible hitch in the middle of a gesture and none after it.
 */
let gestures = 0;
let gesturesOver: (() => void) | null = null;
export const gesturesUnderWay = () => gestures > 0;
/** What the saver does once no gesture holds its save back. */
export const onGesturesOver = (then: (() => void) | null) => void (gesturesOver = then);

/** Holds autosaves back until the function it returns is called; pagehide and opening another graph still save at once. */
export const holdAutosave = (): (() => void) => {
  gestures += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    gestures -= 1;
    if (gestures === 0) gesturesOver?.();
  };
};

/** What saves the open graph (autosave.ts): loaded once the page's first screen is drawn. */
export interface Saver {
  flush: () => Promise<void>;
  takeOver: (id: string) => Promise<void>;
  stop: () => void;
}

/** The library as this page reads and saves it, shared with the saver. */
export interface Persistence {
  options: ResolvedOptions;
  /** Per graph, the text saved last from this page. */
  lastSaved: Map<string, string>;
  /** Per graph, the document as opened from its save, while it is unedited: saving it would write the same document. */
  openedAsSaved: Map<string, GraphFile>;
  /** The open document when persistence started: what changed since then the saver saves as it starts. */
  startedWith: { documentId: string; graph: GraphFile };
  saver: Saver | null;
  saving: Promise<Saver | null>;
  stopped: boolean;
}

let active: Persistence | null = null;

export const refreshList = async (library: LibraryStorage) => {
  try {
    useLibrary.setState({ entries: await library.list() });
  } catch {
    // The list is a convenience; a failed save already says what is wrong.
  }
};

/** Reads the library's list again (another tab may have added graphs). */
export const refreshLibrary = () => (active ? refreshList(active.options.library) : Promise.resolve());

/** The entry's save, or the journal's where it is newer (the tab left before IndexedDB had it). */
const newestSave = (entry: LibraryEntry | undefined, journal: JournalEntry | null): { text: string; schema?: string } | undefined =>
  journal && (!entry || journal.savedAt > entry.savedAt) ? journal : entry;

type GraphParser = (text: string, schema: string | undefined) => Promise<ParseResult<GraphFile>>;
/**
 * With the editor on screen, a big save is parsed in a worker, so the page does not freeze
 * meanwhile; this page's own save only needs reading (ownSave.ts), sooner here than a worker's
 * answer is copied back.
 */
const parseAside: GraphParser = async (text, schema) => (isOwnSave(schema) ? readSave(text, schema) : (await import('./offThread.ts')).parseOffThread({ kind: 'graph', text }));
/**
 * Before the first screen nothing is drawn that could freeze, and a worker would only be starting
 * (its script loaded, its schemas built, its first parse cold): the page parses the save itself,
 * sooner, and nothing is copied back from a worker; the save read as the page loaded was parsed
 * then (earlyRead.ts).
 */
const parseHere: GraphParser = async (text, schema) => (await takeEarlyParse(text)) ?? readSave(text, schema);

/**
 * Opens a graph of the library in the editor; false when there is none under the id, or when it and
 * all its copies are damaged (then the damaged data stays as it is, and the person is told).
 * `known` is the graph's entry, when it was read already (earlyRead.ts).
 */
export const openFromLibrary = async (id: string, parse: GraphParser = parseAside, known?: SavedRead): Promise<boolean> => {
  if (!active) return false;
  const { library, journal, timeoutMs } = active.options;
  // Until the saver has started (just after the first screen) nothing was edited that it would flush.
  void active.saver?.flush();
  let entry = known?.entry;
  if (!known)
    try {
      entry = await withTimeout(library.read(id), timeoutMs);
    } catch (error) {
      failRestore(`Could not read the saved graph (${reasonOf(error)}). Your graph is kept in memory.`);
      return false;
    }
  const latest = newestSave(entry, readJournal(journal, id));
  if (latest === undefined) return false;
  const candidates = [latest, ...(entry && entry.text !== latest.text ? [entry] : []), ...(entry?.copies ?? []).map((text) => ({ text, schema: undefined }))];
  let firstProblem: string | null = null;
  for (const [index, { text, schema }] of candidates.entries()) {
    // A save is read as strictly as a file (it may have been written by an older or a tampered
    // page), but for one this very build wrote (ownSave.ts).
    const parsed = await parse(text, schema);
    if (!parsed.ok) {
      firstProblem ??= describeProblems(parsed.problems).split('\n')[0];
      continue;
    }
    // A text from the journal or a copy is not in IndexedDB yet: the save on opening puts it there.
    if (text === entry?.text) {
      active.lastSaved.set(id, text);
      active.openedAsSaved.set(id, parsed.value);
    }
    useApp.getState().openDocument(parsed.value, id);
    if (index > 0) failRestore(`The last save of "${parsed.value.name}" was damaged (${firstProblem}); its last good copy was opened.`);
    return true;
  }
  failRestore(`The saved graph "${entry?.name ?? nameIn(latest.text)}" is damaged and was not opened (${firstProblem}); it is kept as it was.`);
  return false;
};

/** Opens a graph as a new graph of the library (a link, a template): saved at once under a new id. */
export const openAsNewGraph = (graph: GraphFile) => useApp.getState().load(graph);

/** Edits the open graph here instead of in the tab that has it: that tab saves and lets go, and its latest save opens here. */
export const takeOverGraph = async () => {
  if (!active) return;
  const id = useApp.getState().documentId;
  const saver = await active.saving;
  if (!saver) return;
  await saver.takeOver(id);
  await openFromLibrary(id);
};

/** Keeps this tab's version of a graph another tab has, as a new graph of the library. */
export const openCopyOfGraph = () => {
  const { graph } = useApp.getState();
  openAsNewGraph({ ...graph, name: `${graph.name} (copy)` });
};

export const removeFromLibrary = async (id: string) => {
  if (!active || id === useApp.getState().documentId) return;
  try {
    await active.options.library.remove(id);
    active.options.journal.removeItem(JOURNAL_PREFIX + id);
  } catch (error) {
    fail(`could not remove the graph (${reasonOf(error)})`);
  }
  await refreshList(active.options.library);
};

/** The first screen: the graph this tab had open, else the one saved last in any tab; else the default template, new. */
export const restoreLastGraph = async () => {
  if (!active) return;
  const { library, session, timeoutMs } = active.options;
  // Read while the page loaded, where that could be done (earlyRead.ts).
  const early = await withTimeout(takeEarlyRead(), timeoutMs).catch(() => null);
  let id = session.getItem(OPEN_KEY) ?? early?.id;
  try {
    id ??= await withTimeout(library.lastSaved(), timeoutMs);
  } catch (error) {
    failRestore(`Could not read the saved graphs (${reasonOf(error)}). Your graph is kept in memory.`);
  }
  if (id !== undefined && (await openFromLibrary(id, parseHere, early?.id === id ? early : undefined))) return;
  const { findTemplate, DEFAULT_TEMPLATE_ID } = await loadTemplates();
  const fallback = findTemplate(DEFAULT_TEMPLATE_ID) ?? findTemplate('blank');
  if (fallback) useApp.getState().openDocument(fallback.graph(), newDocumentId());
};

/** Resolves once the saver has started (null when persistence stopped first). */
export const savingStarted = () => active?.saving ?? Promise.resolve(null);

/**
 * Keeps the library: reads the open graph's save (restoreLastGraph) and, from `savingFrom` on,
 * saves the open graph after every change (autosave.ts). Returns a stop function.
 */
export const startPersistence = ({ savingFrom = Promise.resolve(), ...options }: PersistenceOptions = {}) => {
  const { documentId, graph } = useApp.getState();
  const persistence: Persistence = {
    options: {
      library: options.library ?? indexedDbLibrary(),
      session: options.session ?? browserStorage('sessionStorage'),
      journal: options.journal ?? browserStorage('localStorage'),
      delayMs: options.delayMs ?? DEBOUNCE_MS,
      timeoutMs: options.timeoutMs ?? STORAGE_TIMEOUT_MS,
      target: options.target ?? window,
      ...(options.locks ? { locks: options.locks } : {}),
    },
    lastSaved: new Map(),
    openedAsSaved: new Map(),
    startedWith: { documentId, graph },
    saver: null,
    saving: Promise.resolve(null),
    stopped: false,
  };
  persistence.saving = savingFrom
    .then(() => import('./autosave.ts'))
    .then(({ startSaving }) => (persistence.stopped ? null : (persistence.saver = startSaving(persistence))));
  active = persistence;
  return () => {
    persistence.stopped = true;
    persistence.saver?.stop();
    if (active === persistence) active = null;
  };
};
