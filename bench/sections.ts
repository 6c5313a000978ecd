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
