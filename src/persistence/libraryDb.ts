/**
 * Where the graph library lives in IndexedDB, and the read that opens a tab's graph. Small and
 * with no imports, so the page's first script can read the save while the rest of the page loads
 * (earlyRead.ts); persistence.ts keeps the library (writes, upgrades, the list).
 */

export interface LibraryEntry {
  id: string;
  name: string;
  /** When it was last saved (ms since 1970). */
  savedAt: number;
  text: string;
  /**
   * The saves it replaced, newest first: what a damaged save falls back to. Kept in a store of their
   * own since version 3 (COPIES_STORE), so that a save neither reads nor writes them again.
   */
  copies: string[];
  /** The `GRAPH_SCHEMA` of the page that wrote `text`, a serialization of a graph it had read (absent from older saves). */
  schema?: string;
}

declare const __GRAPH_SCHEMA__: string | undefined;
/**
 * The fingerprint of this build's graph layer (scripts/graphSchemaStamp.ts), put in by the build;
 * null where nothing put it in (code run by Node alone), and then no save is taken on trust.
 */
export const GRAPH_SCHEMA: string | null = typeof __GRAPH_SCHEMA__ === 'string' ? __GRAPH_SCHEMA__ : null;
/** What this page's saves carry: the fingerprint of the graph layer that read the graph (ownSave.ts). */
export const SAVE_STAMP = GRAPH_SCHEMA === null ? {} : { schema: GRAPH_SCHEMA };

export const DB_NAME = 'loopscope';
export const DB_VERSION = 3;
export const LIBRARY_STORE = 'library';
/** Version 3: the replaced saves (libraryWrite.ts, `KeptCopy`). */
export const COPIES_STORE = 'copies';
export const META_STORE = 'meta';
/** In the meta store: the id of the graph saved last in any tab. */
export const LAST_KEY = 'last';
/** In sessionStorage: the id of the graph this tab has open. */
export const OPEN_KEY = 'loopscope.open';

/** An IndexedDB request as a promise: the one wrapper, for the library and the run sessions (runSessions.ts) alike. */
export const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

/** A tab's graph as read from the library: its id (the tab's own, else the one saved last) and its entry, if any, without its copies. */
export interface SavedRead {
  id: string | undefined;
  entry: (Omit<LibraryEntry, 'copies'> & Partial<LibraryEntry>) | undefined;
}

/**
 * Reads the graph under `id` (the one saved last when none is given), or null where this read
 * cannot say: no database of this version yet (it is never created or upgraded here, the page
 * does that with all it needs), another tab upgrading it, or storage refused.
 */
export const readSaved = (factory: IDBFactory, id: string | undefined): Promise<SavedRead | null> =>
  new Promise((resolve) => {
    let req: IDBOpenDBRequest;
    try {
      req = factory.open(DB_NAME, DB_VERSION);
    } catch {
      return resolve(null);
    }
    req.onupgradeneeded = () => req.transaction?.abort();
    req.onblocked = () => resolve(null);
    req.onerror = () => resolve(null);
    req.onsuccess = () => {
      const db = req.result;
      const done = (read: SavedRead | null) => {
        db.close();
        resolve(read);
      };
      try {
        const tx = db.transaction([LIBRARY_STORE, META_STORE], 'readonly');
        const lookUp = (key: string) =>
          request(tx.objectStore(LIBRARY_STORE).get(key)).then((entry) => done({ id: key, entry: entry as SavedRead['entry'] }));
        if (id !== undefined) void lookUp(id).catch(() => done(null));
        else
          void request(tx.objectStore(META_STORE).get(LAST_KEY))
            .then((last) => (typeof last === 'string' ? lookUp(last) : done({ id: undefined, entry: undefined })))
            .catch(() => done(null));
      } catch {
        done(null);
      }
    };
  });
