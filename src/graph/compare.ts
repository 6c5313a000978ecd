/** Field conditions' operators, apart from the schema (when.ts, which brings zod) and from the walk over a condition (reason.ts). */
const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);

/** What `{path, op, value}` says of the value found at `path`: the runtime's edge choice and validation's reading of a condition share it. */
export const compareOp = (op: string, actual: unknown, expected: unknown): boolean => {
  switch (op) {
    case 'eq':
      return JSON.stringify(actual) === JSON.stringify(expected);
    case 'ne':
      return JSON.stringify(actual) !== JSON.stringify(expected);
    case 'gt':
      return typeof actual === 'number' && typeof expected === 'number' && actual > expected;
    case 'gte':
      return typeof actual === 'number' && typeof expected === 'number' && actual >= expected;
    case 'lt':
      return typeof actual === 'number' && typeof expected === 'number' && actual < expected;
    case 'lte':
      return typeof actual === 'number' && typeof expected === 'number' && actual <= expected;
    case 'in':
      return Array.isArray(expected) && expected.some((item) => JSON.stringify(item) === JSON.stringify(actual));
    case 'contains':
      // The list at the path holds the value (`recovery.tried contains "expand_search_scope"`); anything but a list holds nothing.
      return Array.isArray(actual) && actual.some((item) => JSON.stringify(item) === JSON.stringify(expected));
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'empty':
      return isEmpty(actual);
    default:
      return false;
  }
};
