/**
 * A schema's quick yes: a plain predicate built from a zod schema's own definition, for input so
 * large that zod's interpreted parse is most of its cost (zod runs jitless here: see zod.ts). It
 * says only "valid"; anything it does not pass goes through `parseUntrusted`, which reports the
 * failing path as before. So it must never pass what the full parse would refuse: every limit of
 * untrusted.ts is kept too (values of no fixed shape get the same walk), and a schema it cannot
 * read in full (defaults, transforms, refinements) builds no predicate at all.
 */
import type * as z from 'zod/mini';
import { FORBIDDEN_KEYS } from './common.ts';
import type { InputLimits } from './untrusted.ts';

type Check = (value: unknown, depth: number) => boolean;

// zod's definitions, as far as read here (zod/v4/core: $ZodTypeDef and its checks).
interface Def {
  type: string;
  format?: string;
  checks?: { _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string } } }[];
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  keyType?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  discriminator?: string;
  entries?: Record<string, unknown>;
  values?: unknown[];
  getter?: () => z.ZodMiniType;
}

class Unreadable extends Error {}

/** An object's field that must be there, and one that may be undefined. */
const NEEDED = 1;
const OPTIONAL = 2;

/** The recursive schemas (`z.lazy`) being built: one met again inside itself checks with what it is becoming. */
const building = new Map<z.ZodMiniType, Check>();

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const numberCheck = (def: Def): ((value: number) => boolean) => {
  const tests: ((value: number) => boolean)[] = [];
  const formats: Record<string, (value: number) => boolean> = { safeint: Number.isSafeInteger };
  if (def.format !== undefined) {
    const format = formats[def.format];
    if (!format) throw new Unreadable(`number format ${def.format}`);
    tests.push(format);
  }
  for (const check of def.checks ?? []) {
    const { check: kind, value, inclusive } = check._zod.def;
    if (kind === 'greater_than' && typeof value === 'number') tests.push(inclusive ? (n) => n >= value : (n) => n > value);
    else if (kind === 'less_than' && typeof value === 'number') tests.push(inclusive ? (n) => n <= value : (n) => n < value);
    else throw new Unreadable(`number check ${kind}`);
  }
  return (value) => {
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
};

/**
 * The limits' walk (untrusted.ts `checkValue`) of a value of no fixed shape at `depth` of the
 * document, as a yes or no: the same limits, without the frames and paths only a refusal needs.
 * Recursion is bounded by the depth limit, checked before going down. Its objects are JSON's, whose
 * keys are all their own: `for…in` counts them without making a list of them.
 */
const withinLimits = (value: unknown, depth: number, limits: InputLimits): boolean => {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth > limits.depth) return false;
  if (Array.isArray(value)) {
    if (value.length > limits.items) return false;
    for (let at = 0; at < value.length; at += 1) if (!withinLimits(value[at], depth + 1, limits)) return false;
    return true;
  }
  let keys = 0;
  for (const key in value) {
    keys += 1;
    if (keys > limits.items || FORBIDDEN_KEYS.has(key) || !withinLimits((value as Record<string, unknown>)[key], depth + 1, limits)) return false;
  }
  return true;
};

