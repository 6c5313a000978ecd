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
import { builtSchemaOf, isStandIn, provideZod, type ZodModule } from './lazySchema.ts';

z.config(en());
z.config({ jitless: true });

/** A shape or a list of options with the stand-ins in it replaced by their schemas; the same value when it has none. */
const withBuilt = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || isStandIn(value)) return builtSchemaOf(value);
  if (Array.isArray(value)) return value.some(isStandIn) ? value.map(builtSchemaOf) : value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.entries(value);
  return entries.some(([, item]) => isStandIn(item)) ? Object.fromEntries(entries.map(([key, item]) => [key, builtSchemaOf(item)])) : value;
};

/**
 * zod as a schema's build sees it: every function given a stand-in (or a shape, or a list of
 * options holding some) gets the built schema instead. A schema built around stand-ins would pass
 * through them at every value it parses; a 10,000-step trace's parse took ~20 % longer so.
 */
const builder: ZodModule = new Proxy(z, {
  get: (target, key) => {
    const value = Reflect.get(target, key);
    // Its functions only: its classes (`ZodMiniObject`…) stay themselves, for `instanceof`.
    const isFunction = typeof value === 'function' && typeof key === 'string' && !/^[A-Z$]/.test(key);
    return isFunction ? (...args: unknown[]) => (value as (...given: unknown[]) => unknown)(...args.map(withBuilt)) : value;
  },
});
provideZod(builder);
