/**
 * A save written into the library (version 3): the new text in its entry, the text it replaces
 * among the copies, the copies beyond COPIES_KEPT dropped by key alone, and the save read back to
 * check it. With no imports but the database's names, so the save worker (save.worker.ts) writes
 * with the very code the page does.
 */
import { completion } from './idbTransaction.ts';
import { COPIES_STORE, LAST_KEY, LIBRARY_STORE, META_STORE, request, SAVE_STAMP, type LibraryEntry } from './libraryDb.ts';

/** How many earlier saves each graph keeps. */
export const COPIES_KEPT = 3;

/** A kept copy, in COPIES_STORE under a number that grows with each copy kept. */
export interface KeptCopy {
  graph: string;
  savedAt: number;
  text: string;
}
/** The index of COPIES_STORE by graph: a graph's copies, oldest first. */
export const BY_GRAPH = 'graph';

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

/**
 * The new entry is put in this task, and the text it replaces, read first, goes among the copies
 * once read. As the page goes (`leaving`), nothing is read: the transaction is committed in this
 * task, so that it lands however soon the page is gone, and the copies stay as they were.
 */
const put = (db: IDBDatabase, id: string, name: string, text: string, editedAt: number | undefined, leaving: boolean) => {
  const tx = db.transaction([LIBRARY_STORE, COPIES_STORE, META_STORE], 'readwrite');
  const library = tx.objectStore(LIBRARY_STORE);
  // What the write itself threw (a full storage can refuse a put at once): thrown out of a request's
  // handler, the browser would abort with "Uncaught exception in event handler" and lose it.
  let refused: unknown = null;
  const refuse = (error: unknown) => {
    refused = error;
    tx.abort();
  };
  const done = completion(tx).catch((error: unknown) => Promise.reject(refused ?? error));
  const previous = leaving ? null : library.get(id);
  try {
    library.put({ id, name, savedAt: editedAt ?? Date.now(), text, ...SAVE_STAMP } satisfies Omit<LibraryEntry, 'copies'>);
    // As the page goes nothing more is read: that page's graph is the one saved last.
    if (editedAt === undefined || leaving) tx.objectStore(META_STORE).put(id, LAST_KEY);
    else lastIfNewer(tx, id, editedAt);
    if (leaving) tx.commit();
  } catch (error) {
    refuse(error);
    return done;
  }
  if (previous)
    previous.onsuccess = () => {
      const old = previous.result as LibraryEntry | undefined;
      if (!old || old.text === text) return;
      try {
        // The copies already kept are neither read nor written again: only the replaced text, and the keys of those past COPIES_KEPT.
        const copies = tx.objectStore(COPIES_STORE);
        copies.put({ graph: id, savedAt: old.savedAt, text: old.text } satisfies KeptCopy);
        const keys = copies.index(BY_GRAPH).getAllKeys(id);
        keys.onsuccess = () => {
          for (const key of keys.result.slice(0, -COPIES_KEPT)) copies.delete(key);
        };
      } catch (error) {
        refuse(error);
      }
    };
  return done;
};

/** The text saved under `id`, with nothing of its copies. */
export const readText = async (db: IDBDatabase, id: string) =>
  ((await request(db.transaction(LIBRARY_STORE, 'readonly').objectStore(LIBRARY_STORE).get(id))) as LibraryEntry | undefined)?.text;

/** Saves, and reads the save back to check it. The transaction starts in this task: a save on `pagehide` gets in. */
export const writeSave = async (db: IDBDatabase, id: string, name: string, text: string, editedAt?: number, leaving = false) => {
  await put(db, id, name, text, editedAt, leaving);
  if ((await readText(db, id)) !== text) throw new Error('the saved graph did not read back the same');
};
