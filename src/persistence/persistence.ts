/**
 * The graph library: every graph the person opens is kept in the browser (IndexedDB) under an id
 * of its own, with its own autosave and its last good copies. Opening a template, a file or a
 * link adds a graph; it never writes over another one. A reload opens what this tab was editing.
 */
import { create } from 'zustand';
import { describeProblems, loadTemplates, type GraphFile, type ParseResult } from '../graph/index.ts';
import { takeEarlyParse, takeEarlyRead } from './earlyRead.ts';
import type { GraphLocks } from './graphLocks.ts';
import { newDocumentId } from '../store/graphSlice.ts';
import { useApp } from '../store/index.ts';
import { OPEN_KEY, SAVE_STAMP, type LibraryEntry, type SavedRead } from './libraryDb.ts';
import { isOwnSave, readSave } from './ownSave.ts';

export { OPEN_KEY, type LibraryEntry };

export type LibrarySummary = Pick<LibraryEntry, 'id' | 'name' | 'savedAt'> & {
  /** The graph's file, in a folder's library. */
  path?: string;
  /** Why the graph's file cannot be edited (not a valid graph, too big): it opens read-only. */
  problem?: string;
};

/** A graph file changed on disk (anyone's write, this page's too: `savedAt` tells them apart), or removed. */
/** A change of a graph file on disk; `by`, the writer a page named when the server wrote it for that page (this page's is `FileLibrary['writer']`). */
export type FileChange = { id: string; path: string; kind: 'changed'; savedAt: number; by?: string } | { id: string; path: string; kind: 'removed' };

/**
 * What a library of files adds (the folder `loopscope open` serves, folderLibrary.ts): a graph is a
 * file, named by the person; the browser's library has none of this.
 */
export interface FileLibrary {
  /** The folder, as the server names it. */
  folder: string;
  /** The path of the file a graph id names; null for a graph that is no file of the folder (a template or an import, until it is given a name). */
  pathOf: (id: string) => string | null;
  idOf: (path: string) => string;
  /** Whether the graph's edits are written to its file: not when it is no file yet, nor while `held`. */
  keeps: (id: string) => boolean;
  /**
   * Files not written to: one that is not a valid graph (read-only), one deleted on disk (until
   * saved again), one changed on disk while the page held edits (until the person chooses).
   */
  held: Map<string, 'invalid' | 'deleted' | 'changed'>;
  /** How this page names itself in its writes: a change on disk tagged with it is its own write, come back. */
  writer: string;
  /** Makes a new file holding `text`; refused when the name is taken. Resolves to its graph id. */
  create: (path: string, text: string) => Promise<string>;
  /** A graph file's text as it is on disk, with what is wrong with it when it is not a valid graph (or cannot be opened: too big). */
  readFile: (id: string) => Promise<{ text: string; savedAt: number; problem?: string } | undefined>;
  /** Follows the changes of the folder's graph files on disk. Returns a stop function. */
  watch: (onChange: (change: FileChange) => void) => () => void;
  /** Keeps the open graph in step with its file while the saver runs (fileSync.ts); `saveNow` writes it. Returns a stop function. */
  follow: (persistence: Persistence, saveNow: () => Promise<void>) => () => void;
}

/**
 * Where the library lives: IndexedDB in the browser (indexedDbLibrary.ts), the folder of
 * `loopscope open` (folderLibrary.ts, with `files`), fake-indexeddb or a fake in tests.
 */
export interface LibraryStorage {
  /** Every graph, the most recently saved first. */
  list: () => Promise<LibrarySummary[]>;
  read: (id: string) => Promise<LibraryEntry | undefined>;
  /**
   * Saves, reads the save back to check it, and keeps the replaced text among the copies. `text` is
   * this page's serialization of a graph it has read: it is stamped with the page's `GRAPH_SCHEMA`.
   * `editedAt` is for an edit written later than it was made (a backup copy restored): the entry
   * keeps the time of the edit, and is the graph a fresh tab opens only when nothing was saved after
   * it. An autosave's is the time the page took the graph to save it: a save that lands late (a
   * worker's, as the page goes) is older than the journal copy of an edit made after it, whenever
   * it lands. A folder's files keep the time they are written.
   */
  write: (id: string, name: string, text: string, editedAt?: number) => Promise<void>;
  /**
   * An autosave, where the storage has a way of its own (IndexedDB's): written off the page's
   * thread, by a worker; or, as the page goes (`leaving`), started and committed in this task.
   */
  autosave?: (id: string, name: string, text: string, leaving: boolean, editedAt?: number) => Promise<void>;
  remove: (id: string) => Promise<void>;
  /** The graph saved last in any tab, for a tab that has none of its own. */
  lastSaved: () => Promise<string | undefined>;
  /** Present when the graphs are a folder's files. */
  files?: FileLibrary;
}

