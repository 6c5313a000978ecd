/**
 * The graph layer's schemas are built on first use, with zod given to this module
 * (./zodProvided.ts) rather than imported by each schema's file. The page's first screen draws
 * nodes from the kind registry, whose definitions hold their schemas: built at the top of their
 * files, they brought zod (18 KB gzip) and the cost of building every schema (30–50 ms) onto the
 * first screen, which needs neither (a page's own save is read without its schemas: src/persistence/ownSave.ts).
 * A schema is therefore a stand-in that builds the real one at its first use and passes every use
 * on to it; the files that define schemas import zod's types only.
 *
 * Who uses a schema provides zod first: Node's entries, the workers and the runtime import
 * ./zodProvided.ts; the page loads it after its first screen (`loadSchemas`) and waits for it
 * where it needs a schema before then.
 */
import type * as Zod from 'zod/mini';

export type ZodModule = typeof Zod;

let provided: ZodModule | null = null;
let loading: Promise<void> | null = null;

/** Called once by ./zodProvided.ts, with zod configured and as a schema's build sees it. */
export const provideZod = (zod: ZodModule) => {
  provided = zod;
};

/** Whether schemas can be used now. */
export const schemasReady = () => provided !== null;

/** Loads zod where it is not loaded yet; resolves once schemas can be used. */
export const loadSchemas = (): Promise<void> => (provided ? Promise.resolve() : (loading ??= import('./zodProvided.ts').then(() => undefined)));

/** Each stand-in's way to its built schema. */
const builtOf = new WeakMap<object, () => object>();

export const isStandIn = (value: unknown): boolean => typeof value === 'object' && value !== null && builtOf.has(value);

/** A stand-in's built schema; any other value as it is. */
export const builtSchemaOf = (value: unknown): unknown => (typeof value === 'object' && value !== null && builtOf.get(value)?.()) || value;

const zod = (): ZodModule => {
  if (!provided) throw new Error('a graph schema was used before zod was loaded: import src/graph/zodProvided.ts in this entry, or await loadSchemas()');
  return provided;
};

/**
 * A schema built from `zod` on its first use. It stands in for the schema everywhere, as a value
 * of the schema's own type: parsing with it, wrapping it in another schema, reading its shape.
 */
/* @__NO_SIDE_EFFECTS__ */
export const lazySchema = <T extends object>(build: (z: ZodModule) => T): T => {
  let built: T | null = null;
  const real = (): T => (built ??= build(zod()));
  const standIn = new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: the stand-in's own (empty) target cannot hold a fixed property.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
  builtOf.set(standIn, real);
  return standIn;
};
