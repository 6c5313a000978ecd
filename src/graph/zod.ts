/**
 * zod as the app's schemas use it, configured once: every module that builds a schema imports `z`
 * from here, never from 'zod/mini' itself, so the configuration has run before any schema exists.
 *
 * zod runs without its `new Function` fast paths: the page's Content Security Policy allows no
 * eval, and zod's probe for it would be reported as a violation. The schemas are built with
 * zod/mini (classic zod attaches its JSON Schema converter to every schema, 22 KB gzip); mini has no
 * default locale, so English is set here.
 *
 * The page's first screen never reaches this module: what it draws comes from zod-free modules
 * (the kind definitions, src/graph/index.ts), and what parses or checks loads behind a dynamic
 * import at the edge where it is needed (opening a file, validation, the panels, the runtime).
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
z.config({ jitless: true });

export { z };