/** The synchronous storages: this tab's open graph (sessionStorage) and the save journal (localStorage). */
export type SyncStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> & Partial<Pick<Storage, 'key' | 'length'>>;

export const JOURNAL_PREFIX = 'loopscope.journal.';
const DEBOUNCE_MS = 300;
const STORAGE_TIMEOUT_MS = 3000;

/**
 * The library in IndexedDB (indexedDbLibrary.ts), loaded on first use: the first screen's graph is
 * read by the page's first script (earlyRead.ts), so the library's code comes with the saver,
 * unless that read could not say (no database of this version yet) and the library must upgrade it.
 */
const indexedDbOnFirstUse = (): LibraryStorage => {
  let library: LibraryStorage | null = null;
  let loading: Promise<LibraryStorage> | null = null;
  const load = () => (loading ??= import('./indexedDbLibrary.ts').then((module) => (library = module.indexedDbLibrary())));
  return {
    list: async () => (await load()).list(),
    read: async (id) => (await load()).read(id),
    // Once loaded, straight through: a save on `pagehide` must start its write in that turn.
    write: (id, name, text, editedAt) => (library ? library.write(id, name, text, editedAt) : load().then((loaded) => loaded.write(id, name, text, editedAt))),
    autosave: (...save) => (library ? library.autosave!(...save) : load().then((loaded) => loaded.autosave!(...save))),
    remove: async (id) => (await load()).remove(id),
    lastSaved: async () => (await load()).lastSaved(),
  };
};

/**
 * The library's health, shown to the person; the graph itself never depends on it. A failed write
 * clears once a write works; a lost restore stays until dismissed.
 */
export const useAutosave = create<{ error: string | null; restoreError: string | null }>()(() => ({ error: null, restoreError: null }));

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'unknown error';
export const fail = (what: string) => useAutosave.setState({ error: `Autosave failed: ${what}. Your graph is kept in memory.` });
export const failRestore = (text: string) => useAutosave.setState({ restoreError: text });

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Number.isFinite(ms) ? Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the browser storage did not answer')), ms))]) : promise;

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

/**
 * Writes a journal copy; whether it was written. At 10,000 nodes the copy as written (6.8M
 * characters) does not fit in Chromium's localStorage (5.2M), and a write to IndexedDB as the page
 * goes may not land: the same graph without the file's spacing (3.7M) is then all a reload finds.
 */
