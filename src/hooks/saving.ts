/** The saver as the editor sees it: its health, a gesture holding it, a graph opened from the library (src/hooks/library.ts says why a module of its own). */
export { holdAutosave, openFromLibrary, reasonOf, savingStarted, useAutosave, type LibrarySummary } from '../persistence/persistence.ts';
