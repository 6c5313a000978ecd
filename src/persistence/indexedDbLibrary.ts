/**
 * The graph library in IndexedDB: opened (and upgraded from version 1) on first use, written with
 * the replaced text kept among the last good copies, read back to check each write. Loaded on first
 * use (persistence.ts): the first screen's save is read by the page's first script.
 */
import { newDocumentId } from '../store/graphSlice.ts';
import { DB_NAME, DB_VERSION, LAST_KEY, LIBRARY_STORE, META_STORE, request, SAVE_STAMP, type LibraryEntry } from './libraryDb.ts';
import { own, readJson } from '../graph/index.ts';
import { completion } from './idbTransaction.ts';
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
/** How many earlier saves each graph keeps. */
export const COPIES_KEPT = 3;

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
  const put = (db: IDBDatabase, id: string, name: string, text: string, editedAt: number | undefined) => {
    const tx = db.transaction([LIBRARY_STORE, META_STORE], 'readwrite');
    const library = tx.objectStore(LIBRARY_STORE);
    const previous = library.get(id);
    // What the write itself threw (a full storage can refuse the put at once): thrown out of this
    // handler, the browser would abort with "Uncaught exception in event handler" and lose it.
    let refused: unknown = null;
    previous.onsuccess = () => {
      const old = previous.result as LibraryEntry | undefined;
      const copies = old ? (old.text === text ? old.copies : [old.text, ...old.copies].slice(0, COPIES_KEPT)) : [];
      try {
        library.put({ id, name, savedAt: editedAt ?? Date.now(), text, copies, ...SAVE_STAMP } satisfies LibraryEntry);
        if (editedAt === undefined) tx.objectStore(META_STORE).put(id, LAST_KEY);
        else lastIfNewer(tx, id, editedAt);
      } catch (error) {
        refused = error;
        tx.abort();
      }
    };
    return completion(tx).catch((error: unknown) => Promise.reject(refused ?? error));
  };
  /** The graph saved last becomes `id`, edited at `editedAt`, unless the one it is now was saved after that. */
  const lastIfNewer = (tx: IDBTransaction, id: string, editedAt: number) => {
    const meta = tx.objectStore(META_STORE);
    const last = meta.get(LAST_KEY);
    last.onsuccess = () => {
      if (typeof last.result !== 'string' || last.result === id) return void meta.put(id, LAST_KEY);
      const entry = tx.objectStore(LIBRARY_STORE).get(last.result);
      entry.onsuccess = () => {
        if (((entry.result as LibraryEntry | undefined)?.savedAt ?? 0) < editedAt) meta.put(id, LAST_KEY);
      };
    };
  };
  return {
    list: async () => {
      const db = await open();
      const entries = (await request(db.transaction(LIBRARY_STORE, 'readonly').objectStore(LIBRARY_STORE).getAll())) as LibraryEntry[];
      return entries.map(({ id, name, savedAt }) => ({ id, name, savedAt })).sort((a, b) => b.savedAt - a.savedAt);
    },
    read,
    write: async (id, name, text, editedAt) => {
      // The transaction starts in this turn when the database is open: a save on `pagehide` gets in.
      await (opened ? put(opened, id, name, text, editedAt) : open().then((db) => put(db, id, name, text, editedAt)));
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