export const writeJournalEntry = (sync: SyncStorage, id: string, entry: JournalEntry): boolean => {
  const put = (text: string) => {
    sync.setItem(JOURNAL_PREFIX + id, JSON.stringify({ ...entry, text }));
    return true;
  };
  try {
    return put(entry.text);
  } catch {
    try {
      return put(JSON.stringify(JSON.parse(entry.text)));
    } catch {
      return false;
    }
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
  /**
   * How long a read of the library may take before the page gives up on it (IndexedDB can hang on
   * an upgrade another tab blocks); Infinity waits as long as the read goes on.
   */
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
export const memoryStorage = (): SyncStorage => {
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
  /** Writes the open graph now, even when it was written or opened as it is (Keep mine, Save again, Retry). */
  saveNow: () => Promise<void>;
  takeOver: (id: string) => Promise<void>;
  stop: () => void;
}

/** The library as this page reads and saves it, shared with the saver. */
export interface Persistence {
  options: ResolvedOptions;
  /** Per graph, the text saved last from this page. */
  lastSaved: Map<string, string>;
  /**
   * Per graph, the document its save holds (as opened, written, or read again from a file changed
   * on disk): saving it would write the same document, and while another is open the page holds an
   * unsaved edit.
   */
  openedAsSaved: Map<string, GraphFile>;
  /** The open document when persistence started: what changed since then the saver saves as it starts. */
  startedWith: { documentId: string; graph: GraphFile };
  saver: Saver | null;
  saving: Promise<Saver | null>;
  stopped: boolean;
}

let active: Persistence | null = null;
/** The library this page keeps, while it keeps one. */
export const activePersistence = () => active;

/** The entry's save, or the journal's where it is newer (the tab left before IndexedDB had it). */
const newestSave = (entry: SavedRead['entry'], journal: JournalEntry | null): { name?: string; text: string; schema?: string } | undefined =>
  journal && (!entry || journal.savedAt > entry.savedAt) ? journal : entry;

export type GraphParser = (text: string, schema: string | undefined) => Promise<ParseResult<GraphFile>>;
/**
 * With the editor on screen, a big save is parsed in a worker, so the page does not freeze
 * meanwhile; this page's own save only needs reading (ownSave.ts), sooner here than a worker's
 * answer is copied back.
 */
export const parseAside: GraphParser = async (text, schema) => (isOwnSave(schema) ? readSave(text, schema) : (await import('./offThread.ts')).parseOffThread({ kind: 'graph', text }));
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
  const backup = readJournal(journal, id);
  let entry = known?.entry;
  // Why the library did not answer, when this browser's backup copy of the last edit is opened instead.
  let unanswered: string | undefined;
  if (!known)
    try {
      entry = await withTimeout(library.read(id), timeoutMs);
    } catch (error) {
      unanswered = reasonOf(error);
      if (!backup) {
        failRestore(`Could not read the saved graph (${unanswered}). Your graph is kept in memory.`);
        return false;
      }
    }
  const latest = newestSave(entry, backup);
  if (latest === undefined) return false;
  const candidates: { text: string; schema?: string }[] = [latest, ...(entry && entry.text !== latest.text ? [entry] : [])];
  let firstProblem: string | null = null;
  let copies = false;
  for (const [index, { text, schema }] of candidates.entries()) {
    // A save is read as strictly as a file (it may have been written by an older or a tampered
    // page), but for one this very build wrote (ownSave.ts).
    const parsed = await parse(text, schema);
    if (!parsed.ok) {
      firstProblem ??= describeProblems(parsed.problems).split('\n')[0];
      // Its last good copies, read only now: the page's first read (earlyRead.ts) has the save alone.
      if (!copies && index === candidates.length - 1) {
        copies = true;
        for (const copy of entry?.copies ?? (await library.read(id).catch(() => undefined))?.copies ?? []) candidates.push({ text: copy });
      }
      continue;
    }
    // A text from the journal or a copy is not in IndexedDB yet: the save on opening puts it there.
    if (text === entry?.text) {
      active.lastSaved.set(id, text);
      active.openedAsSaved.set(id, parsed.value);
    }
    useApp.getState().openDocument(parsed.value, id);
    if (index > 0) failRestore(`The last save of "${parsed.value.name}" was damaged (${firstProblem}); its last good copy was opened.`);
    else if (unanswered) failRestore(`Opened from a backup copy: ${unanswered}.`);
    return true;
  }
  failRestore(`The saved graph "${latest.name ?? entry?.name}" is damaged and was not opened (${firstProblem}); it is kept as it was.`);
  return false;
};

/** Opens a graph as a new graph of the library (a link, a template): saved at once under a new id. */
export const openAsNewGraph = (graph: GraphFile) => useApp.getState().load(graph);

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
  // An early read that got no answer will not bring its parse either.
  if (id !== undefined && (await openFromLibrary(id, early ? parseHere : readSave, early?.id === id ? early : undefined))) return;
  const { findTemplate, DEFAULT_TEMPLATE_ID } = await loadTemplates();
  const fallback = findTemplate(DEFAULT_TEMPLATE_ID) ?? findTemplate('blank');
  if (fallback) useApp.getState().openDocument(fallback.graph(), newDocumentId());
};

/** Resolves once the saver has started (null when persistence stopped first). */
export const savingStarted = () => active?.saving ?? Promise.resolve(null);

/**
 * The library as this page will keep it, with the browser's storage where `options` names none; it
 * becomes the page's with `keepPersistence` (startPersistence.ts starts it with its saver).
 */
export const newPersistence = (options: Omit<PersistenceOptions, 'savingFrom'>): Persistence => {
  const { documentId, graph } = useApp.getState();
  return {
    options: {
      library: options.library ?? indexedDbOnFirstUse(),
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
};

/**
 * Makes `persistence` the page's library; returns what lets it go. Until the saver starts (after
 * the first screen), a graph opened or edited since the page loaded (a link, a template, an import)
 * is kept in the journal as the page goes, as the saver keeps one whose lock has not answered: the
 * next page opens it, and its saver writes it.
 */
export const keepPersistence = (persistence: Persistence) => {
  active = persistence;
  const { target, session, journal } = persistence.options;
  const keepUnsaved = () => {
    const { documentId: id, graph } = useApp.getState();
    if (persistence.saver || graph === persistence.startedWith.graph || persistence.openedAsSaved.get(id) === graph) return;
    try {
      session.setItem(OPEN_KEY, id);
    } catch {
      // Storage refused: the journal copy is still worth writing.
    }
    // The file's text (serialize.ts writes the same), without the serializer's code on the first screen.
    writeJournalEntry(journal, id, { name: graph.name, text: `${JSON.stringify(graph, null, 2)}\n`, savedAt: Date.now(), ...SAVE_STAMP });
  };
  target.addEventListener('pagehide', keepUnsaved);
  return () => {
    target.removeEventListener('pagehide', keepUnsaved);
    if (active === persistence) active = null;
  };
};
