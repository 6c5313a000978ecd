/** For tests of the library's reads: a browser's database as version 1 of the app left it. */
import { DB_NAME } from './libraryDb.ts';

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
