/**
 * The tab's saved graph, read from IndexedDB and parsed while the page's scripts load. The page's
 * first script (src/app/first.ts) starts the read; by the time the page's scripts have run, the save
 * is there, where read after them it waited for the database. The parse is made on the page's
 * thread, which is mostly idle while the page's entry loads and compiles: a worker that parsed the
 * save competed with that compiling for the cores and made the open no faster. The reader
 * (ownSave.ts: this build's own save is only read, any other parsed) is imported as the page's
 * entry imports it: both are in the first script's chunk (vite.config.ts, EARLY_MODULES), so a
 * dynamic import here would load nothing later and only put Vite's loader in its way.
 */
import type { ParseResult } from '../graph/index.ts';
import type { GraphFile } from '../graph/schema.ts';
import { OPEN_KEY, readSaved, type SavedRead } from './libraryDb.ts';
import { readSave } from './ownSave.ts';

let early: Promise<SavedRead | null> | null = null;
/** The database the read was started on: one read of it for the page, whoever starts it first. */
let readFrom: IDBFactory | null = null;
/** The saved text's parse, made as soon as both the text and the parser are in. */
let earlyParse: Promise<{ text: string; parsed: ParseResult<GraphFile> } | null> | null = null;

const openId = () => {
  try {
    return sessionStorage.getItem(OPEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

/** Starts the read, once. Where it cannot say (no IndexedDB, storage refused, a database to make or upgrade), the page reads the save itself. */
export const readSavedEarly = () => {
  if (typeof indexedDB === 'undefined' || readFrom === indexedDB) return;
  readFrom = indexedDB;
  early = readSaved(indexedDB, openId());
  // The parse too: the page's thread is mostly idle while the page's scripts load and compile. A save
  // of another build waits for the schemas (ownSave.ts), which load on their own.
  earlyParse = early
    .then(async (read) => {
      const entry = read?.entry;
      return entry === undefined ? null : { text: entry.text, parsed: await readSave(entry.text, entry.schema) };
    })
    // The schemas' or the parser's chunk not loaded: the page parses the save itself.
    .catch(() => null);
};

/** The early parse of `text`, or undefined when none was made of this very text (a newer journal, a copy). */
export const takeEarlyParse = async (text: string): Promise<ParseResult<GraphFile> | undefined> => {
  const made = await earlyParse;
  earlyParse = null;
  return made?.text === text ? made.parsed : undefined;
};

/** What the early read found, taken once: null when it could not say. */
export const takeEarlyRead = (): Promise<SavedRead | null> => {
  // The page's entry and its first script load together, and the entry may run first (seen in a
  // local preview, ~30 ms before it): the read starts here then, rather than the library's reading the save.
  readSavedEarly();
  const taken = early ?? Promise.resolve(null);
  early = null;
  return taken;
};
