import type * as z from 'zod/mini';
import { NODE_KINDS } from './kinds/index.ts';
import { migrate } from './migrations.ts';
import { formatPath, type ParseProblem, type ParseResult, type Path } from './problems.ts';
import { checkValue, readJson, type InputLimits } from './untrusted.ts';
import { LIMITS } from './limits.ts';
import { CURRENT_VERSION, GRAPH_FORMAT, GraphFile } from './schema.ts';

const typeName = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a${/^[aeiou]/.test(type) ? 'n' : ''} ${type}`;
};

const EXPECTED: Record<string, string> = {
  number: 'a number', int: 'a whole number', string: 'text (a string)', boolean: 'true or false',
  object: 'an object', array: 'an array', record: 'an object',
};

type Issue = z.core.$ZodIssue;

const ROOT_MISMATCH = new Set(['unrecognized_keys', 'invalid_type', 'invalid_value']);

/**
 * The branch of a failed union that explains the failure best: one whose shape fits the value,
 * with the fewest problems. None when no form fits at all.
 */
const bestBranch = (branches: Issue[][]): Issue[] | undefined =>
  branches
    .filter((branch) => !branch.some((issue) => issue.path.length === 0 && ROOT_MISMATCH.has(issue.code)))
    .sort((a, b) => a.length - b.length)[0];

const WHEN_FORMS =
  'expected "always", "otherwise", {"outcome": …}, {"path": …, "op": …, "value": …}, {"all": […]}, {"any": […]} or {"not": …}';

const issueProblems = (issue: Issue, base: Path): ParseProblem[] => {
  const path = [...base, ...issue.path];
  switch (issue.code) {
    case 'invalid_type': {
      const got = 'input' in issue ? typeName(issue.input) : 'something else';
      if (got === 'nothing') return [{ path: formatPath(path), message: `required: expected ${EXPECTED[issue.expected] ?? issue.expected}` }];
      return [{ path: formatPath(path), message: `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${got}` }];
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: formatPath([...path, key]), message: `unknown key "${key}" is not allowed here` }));
    case 'invalid_union': {
      if ('discriminator' in issue && issue.discriminator) {
        const given = 'input' in issue ? (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator] : undefined;
        return [{ path: formatPath(path), message: given === undefined ? `required: the ${issue.discriminator} is missing` : `unknown ${issue.discriminator} ${JSON.stringify(given)}${issue.discriminator === 'kind' ? ` (expected one of ${NODE_KINDS.join(', ')})` : ''}` }];
      }
      const inCondition = path.some((key) => key === 'when');
      const branch = bestBranch(issue.errors);
      if (!branch || branch.length === 0) return [{ path: formatPath(path), message: inCondition ? WHEN_FORMS : issue.message }];
      return branch.flatMap((inner) => issueProblems(inner, path));
    }
    case 'invalid_value':
      return [{ path: formatPath(path), message: `expected ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}` }];
    case 'too_small':
      return [{ path: formatPath(path), message: issue.origin === 'array' ? `needs at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}` : issue.origin === 'string' ? 'must not be empty' : `must be at least ${issue.minimum}` }];
    case 'too_big':
      return [{ path: formatPath(path), message: issue.origin === 'array' ? `has too many items: at most ${issue.maximum}` : `must be at most ${issue.maximum}` }];
    default:
      return [{ path: formatPath(path), message: issue.message }];
  }
};

/** Parses any value against a schema and reports every problem with its path. */
export const parseWith = <S extends z.ZodMiniType>(schema: S, value: unknown, base: Path = []): ParseResult<z.infer<S>> => {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.flatMap((issue) => issueProblems(issue, base)) };
};

const checked = (value: unknown, base: Path = [], limits: InputLimits = LIMITS): ParseResult<unknown> => {
  const problems = checkValue(value, limits, base);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
};

/**
 * A value from outside (JSON text, or a value already parsed) checked against the input limits,
 * then against a schema. Every way into the app goes through here or through `parseGraph`.
 */
export const parseUntrusted = <S extends z.ZodMiniType>(schema: S, input: unknown, base: Path = [], limits: InputLimits = LIMITS): ParseResult<z.infer<S>> => {
  const json = typeof input === 'string' ? readJson(input, limits) : checked(input, base, limits);
  return json.ok ? parseWith(schema, json.value, base) : json;
};

/** Checks the format and version header and migrates older versions; the document itself is parsed after. */
const readHeader = (value: unknown): ParseResult<Record<string, unknown>> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problems: [{ path: '', message: `expected a Loopscope graph (a JSON object), got ${typeName(value)}` }] };
  const record = value as Record<string, unknown>;
  if (record.format !== GRAPH_FORMAT)
    return { ok: false, problems: [{ path: 'format', message: record.format === undefined ? `required: expected "${GRAPH_FORMAT}"` : `expected "${GRAPH_FORMAT}", got ${JSON.stringify(record.format)}` }] };
  const version = record.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    return { ok: false, problems: [{ path: 'version', message: `expected a version number (this Loopscope reads versions up to ${CURRENT_VERSION}), got ${JSON.stringify(version)}` }] };
  if (version > CURRENT_VERSION)
    return { ok: false, problems: [{ path: 'version', message: `version ${version} is newer than this Loopscope supports (it reads versions 0 to ${CURRENT_VERSION}); update Loopscope to open it` }] };
  return { ok: true, value: record };
};

/** Untrusted input (a file, a paste, a link, the autosave) to a graph, or the problems with their paths. */
export const parseGraph = (input: string | unknown): ParseResult<GraphFile> => {
  const json = typeof input === 'string' ? readJson(input) : checked(input);
  if (!json.ok) return json;
  const header = readHeader(json.value);
  if (!header.ok) return header;
  const from = header.value.version as number;
  const migrated = migrate(header.value);
  if (!migrated.ok) return migrated;
  const parsed = parseWith(GraphFile, migrated.value);
  if (!parsed.ok) return parsed;
  return from < CURRENT_VERSION ? { ...parsed, migratedFrom: from } : parsed;
};