const build = (schema: z.ZodMiniType, limits: InputLimits): Check => {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  // Refinements on anything but numbers (their checks are read above) are the full parse's to make.
  if (def.type !== 'number' && def.checks && def.checks.length > 0) throw new Unreadable(`checks on ${def.type}`);
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'number': {
      const fits = numberCheck(def);
      return (value) => typeof value === 'number' && Number.isFinite(value) && fits(value);
    }
    case 'literal': {
      const values = def.values ?? [];
      return (value) => values.includes(value);
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (value) => values.has(value as never);
    }
    case 'unknown':
      // No shape: the limits' walk, from this depth of the document on (the longer lists are the document's own).
      return (value, depth) => withinLimits(value, depth, limits);
    case 'nullable': {
      const inner = build(def.innerType!, limits);
      return (value, depth) => value === null || inner(value, depth);
    }
    case 'optional': {
      const inner = build(def.innerType!, limits);
      return (value, depth) => value === undefined || inner(value, depth);
    }
    case 'array': {
      const element = build(def.element!, limits);
      return (value, depth) => {
        if (!Array.isArray(value) || value.length > limits.items || depth > limits.depth) return false;
        for (const item of value) if (!element(item, depth + 1)) return false;
        return true;
      };
    }
    case 'record': {
      const key = (def.keyType as unknown as { _zod: { def: Def } })._zod.def;
      const item = (def.valueType as unknown as { _zod: { def: Def } })._zod.def;
      if (key.type !== 'string' || key.checks?.length || item.type !== 'unknown') throw new Unreadable('records other than of strings to unknown values');
      // The limits' walk covers its keys (their number, the forbidden ones) and its values.
      const walk = build(def.valueType!, limits);
      return (value, depth) => isRecord(value) && walk(value, depth);
    }
    case 'object': {
      if ((def.catchall as unknown as { _zod: { def: Def } } | undefined)?._zod.def.type !== 'never') throw new Unreadable('objects that allow unknown keys');
      // Each key the value has is looked up by name (work for the keys it has, not for every field
      // it may have), with a null prototype: a key named as something every object inherits
      // (`toString`) is a field or nothing.
      const checks: Record<string, Check> = Object.create(null);
      const needed: Record<string, true> = Object.create(null);
      const optional: Record<string, true> = Object.create(null);
      let required = 0;
      for (const [name, field] of Object.entries(def.shape ?? {})) {
        // An optional field is checked by what it wraps, undefined passing in the loop below: a call fewer for each.
        const fieldDef = (field as unknown as { _zod: { def: Def } })._zod.def;
        if (fieldDef.type === 'optional') {
          optional[name] = true;
          checks[name] = build(fieldDef.innerType!, limits);
          continue;
        }
        const check = build(field, limits);
        checks[name] = check;
        // What else may be left out: a field whose check takes undefined (unknown).
        if (!check(undefined, 0)) {
          needed[name] = true;
          required += 1;
        }
      }
      // The keys of the objects met before, in their order, with their checks. A long trace's objects
      // are written alike (the same keys in the same order), and a key compared with the one met at
      // its place before (JSON's keys are interned: a pointer compare) is found without a lookup by
      // name, the larger part of this check's time on the page. A key met in another place is
      // looked up and takes that place.
      // Each key's part: needed (counted), optional (undefined passes) or neither.
      const order: string[] = [];
      const orderChecks: Check[] = [];
      const orderParts: number[] = [];
      return (value, depth) => {
        if (!isRecord(value) || depth > limits.depth) return false;
        let present = 0;
        let at = 0;
        for (const name in value) {
          if (order[at] !== name) {
            const check = checks[name];
            if (check === undefined) return false;
            order.length = orderChecks.length = orderParts.length = at;
            order.push(name);
            orderChecks.push(check);
            orderParts.push(needed[name] === true ? NEEDED : optional[name] === true ? OPTIONAL : 0);
          }
          const field = (value as Record<string, unknown>)[name];
          const part = orderParts[at];
          if (!(field === undefined && part === OPTIONAL) && !orderChecks[at](field, depth + 1)) return false;
          if (part === NEEDED) present += 1;
          at += 1;
        }
        return present === required;
      };
    }
    case 'lazy': {
      const open = building.get(schema);
      if (open) return open;
      let inner: Check = () => false;
      const check: Check = (value, depth) => inner(value, depth);
      building.set(schema, check);
      try {
        inner = build(def.getter!(), limits);
      } finally {
        building.delete(schema);
      }
      return check;
    }
    case 'union': {
      const byTag = def.discriminator === undefined ? null : tagged(def.discriminator, def.options ?? [], limits);
      if (byTag) return (value, depth) => isRecord(value) && (byTag.get(value[def.discriminator!])?.(value, depth) ?? false);
      const options = (def.options ?? []).map((option) => build(option, limits));
      return (value, depth) => {
        for (const option of options) if (option(value, depth)) return true;
        return false;
      };
    }
    default:
      throw new Unreadable(def.type);
  }
};

/**
 * A discriminated union's options by the value of their tag (`is` of a reason), so a value is checked
 * against the one option it names instead of each in turn; null unless every option is a strict
 * object whose tag is one literal of its own, when trying each in turn says the same.
 */
const tagged = (tag: string, options: z.ZodMiniType[], limits: InputLimits): Map<unknown, Check> | null => {
  const byTag = new Map<unknown, Check>();
  for (const option of options) {
    const def = (option as unknown as { _zod: { def: Def } })._zod.def;
    const field = (def.shape?.[tag] as unknown as { _zod: { def: Def } } | undefined)?._zod.def;
    if (def.type !== 'object' || field?.type !== 'literal' || field.values?.length !== 1 || byTag.has(field.values[0])) return null;
    byTag.set(field.values[0], build(option, limits));
  }
  return byTag;
};

/**
 * A predicate passing only values the schema (and the input limits, at `depth` of the document)
 * accepts unchanged, or null when the schema holds anything it cannot read that way.
 */
export const quickCheck = (schema: z.ZodMiniType, limits: InputLimits): ((value: unknown, depth: number) => boolean) | null => {
  try {
    return build(schema, limits);
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
};
