/**
 * Keys read from an environment (the command line's, or a LangGraph server's), each sent only
 * where the person allowed it: `NAME@ORIGIN` lets the variable NAME go to ORIGIN, a bare `NAME` to
 * whatever origin the graph names. A graph file can name any variable (`AWS_SECRET_ACCESS_KEY`)
 * and any baseUrl; without the person's allowance the call is refused before anything is sent.
 * The command line takes allowances from `--key`, an exported project from `LOOPSCOPE_KEYS` in its
 * `.env` (cli/export.ts), and `loopscope serve` hands its `--key`s to its server as `LOOPSCOPE_KEYS`.
 */
import { hasPlainHost, originOf } from '../graph/hosts.ts';
import { ENV_NAME } from '../graph/skills.ts';
import { visibleText } from '../graph/visible.ts';
import type { KeyRing } from './keys.ts';

/** Which variables may be sent, each to the origins it was bound to, or to any. */
export type AllowedKeys = ReadonlyMap<string, ReadonlySet<string> | 'any origin'>;

/** Where allowances come from, for the messages that say how to give one. */
export interface AllowanceSource {
  /** What gives one allowance: `--key`, or `LOOPSCOPE_KEYS`. */
  name: string;
  /** How to allow NAME for ORIGIN, as a person would write it. */
  allow: (name: string, origin: string) => string;
}

export const KEY_FLAG: AllowanceSource = { name: '--key', allow: (name, origin) => `--key ${name}@${origin}` };

/** The variable an exported project (and `loopscope serve`'s server) reads its allowances from. */
export const KEYS_VARIABLE = 'LOOPSCOPE_KEYS';

export const KEYS_IN_ENV: AllowanceSource = { name: KEYS_VARIABLE, allow: (name, origin) => `${KEYS_VARIABLE}=${name}@${origin} in the project's .env` };

/** One allowance, `NAME` or `NAME@ORIGIN` (`https://host[:port]`, nothing after it). */
export const readAllowance = (value: string | undefined, source: AllowanceSource = KEY_FLAG): { name: string; origin: string | null } | { refused: string } => {
  const at = value?.indexOf('@') ?? -1;
  const name = at < 0 ? value : value!.slice(0, at);
  if (!name || !ENV_NAME.test(name)) return { refused: `${source.name} needs the NAME of an environment variable, optionally NAME@ORIGIN${value ? `, got "${value}"` : ''}` };
  if (at < 0) return { name, origin: null };
  const given = value!.slice(at + 1);
  const origin = exactOrigin(given);
  if (!origin) return { refused: `${source.name} ${name}@… needs an origin such as https://api.openai.com, got "${given}"` };
  return { name, origin };
};

/** `https://host[:port]` as a person wrote it (a trailing slash allowed, nothing else after it) with a plain host, or null when it is not exactly such an origin. */
export const exactOrigin = (given: string): string | null => {
  const origin = /^https?:\/\//.test(given) ? originOf(given) : null;
  return origin && origin === given.replace(/\/$/, '') && hasPlainHost(new URL(origin)) ? origin : null;
};

/** Adds one allowance: a bare NAME widens to any origin, NAME@ORIGIN adds that origin. */
export const allowKey = (allowed: AllowedKeys, name: string, origin: string | null): AllowedKeys => {
  const before = allowed.get(name);
  const after = origin === null || before === 'any origin' ? 'any origin' : new Set([...(before ?? []), origin]);
  return new Map([...allowed, [name, after]]);
};

/** Allowances written as one value (`LOOPSCOPE_KEYS`): entries separated by commas or spaces. */
export const readAllowances = (text: string | undefined, source: AllowanceSource = KEYS_IN_ENV): { allowed: AllowedKeys } | { refused: string } => {
  let allowed: AllowedKeys = new Map();
  for (const entry of (text ?? '').split(/[\s,]+/).filter(Boolean)) {
    const read = readAllowance(entry, source);
    if ('refused' in read) return read;
    allowed = allowKey(allowed, read.name, read.origin);
  }
  return { allowed };
};

/**
 * The allowances as one value that `readAllowances` reads back: an entry holding a comma or a
 * space, which it would read as two (`NAME@https://a,OTHER`: OTHER to any origin), is refused.
 */
export const writeAllowances = (allowed: AllowedKeys): string => {
  const entries = [...allowed].flatMap(([name, origins]) => (origins === 'any origin' ? [name] : [...origins].map((origin) => `${name}@${origin}`)));
  const split = entries.find((entry) => /[\s,]/.test(entry));
  if (split !== undefined) throw new Error(`"${visibleText(split)}" cannot be one allowance of ${KEYS_VARIABLE}: it holds a comma or a space`);
  return entries.join(',');
};

/**
 * The key ring of an environment: a variable is sent only where an allowance lets it go. Only the
 * environment's own variables are read: `constructor` or `__proto__` never finds what every
 * object inherits.
 */
export const environmentKeys = (env: Readonly<Record<string, string | undefined>>, allowed: AllowedKeys, source: AllowanceSource = KEY_FLAG): KeyRing => (name, origin) => {
  const origins = allowed.get(name);
  if (!origins) return { refused: `the environment variable ${name} is sent to ${origin} only with ${source.allow(name, origin)}` };
  if (origins !== 'any origin' && !origins.has(origin)) return { refused: `${source.name} lets ${name} go to ${[...origins].join(', ')} only, not to ${origin}` };
  const key = Object.hasOwn(env, name) ? env[name] : undefined;
  return typeof key === 'string' && key ? { key } : { refused: `${source.name} allows ${name} but the environment variable ${name} is not set` };
};
