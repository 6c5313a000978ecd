/**
 * API keys typed into the app. They live only in this module's memory: never in the graph,
 * the store (which autosave and export read), a trace or a log. A reload forgets them.
 * Each key is bound to the origin of the `baseUrl` it was typed for: a graph that points the same
 * key name at another origin does not get it, and the person is asked again.
 */
import type { KeyRing } from '../skills/index.ts';

/** Key name → origin → key. */
const keys = new Map<string, Map<string, string>>();

/** The name a key is kept under: the skill's `apiKeyName`, so skills sharing a key name share the key. */
export const keyNameOf = (skillName: string, apiKeyName?: string) => apiKeyName || `skill:${skillName}`;

export const getKey = (name: string, origin: string): string | undefined => keys.get(name)?.get(origin);

export const setKey = (name: string, origin: string, value: string) => {
  const byOrigin = keys.get(name) ?? new Map<string, string>();
  if (value) byOrigin.set(origin, value);
  else byOrigin.delete(origin);
  if (byOrigin.size > 0) keys.set(name, byOrigin);
  else keys.delete(name);
};

/** Origins a key of this name was given for. */
export const originsWithKey = (name: string): string[] => [...(keys.get(name)?.keys() ?? [])];

/** What runs read keys from: only the key given for the origin asking. */
export const keyRing: KeyRing = (name, origin) => {
  const key = getKey(name, origin);
  if (key) return { key };
  const elsewhere = originsWithKey(name);
  return {
    refused: elsewhere.length > 0
      ? `the key ${name} was given for ${elsewhere.join(', ')}, not for ${origin}: give it again for ${origin} to send it there`
      : `no key named ${name} was given for ${origin}`,
  };
};

/** Forgets every key (tests; a person can clear a field to forget one). */
export const forgetKeys = () => keys.clear();
