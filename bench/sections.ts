import type { Row } from './report.ts';

/**
 * Which parts of `npm run bench` run: BENCH_SECTIONS=timeline,small (all by default), to measure
 * some rows again quickly. Node: loops, chain, memory, pause, file, cli. Browser: canvas (small,
 * big, huge, giant: 200, 1,000, 5,000 and 10,000 nodes), run, timeline, runtime, autosave, scenarios.
 */
const listed = () => (process.env.BENCH_SECTIONS ? new Set(process.env.BENCH_SECTIONS.split(',').map((name) => name.trim())) : null);

/** Whether the section runs: listed itself or by its group, or nothing listed. */
export const chosen = (section: string, group?: string) => {
  const names = listed();
  return !names || names.has(section) || (group !== undefined && names.has(group));
};

/** Whether every row runs (a full run, whose table goes into docs/performance.md). */
export const everySection = () => listed() === null;

/**
 * Runs one section of the bench. A section that throws (a page gone, a build failed, a budget run
 * out) leaves a failed row naming it and its error, its stack goes to the log, and the run goes on
 * with the other sections: one failure no longer loses the whole run's table.
 */
export const runSection = async (name: string, rows: Row[], log: (line: string) => void, work: () => Promise<void>) => {
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    const seconds = Math.round((performance.now() - started) / 1000);
    log(`\nsection ${name} FAILED after ${seconds} s, the others go on: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    rows.push(failedSection(name, error));
  }
};

/** The row of a section that did not finish: no figure, so it fails whatever its target. */
export const failedSection = (name: string, error: unknown): Row => ({
  id: `${name}.failed`,
  measure: `section ${name}: did not finish`,
  unit: 'ms',
  ours: null,
  baseline: null,
  baselineIs: '—',
  target: { atMost: 0 },
  note: (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 600),
});
