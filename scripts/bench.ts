/**
 * `npm run bench`: the runtime on a long run (the loop fixture, a few thousand steps), through
 * each way of running it, against a baseline measured in the same process. Numbers only, no
 * verdicts: timings belong here, never in unit tests.
 */
import { FIXTURES } from '../src/runtime/fixtures/index.ts';
import { createController, Engine, runGraph } from '../src/runtime/index.ts';
import { LIMITS, parseGraph, validateGraph } from '../src/graph/index.ts';

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
  await measure('engine, compact steps', async () => {
    const engine = new Engine(graph(), { headless: true, compact: true });
    while (!engine.stopped) await engine.advance();
    return engine.steps.length;
  }),
  await measure('engine, with stateBefore', async () => (await runGraph(graph(), { executor: 'engine' })).steps.length),
  await measure('LangGraph StateGraph executor', async () => (await runGraph(graph(), { compact: true })).steps.length),
  await measure('controller.run() (yields every 12 ms)', async () => {
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

/**
 * Opening a file: parse (limits walk + schema) and validation by graph size, against JSON.parse of
 * the same text. Linear work keeps µs/node flat as the graph grows (validation was quadratic).
 */
const chain = (nodes: number) =>
  JSON.stringify({
    format: 'loopscope/graph', version: 1, name: 'Bench', entry: 'n0',
    nodes: Array.from({ length: nodes }, (_, index) => ({ id: `n${index}`, kind: 'verify', position: { x: index * 10, y: 0 } })),
    edges: Array.from({ length: nodes * 5 }, (_, index) => ({ id: `e${index}`, source: `n${index % nodes}`, target: `n${(index * 7 + 1) % nodes}`, when: { path: 'evaluation.reason', op: 'eq', value: 'x' } })),
  });

const best = (work: () => void) => {
  let fastest = Number.POSITIVE_INFINITY;
  for (let n = 0; n < REPEAT; n += 1) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
};

const sizes = [LIMITS.nodes / 4, LIMITS.nodes / 2, LIMITS.nodes].map((nodes) => {
  const text = chain(nodes);
  const parsed = parseGraph(text);
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  const json = best(() => JSON.parse(text));
  const parse = best(() => parseGraph(text));
  const validate = best(() => validateGraph(parsed.value));
  return {
    nodes, edges: nodes * 5, 'JSON.parse ms (baseline)': json.toFixed(1), 'parseGraph ms': parse.toFixed(1), 'validateGraph ms': validate.toFixed(1),
    'parse vs baseline': `${(parse / json).toFixed(1)}×`, 'validate µs/node': ((validate / nodes) * 1000).toFixed(1),
  };
});
console.log('Opening a file: parse and validation by size (best of 3)');
console.table(sizes);
