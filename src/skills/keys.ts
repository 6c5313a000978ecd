import type { KeyRing } from '../graph/skillTypes/types.ts';

// Defined with the context a runner is given (graph/skillTypes), which a definition's own runner reads too.
export type { KeyAnswer, KeyRing } from '../graph/skillTypes/types.ts';

/** Keys given in code (tests, scripts): each for exactly one origin. */
export const boundKeys =
  (keys: readonly { name: string; origin: string; key: string }[]): KeyRing =>
  (name, origin) => {
    const found = keys.find((entry) => entry.name === name && entry.origin === origin);
    return found ? { key: found.key } : { refused: `no key named ${name} was given for ${origin}` };
  };
