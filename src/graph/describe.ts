import { reasonOf } from './reason.ts';
import { reasonLabel } from './reasonLabel.ts';
import type { When } from './when.ts';

/** A condition in words, short enough for an edge label: `plan_exhausted = true`, `outcome: error`. */
export const describeWhen = (when: When | undefined): string => reasonLabel(reasonOf(when));

type FieldCondition = Extract<When, { path: string }>;

/** Every field condition inside a condition, with where it sits in it (`.all[1]`), through all/any/not. */
export const fieldConditionsOf = (when: When | undefined, at = ''): { condition: FieldCondition; at: string }[] => {
  if (when === undefined || typeof when === 'string' || 'outcome' in when) return [];
  if ('path' in when) return [{ condition: when, at }];
  if ('all' in when) return when.all.flatMap((inner, index) => fieldConditionsOf(inner, `${at}.all[${index}]`));
  if ('any' in when) return when.any.flatMap((inner, index) => fieldConditionsOf(inner, `${at}.any[${index}]`));
  return fieldConditionsOf(when.not, `${at}.not`);
};

/** Every field path a condition reads, for validation and for the inspector. */
export const pathsOf = (when: When | undefined): string[] => fieldConditionsOf(when).map(({ condition }) => condition.path);
