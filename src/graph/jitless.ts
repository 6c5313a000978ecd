/**
 * zod without its `new Function` fast paths. The page's Content Security Policy allows no eval,
 * and zod's probe for it would be reported as a violation. zod decides when a schema is built, so
 * this runs first: imported at the top of every entry (the app, the workers) and by common.ts.
 * The schemas are built with zod/mini (classic zod attaches its JSON Schema converter to every
 * schema, 22 KB gzip of the first screen); mini has no default locale, so English is set here.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
z.config({ jitless: true });
