/** For tests of the library's reads: a browser's database as version 1 of the app, an older build or a tampered page left it. */
import { DB_NAME, DB_VERSION, LAST_KEY, LIBRARY_STORE, META_STORE, type LibraryEntry } from './libraryDb.ts';

/** A version 1 database holding `text` as its one autosave, as the library found it before graphs had entries. */
export const writeVersion1Autosave = (factory: IDBFactory, text: string) =>
  new Promise<void>((resolve, reject) => {
    const open = factory.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('graphs');
    open.onsuccess = () => {
      const tx = open.result.transaction('graphs', 'readwrite');
      tx.objectStore('graphs').put(text, 'autosave');
      tx.oncomplete = () => {
        open.result.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });

/** Puts an entry as it is given, as an older build (no `schema` stamp) or a tampered page may have left it. */
export const putEntry = (factory: IDBFactory, entry: LibraryEntry) =>
  new Promise<void>((resolve, reject) => {
    const open = factory.open(DB_NAME, DB_VERSION);
    open.onsuccess = () => {
      const tx = open.result.transaction(LIBRARY_STORE, 'readwrite');
      tx.objectStore(LIBRARY_STORE).put(entry);
      tx.oncomplete = () => {
        open.result.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
    open.onerror = () => reject(open.error);
  });

/** A version 2 database, as the library was before its copies had a store of their own: each entry holds its copies. */
export const writeVersion2Library = (factory: IDBFactory, entries: LibraryEntry[], last: string) =>
  new Promise<void>((resolve, reject) => {
    const open = factory.open(DB_NAME, 2);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(LIBRARY_STORE, { keyPath: 'id' });
      open.result.createObjectStore(META_STORE);
    };
    open.onsuccess = () => {
      const tx = open.result.transaction([LIBRARY_STORE, META_STORE], 'readwrite');
      for (const entry of entries) tx.objectStore(LIBRARY_STORE).put(entry);
      tx.objectStore(META_STORE).put(last, LAST_KEY);
      tx.oncomplete = () => {
        open.result.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
