import type { When } from './when.ts';

const OP_WORDS: Record<string, string> = { eq: '=', ne: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'in', contains: 'contains' };

const short = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 24 ? `${text.slice(0, 23)}…` : text;
};

const lastSegment = (path: string) => path.split('.').pop() ?? path;

/** A condition in words, short enough for an edge label: `plan_exhausted = true`, `outcome: error`. */
export const describeWhen = (when: When | undefined): string => {
  if (when === undefined || when === 'always') return 'always';
  if (when === 'otherwise') return 'otherwise';
  if ('outcome' in when) return `outcome: ${when.outcome}`;
  if ('path' in when) {
    const field = lastSegment(when.path);
    if (when.op === 'exists') return `${field} exists`;
    if (when.op === 'empty') return `${field} is empty`;
    return `${field} ${OP_WORDS[when.op]} ${short(when.value)}`;
  }
  if ('all' in when) return when.all.map(describeOperand).join(' and ');
  if ('any' in when) {
    // Any of several outcomes reads as the outcome rows name them, once: `outcome: error or max_iter`.
    const outcomes = when.any.flatMap((operand) => (typeof operand === 'object' && 'outcome' in operand ? [operand.outcome] : []));
    if (outcomes.length === when.any.length) return `outcome: ${outcomes.join(' or ')}`;
    return when.any.map(describeOperand).join(' or ');
  }
  return `not (${describeWhen(when.not)})`;
};

/** A group inside a group keeps its parentheses: `(a or b) and c` must not read as `a or b and c`. */
const describeOperand = (when: When): string =>
  typeof when === 'object' && ('all' in when || 'any' in when) ? `(${describeWhen(when)})` : describeWhen(when);

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
