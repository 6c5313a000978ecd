/**
 * API keys typed into the app. They live only in this module's memory: never in the graph,
 * the store (which autosave and export read), a trace or a log. A reload forgets them.
 */
const keys = new Map<string, string>();

/** Keyed by the skill's `apiKeyName` when it has one, so skills sharing a key name share the key. */
export const secretKeyOf = (skillName: string, apiKeyName?: string) => apiKeyName || `skill:${skillName}`;

export const getSecret = (key: string): string | undefined => keys.get(key);

export const setSecret = (key: string, value: string) => {
  if (value) keys.set(key, value);
  else keys.delete(key);
};

export const hasSecret = (key: string) => keys.has(key);
