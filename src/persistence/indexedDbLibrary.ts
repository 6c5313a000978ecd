/**
 * The graph library in IndexedDB: opened (and upgraded from versions 1 and 2) on first use, written
 * with the replaced text kept among the last good copies, read back to check each write
 * (libraryWrite.ts); an autosave is written by a worker (saveAside.ts). Loaded on first
 * use (persistence.ts): the first screen's save is read by the page's first script.
 */
import { newDocumentId } from '../store/graphSlice.ts';
import { COPIES_STORE, DB_NAME, DB_VERSION, LAST_KEY, LIBRARY_STORE, META_STORE, request, type LibraryEntry } from './libraryDb.ts';
import { own, readJson } from '../graph/index.ts';
import { completion } from './idbTransaction.ts';
import { BY_GRAPH, writeSave, type KeptCopy } from './libraryWrite.ts';
import { saveWorker } from './saveAside.ts';
import type { LibraryStorage } from './persistence.ts';

/** The name a damaged or old save gives itself, read within the input limits; a stand-in when it has none. */
const nameIn = (text: string) => {
  const json = readJson(text);
  const name = json.ok && json.value !== null && typeof json.value === 'object' ? own(json.value as Record<string, unknown>, 'name') : undefined;
  return typeof name === 'string' ? name : 'Restored graph';
};

/** The version 1 autosave: one graph under one key, taken into the library on upgrade. */
const LEGACY_STORE = 'graphs';
const LEGACY_KEY = 'autosave';
/** Version 1 kept one autosave; it becomes the library's first graph. Version 2 kept each graph's copies in its entry: they move to a store of their own. */
const upgrade = (db: IDBDatabase, tx: IDBTransaction, oldVersion: number) => {
  const library = db.objectStoreNames.contains(LIBRARY_STORE) ? tx.objectStore(LIBRARY_STORE) : db.createObjectStore(LIBRARY_STORE, { keyPath: 'id' });
  if (!db.objectStoreNames.contains(META_STORE)) db.createObjectStore(META_STORE);
  if (!db.objectStoreNames.contains(COPIES_STORE)) {
    // Numbered as they are kept: a graph's copies by its index are oldest first.
    const copies = db.createObjectStore(COPIES_STORE, { autoIncrement: true });
    copies.createIndex(BY_GRAPH, 'graph');
    library.openCursor().onsuccess = (event) => {
      const cursor = (event.target as IDBRequest<IDBCursorWithValue | null>).result;
      if (!cursor) return;
      const { copies: kept = [], ...entry } = cursor.value as LibraryEntry;
      // Newest first in the entry: kept oldest first. Their times were not kept; each is put a millisecond before the one it was replaced by.
      kept.toReversed().forEach((text, index) => copies.put({ graph: entry.id, savedAt: entry.savedAt - kept.length + index, text } satisfies KeptCopy));
      cursor.update(entry);
      cursor.continue();
    };
  }
  if (oldVersion < 1 || !db.objectStoreNames.contains(LEGACY_STORE)) return;
  const legacy = tx.objectStore(LEGACY_STORE).get(LEGACY_KEY);
  legacy.onsuccess = () => {
    if (typeof legacy.result === 'string') {
      const id = newDocumentId();
      library.put({ id, name: nameIn(legacy.result), savedAt: Date.now(), text: legacy.result });
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
    const tx = db.transaction([LIBRARY_STORE, COPIES_STORE], 'readonly');
    const [entry, copies] = await Promise.all([request(tx.objectStore(LIBRARY_STORE).get(id)), request(tx.objectStore(COPIES_STORE).index(BY_GRAPH).getAll(id))]);
    if (entry === undefined) return undefined;
    // An entry put by hand as version 2 wrote it (a test, the bench) may still hold copies of its own.
    const own = (entry as Partial<LibraryEntry>).copies ?? [];
    return { ...(entry as LibraryEntry), copies: [...own, ...(copies as KeptCopy[]).map((copy) => copy.text).reverse()] };
  };
  const write = (id: string, name: string, text: string, editedAt?: number, leaving = false) =>
    // The transaction starts in this turn when the database is open: a save on `pagehide` gets in.
    opened ? writeSave(opened, id, name, text, editedAt, leaving) : open().then((db) => writeSave(db, id, name, text, editedAt, leaving));
  /** The browser's own library has the save worker; a library on another factory (a test's) writes here. */
  const aside = factory === globalThis.indexedDB && typeof Worker !== 'undefined' ? saveWorker() : null;
  return {
    list: async () => {
      const db = await open();
      const entries = (await request(db.transaction(LIBRARY_STORE, 'readonly').objectStore(LIBRARY_STORE).getAll())) as LibraryEntry[];
      return entries.map(({ id, name, savedAt }) => ({ id, name, savedAt })).sort((a, b) => b.savedAt - a.savedAt);
    },
    read,
    write,
    autosave: (id, name, text, leaving, editedAt) => {
      if (leaving || !aside) return write(id, name, text, editedAt, leaving);
      // Opened here too, meanwhile: the page's last save, as it goes, cannot wait for the database to open.
      void open().catch(() => undefined);
      return aside({ kind: 'library', id, name, text, ...(editedAt === undefined ? {} : { editedAt }) }, () => write(id, name, text, editedAt));
    },
    remove: async (id) => {
      const db = await open();
      const tx = db.transaction([LIBRARY_STORE, COPIES_STORE], 'readwrite');
      tx.objectStore(LIBRARY_STORE).delete(id);
      const copies = tx.objectStore(COPIES_STORE);
      const keys = copies.index(BY_GRAPH).getAllKeys(id);
      keys.onsuccess = () => keys.result.forEach((key) => copies.delete(key));
      await completion(tx);
    },
    lastSaved: async () => {
      const db = await open();
      const id = await request(db.transaction(META_STORE, 'readonly').objectStore(META_STORE).get(LAST_KEY));
      return typeof id === 'string' ? id : undefined;
    },
  };
};

