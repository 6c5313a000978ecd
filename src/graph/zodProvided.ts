/**
 * zod, configured and given to the graph layer's schemas (./lazySchema.ts). Imported by every
 * entry that uses schemas from its start (the command line, the workers, the runtime, the tests);
 * the page loads it after its first screen (`loadSchemas`).
 *
 * zod runs without its `new Function` fast paths: the page's Content Security Policy allows no
 * eval, and zod's probe for it would be reported as a violation. zod decides when a schema is
 * built, and the schemas are built after this module has run. The schemas are built with zod/mini
 * (classic zod attaches its JSON Schema converter to every schema, 22 KB gzip); mini has no
 * default locale, so English is set here.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { provideZod } from './lazySchema.ts';

z.config(en());
z.config({ jitless: true });
provideZod(z);
