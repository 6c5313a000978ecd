/** Writes autosaves into the library off the page's thread (saveAside.ts), with the page's own write (libraryWrite.ts). */
import { DB_NAME, DB_VERSION } from './libraryDb.ts';
import { writeSave } from './libraryWrite.ts';

let opening: Promise<IDBDatabase | null> | null = null;
/** The database as the page made it; null where it is not made or upgraded yet (the page does that, with all it needs). */
const open = () =>
  (opening ??= new Promise((resolve) => {
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => req.transaction?.abort();
    req.onsuccess = () => {
      const db = req.result;
      // Another page upgrading it: let it, and open again on the next save.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    req.onerror = () => {
      opening = null;
      resolve(null);
    };
    req.onblocked = () => {
      opening = null;
      resolve(null);
    };
  }));

onmessage = async ({ data: { seq, id, name, text } }: MessageEvent<{ seq: number; id: string; name: string; text: string }>) => {
  const db = await open();
  if (!db) return postMessage({ seq, unopened: true });
  try {
    await writeSave(db, id, name, text);
    postMessage({ seq, ok: true });
  } catch (error) {
    const { name: kind = 'Error', message = String(error) } = error instanceof Error || error instanceof DOMException ? error : {};
    postMessage({ seq, ok: false, name: kind, message });
  }
};
