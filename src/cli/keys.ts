import { type GraphFile } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import type { KeyRing } from '../skills/index.ts';

/** An environment variable name, as `--key` takes it. */
export const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Which variables `--key` allows, each to the origins it was bound to (`NAME@ORIGIN`) or to any (`NAME`). */
export type AllowedKeys = ReadonlyMap<string, ReadonlySet<string> | 'any origin'>;

/**
 * `--key NAME` or `--key NAME@https://api.example.com`: the variable, and where it may go. The
 * origin binds the key to that service, so a file that points its baseUrl elsewhere gets nothing.
 */
export const readKeyFlag = (value: string | undefined): { name: string; origin: string | null } | { refused: string } => {
  const at = value?.indexOf('@') ?? -1;
  const name = at < 0 ? value : value!.slice(0, at);
  if (!name || !KEY_NAME.test(name)) return { refused: '--key needs the NAME of an environment variable, optionally NAME@ORIGIN' };
  if (at < 0) return { name, origin: null };
  const given = value!.slice(at + 1);
  const origin = /^https?:\/\//.test(given) ? originOf(given) : null;
  if (!origin || origin !== given.replace(/\/$/, '')) return { refused: `--key ${name}@… needs an origin such as https://api.openai.com, got "${given}"` };
  return { name, origin };
};

/** Adds one `--key` to what is allowed: a bare NAME widens to any origin, NAME@ORIGIN adds that origin. */
export const allowKey = (allowed: AllowedKeys, name: string, origin: string | null): AllowedKeys => {
  const before = allowed.get(name);
  const after = origin === null || before === 'any origin' ? 'any origin' : new Set([...(before ?? []), origin]);
  return new Map([...allowed, [name, after]]);
};

/**
 * Keys from the environment, and only those the person named with `--key`: a file can name any
 * variable (`GITHUB_TOKEN`) and any baseUrl; without the flag, or to another origin than the one
 * the flag names, the call is refused before anything is sent.
 */
export const environmentKeys = (env: Readonly<Record<string, string | undefined>>, allowed: AllowedKeys): KeyRing => (name, origin) => {
  const origins = allowed.get(name);
  if (!origins) return { refused: `the environment variable ${name} is sent to ${origin} only with --key ${name}@${origin}` };
  if (origins !== 'any origin' && !origins.has(origin)) return { refused: `--key lets ${name} go to ${[...origins].join(', ')} only, not to ${origin}` };
  const key = env[name];
  return key ? { key } : { refused: `--key ${name} was given but the environment variable ${name} is not set` };
};

/**
 * A served graph runs on the LangGraph server, which gets the variable itself and cannot hold it
 * to an origin: so a key bound to an origin is checked against the graph before it starts. A file's
 * baseUrl is fixed in the file, so the check is complete. Says which skill would send it elsewhere.
 */
export const keysToOtherOrigins = (graph: GraphFile, allowed: AllowedKeys): string | null => {
  for (const [id, skill] of Object.entries(graph.skills ?? {})) {
    if (skill.type !== 'llm' || !skill.apiKeyName) continue;
    const origins = allowed.get(skill.apiKeyName);
    if (!origins || origins === 'any origin') continue;
    const origin = originOf(skill.baseUrl) ?? skill.baseUrl;
    if (!origins.has(origin)) return `skill ${id} sends ${skill.apiKeyName} to ${origin}, and --key allows ${[...origins].join(', ')} only`;
  }
  return null;
};
