/**
 * `npm run bench`: the runtime on a long run (the loop fixture, a few thousand steps), through
 * each way of running it, against a baseline measured in the same process. Numbers only, no
 * verdicts: timings belong here, never in unit tests.
 */
import { FIXTURES } from '../src/runtime/fixtures/index.ts';
import { createController, runGraph } from '../src/runtime/index.ts';

const STEPS = Number(process.env.BENCH_STEPS ?? 3000);
const REPEAT = 3;

const graph = () => {
  const loop = FIXTURES.loop();
  loop.limits.maxSteps = STEPS;
  return loop;
};

interface Row {
  name: string;
  steps: number;
  ms: number;
}

/** The best of a few runs, to keep a shared machine's noise out. */
const measure = async (name: string, once: () => Promise<number>): Promise<Row> => {
  let best = Number.POSITIVE_INFINITY;
  let steps = 0;
  for (let n = 0; n < REPEAT; n += 1) {
    const started = performance.now();
    steps = await once();
    best = Math.min(best, performance.now() - started);
  }
  return { name, steps, ms: best };
};

const rows: Row[] = [
  // The floor: an awaited call per step with a cloned state, what any step-by-step runtime pays.
  await measure('baseline: await + structuredClone per step', async () => {
    let state: Record<string, unknown> = { steps: 0 };
    for (let step = 0; step < STEPS; step += 1) state = await Promise.resolve({ ...structuredClone(state), steps: step + 1 });
    return state.steps as number;
  }),
  await measure('LangGraph StateGraph executor', async () => (await runGraph(graph(), { compact: true })).steps.length),
  await measure('controller.run() (yields every 8 ms)', async () => {
    const controller = createController(graph(), { compact: true });
    await controller.run();
    return controller.trace.steps.length;
  }),
];

const base = rows[0].ms / rows[0].steps;
const table = rows.map((row) => ({
  run: row.name,
  steps: row.steps,
  'ms (best of 3)': row.ms.toFixed(1),
  'steps/s': Math.round((row.steps / row.ms) * 1000),
  'µs/step': ((row.ms / row.steps) * 1000).toFixed(1),
  'vs baseline': `${(row.ms / row.steps / base).toFixed(1)}×`,
}));
console.log(`Long loop (${STEPS} steps: act → verify → act …, a timeout retried in place each visit)`);
console.table(table);
