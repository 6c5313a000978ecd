/**
 * The page's first script, loaded on its own ahead of the others (vite.config.ts puts it in the
 * page): the saved graph is read from IndexedDB while the rest of the page loads.
 */
import { readSavedEarly } from '../persistence/earlyRead.ts';

readSavedEarly();
