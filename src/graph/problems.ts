import { visibleText } from './visible.ts';

/** What is wrong with untrusted input, and where in it. */
export interface ParseProblem {
  /** Where in the file, e.g. `nodes[3].config.retry.maxAttempts`; empty for the whole file. */
  path: string;
  message: string;
}

export type ParseResult<T> =
  | { ok: true; value: T; migratedFrom?: number }
  | { ok: false; problems: ParseProblem[] };

export type Path = readonly PropertyKey[];

export const formatPath = (path: Path): string =>
  path
    .map((key, index) =>
      typeof key === 'number'
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(key))
          ? `${index === 0 ? '' : '.'}${String(key)}`
          : `[${JSON.stringify(String(key))}]`,
    )
    .join('');

/**
 * One line a person reads for each problem: `nodes[3].config.retry.maxAttempts: expected a number,
 * got a string`. A path or message quotes the input (a key, a name), so each line is made visible
 * here, where it is built: a newline in a key cannot add a line of its own (src/graph/visible.ts).
 */
export const describeProblems = (problems: readonly ParseProblem[]): string =>
  problems.map((problem) => visibleText(problem.path ? `${problem.path}: ${problem.message}` : problem.message)).join('\n');
