/**
 * A reason (reason.ts) short enough for an edge's label: the condition only, its field by its last
 * segment, its operator as a sign. The full words are reasonWords.ts's, which use `show` from here.
 */
import type { Reason } from './reason.ts';

/** A value as a reason shows it: JSON, or `missing` when nothing was there. */
export const show = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value));

const OP_SIGNS: Record<string, string> = { eq: '=', ne: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'in', contains: 'contains' };

const short = (value: unknown): string => {
  const text = show(value);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
};

/** A group inside a group keeps its parentheses: `(a or b) and c` must not read as `a or b and c`. */
const operandLabel = (reason: Reason): string => (reason.is === 'all' || reason.is === 'any' ? `(${reasonLabel(reason)})` : reasonLabel(reason));

/** A reason short enough for an edge's label, the condition only: `plan_exhausted = true`, `outcome: error or max_iter`. */
export const reasonLabel = (reason: Reason): string => {
  switch (reason.is) {
    case 'otherwise':
      return 'otherwise';
    case 'outcome':
      return `outcome: ${reason.expected}`;
    case 'field': {
      const field = reason.path.split('.').pop() ?? reason.path;
      if (reason.operator === 'exists') return `${field} exists`;
      if (reason.operator === 'empty') return `${field} is empty`;
      return `${field} ${OP_SIGNS[reason.operator]} ${short(reason.expected)}`;
    }
    case 'all':
      return reason.parts.map(operandLabel).join(' and ');
    case 'any': {
      // Any of several outcomes reads as the outcome rows name them, once: `outcome: error or max_iter`.
      const outcomes = reason.parts.flatMap((part) => (part.is === 'outcome' ? [part.expected] : []));
      if (outcomes.length === reason.parts.length) return `outcome: ${outcomes.join(' or ')}`;
      return reason.parts.map(operandLabel).join(' or ');
    }
    case 'not':
      return `not (${reasonLabel(reason.part)})`;
    case 'too_deep':
      return `nested deeper than ${reason.limit} levels`;
    case 'always':
      return 'always';
    default:
      // Not a condition (a route, a router, old words): what is drawn is the condition, so these have no label.
      return '';
  }
};

