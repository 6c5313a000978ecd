/**
 * What `loopscope test` prints: plain text for people, JUnit XML and TAP for CI systems. A
 * reporter gets every file's results at once and returns the lines to print on stdout.
 */
import { visibleText } from '../graph/visible.ts';
import type { ExpectationFailure } from '../runtime/index.ts';

export interface CaseReport {
  name: string;
  /** Empty when the scenario passed. */
  failures: ExpectationFailure[];
  /** The scenario could not run at all (e.g. an override that is not a valid skill); its lines quote the file made visible. */
  error?: string;
  stopReason: string | null;
  steps: number;
  /** The first step where the run parts from the scenario. */
  divergence: number | null;
  /** What to read first when it failed (runtime causeOf): where the run parts from it and why. */
  cause: string | null;
  durationMs: number;
}

export interface FileReport {
  file: string;
  /** The graph's name; absent when the file is not a graph. */
  graph?: string;
  /** Why the file could not be tested (not readable, not a graph, no scenario in it), in a sentence naming the file; its lines quote the file made visible. */
  problem?: { kind: 'unreadable' | 'no_scenarios'; message: string };
  cases: CaseReport[];
}

export const REPORTERS = ['text', 'junit', 'tap'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export const passed = (test: CaseReport) => !test.error && test.failures.length === 0;

export const tally = (files: readonly FileReport[]) => {
  const cases = files.flatMap((file) => file.cases);
  return { passed: cases.filter(passed).length, failed: cases.filter((test) => !passed(test)).length };
};

const problemsOf = (test: CaseReport) => (test.error ? [test.error] : test.failures.map((failure) => failure.message));

/**
 * Under the cause: why the scenario could not run, a line each (the message's own lines), or each
 * expectation, expected against actual, with its own lead where it is not the cause.
 */
const mismatchesOf = (test: CaseReport) =>
  test.error ? test.error.split('\n') : test.failures.map((failure) => (failure.lead === test.cause ? failure.mismatch : `${failure.mismatch} (${failure.lead})`));

/** The failure in one line, the cause first. */
const headlineOf = (test: CaseReport) => test.error ?? `${test.cause ?? 'failed'}; ${test.failures.length} expectation(s) failed, the first: ${test.failures[0]?.mismatch ?? ''}`;

const summary = (files: readonly FileReport[]) => {
  const { passed: ok, failed } = tally(files);
  return `${ok} passed, ${failed} failed`;
};

const text = (files: readonly FileReport[]): string[] => {
  const lines: string[] = [];
  for (const file of files) {
    if (file.problem) {
      lines.push(...file.problem.message.split('\n'));
      continue;
    }
    lines.push(`${file.file} (${file.graph}): ${file.cases.length} scenario(s)`);
    for (const test of file.cases) {
      if (passed(test)) lines.push(`  ✓ ${test.name} (${test.stopReason}, ${test.steps} steps)`);
      else {
        // The cause first, as a test runner leads with the first failing assertion; then expected against actual.
        lines.push(`  ✗ ${test.name}${test.cause ? ` — ${test.cause}` : ''}`);
        for (const problem of mismatchesOf(test)) lines.push(`      ${problem}`);
      }
    }
  }
  lines.push(summary(files));
  // Each line is one line: a name holding a newline (`…\n1 passed, 0 failed`) or an escape is shown, never obeyed.
  return lines.map(visibleText);
};

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

/**
 * Text made safe for an XML attribute or element. XML 1.0 cannot hold most control characters at
 * all, escaped or not, so they are dropped; line breaks are written as references so that an
 * attribute keeps them.
 */
const xml = (value: string) =>
  // oxlint-disable-next-line no-control-regex -- dropping control characters is the point here
  value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"'\n\r\t]/g, (char) => ENTITIES[char]);

const seconds = (ms: number) => (ms / 1000).toFixed(3);

const junit = (files: readonly FileReport[]): string[] => {
  const { failed } = tally(files);
  const fileErrors = files.filter((file) => file.problem).length;
  const total = files.reduce((sum, file) => sum + file.cases.length, 0) + fileErrors;
  const time = files.flatMap((file) => file.cases).reduce((sum, test) => sum + test.durationMs, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loopscope test" tests="${total}" failures="${failed}" errors="${fileErrors}" time="${seconds(time)}">`,
  ];
  for (const file of files) {
    const suite = xml(file.graph ?? file.file);
    if (file.problem) {
      // A file that gives no test is an error of its own, so that CI shows it rather than a green run of nothing.
      lines.push(`  <testsuite name="${suite}" file="${xml(file.file)}" tests="1" failures="0" errors="1" time="0.000">`);
      lines.push(`    <testcase name="${xml(file.problem.kind === 'no_scenarios' ? 'has scenarios' : 'is a graph')}" classname="${suite}" file="${xml(file.file)}" time="0.000">`);
      lines.push(`      <error message="${xml(file.problem.message)}" type="${file.problem.kind}"/>`);
      lines.push('    </testcase>', '  </testsuite>');
      continue;
    }
    const failures = file.cases.filter((test) => test.failures.length > 0).length;
    const errors = file.cases.filter((test) => test.error).length;
    const suiteTime = file.cases.reduce((sum, test) => sum + test.durationMs, 0);
    lines.push(`  <testsuite name="${suite}" file="${xml(file.file)}" tests="${file.cases.length}" failures="${failures}" errors="${errors}" time="${seconds(suiteTime)}">`);
    for (const test of file.cases) {
      const open = `    <testcase name="${xml(test.name)}" classname="${suite}" file="${xml(file.file)}" time="${seconds(test.durationMs)}"`;
      if (passed(test)) {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      if (test.error) lines.push(`      <error message="${xml(test.error)}" type="scenario_error"/>`);
      else {
        lines.push(`      <failure message="${xml(headlineOf(test))}" type="${xml(test.failures.map((failure) => failure.expectation).join(' '))}">${xml(problemsOf(test).join('\n'))}</failure>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines;
};

/** A TAP description is one line, and `#` would start a directive. */
const tapLine = (value: string) => value.replace(/[\r\n]+/g, ' ').replace(/#/g, '\\#');

const tap = (files: readonly FileReport[]): string[] => {
  const points: string[][] = [];
  for (const file of files) {
    if (file.problem) {
      points.push([`not ok ${points.length + 1} - ${tapLine(file.problem.message)}`]);
      continue;
    }
    for (const test of file.cases) {
      const description = tapLine(visibleText(`${file.graph}: ${test.name}`));
      if (passed(test)) {
        points.push([`ok ${points.length + 1} - ${description}`]);
        continue;
      }
      // The YAML block of TAP 13; JSON strings are valid YAML scalars, and safe whatever the text holds.
      points.push([
        `not ok ${points.length + 1} - ${description}`,
        '  ---',
        `  file: ${JSON.stringify(file.file)}`,
        ...(test.divergence === null ? [] : [`  step: ${test.divergence}`]),
        ...(test.cause === null ? [] : [`  cause: ${JSON.stringify(test.cause)}`]),
        '  failures:',
        ...problemsOf(test).map((problem) => `    - ${JSON.stringify(problem)}`),
        '  ...',
      ]);
    }
  }
  return ['TAP version 13', `1..${points.length}`, ...points.flat(), `# ${summary(files)}`];
};

export const report = (name: ReporterName, files: readonly FileReport[]): string[] => ({ text, junit, tap })[name](files);
