/**
 * zod without its `new Function` fast paths. The page's Content Security Policy allows no eval,
 * and zod's probe for it would be reported as a violation. zod decides when a schema is built, so
 * this runs first: imported at the top of every entry (the app, the workers) and by common.ts.
 */
import { z } from 'zod';

z.config({ jitless: true });
