/**
 * The one way untrusted JSON gets in. Text is size-checked and parsed, then the value is walked
 * once, without recursion (a 100,000-level file must not overflow the stack), for nesting depth,
 * list sizes, keys that reach an object's prototype, and numbers JSON cannot hold.
 * Schemas run only on values that passed this walk.
 */
import { FORBIDDEN_KEYS } from './common.ts';
import { LIMITS } from './limits.ts';
import { formatPath, type ParseProblem, type ParseResult, type Path } from './problems.ts';

export interface InputLimits {
  textChars: number;
  depth: number;
  items: number;
  /** Longer limits for the lists at these keys of the document itself (a trace's `steps`). */
  lists?: Readonly<Record<string, number>>;
}

/** Enough to show what is wrong; a hostile file may hold millions of problems. */
const MAX_PROBLEMS = 20;

const megabytes = (chars: number) => `${(chars / 1_000_000).toFixed(1)} MB`;

interface Frame {
  value: unknown;
  key: PropertyKey;
  parent: Frame | null;
  depth: number;
}

const keysOf = (frame: Frame): PropertyKey[] => {
  const keys: PropertyKey[] = [];
  for (let at: Frame | null = frame; at && at.parent; at = at.parent) keys.push(at.key);
  return keys.reverse();
};

/** Every limit a parsed JSON value breaks, with its path; empty when the value may go on to a schema. */
export const checkValue = (value: unknown, limits: InputLimits = LIMITS, base: Path = []): ParseProblem[] => {
  const problems: ParseProblem[] = [];
  const report = (frame: Frame, message: string) => problems.push({ path: formatPath([...base, ...keysOf(frame)]), message });
  const stack: Frame[] = [{ value, key: '', parent: null, depth: 1 }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const frame = stack.pop() as Frame;
    const current = frame.value;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) report(frame, 'a number too large to hold (beyond ±1.8e308)');
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (frame.depth > limits.depth) {
      report(frame, `nested deeper than ${limits.depth} levels`);
      continue;
    }
    const depth = frame.depth + 1;
    if (Array.isArray(current)) {
      const longer = frame.parent?.parent === null && typeof frame.key === 'string' && limits.lists && Object.hasOwn(limits.lists, frame.key);
      const most = longer ? (limits.lists as Record<string, number>)[frame.key as string] : limits.items;
      if (current.length > most) {
        report(frame, `has ${current.length} items; at most ${most} are allowed`);
        continue;
      }
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], key: index, parent: frame, depth });
      continue;
    }
    const keys = Object.keys(current);
    if (keys.length > limits.items) {
      report(frame, `has ${keys.length} keys; at most ${limits.items} are allowed`);
      continue;
    }
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index];
      const child: Frame = { value: (current as Record<string, unknown>)[key], key, parent: frame, depth };
      if (FORBIDDEN_KEYS.has(key)) report(child, `the key "${key}" is not allowed anywhere in a file`);
      else stack.push(child);
    }
  }
  return problems;
};

/** Parses JSON text within the limits; a byte order mark left by an editor is dropped. */
export const readJson = (text: string, limits: InputLimits = LIMITS): ParseResult<unknown> => {
  if (text.length > limits.textChars)
    return { ok: false, problems: [{ path: '', message: `too large: ${megabytes(text.length)} of text, at most ${megabytes(limits.textChars)} can be opened` }] };
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { ok: false, problems: [{ path: '', message: `not JSON: ${(error as Error).message}` }] };
  }
  const problems = checkValue(value, limits);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
};
