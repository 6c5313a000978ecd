import type { GraphFile } from '../schema.ts';
import blank from './blank.json';

/**
 * The empty graph, on its own: the store starts with it and New graph opens it, while the other
 * templates' JSON loads only when one is opened (a reload opens the autosave and needs none of them).
 * Its JSON is written with every default in it, as the parser gives it back (a test checks), so it
 * is copied rather than parsed: the store makes it as the page starts, where its parse (zod's parsing
 * code run for the first time, ~12 ms in a trace of the first screen) held the page's thread, and a
 * page opening its own autosave parses nothing else (src/persistence/ownSave.ts).
 */
export const blankGraph = (): GraphFile => structuredClone(blank) as GraphFile;
