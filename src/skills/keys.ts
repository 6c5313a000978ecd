/**
 * Where an llm skill gets its API key. A key is given for one origin (the `baseUrl` it was typed
 * for, or the command line's `--key NAME`); the ring answers with the key or with why none is sent.
 */
export type KeyAnswer = { key: string } | { refused: string };

export type KeyRing = (name: string, origin: string) => KeyAnswer;

/** Keys given in code (tests, scripts): each for exactly one origin. */
export const boundKeys =
  (keys: readonly { name: string; origin: string; key: string }[]): KeyRing =>
  (name, origin) => {
    const found = keys.find((entry) => entry.name === name && entry.origin === origin);
    return found ? { key: found.key } : { refused: `no key named ${name} was given for ${origin}` };
  };
