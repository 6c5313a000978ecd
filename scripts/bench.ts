/**
 * `npm run bench`: every figure of issue 14, ours beside a baseline measured in the same run,
 * printed as one table and written to bench-results.json and bench-results.md; a full run (no
 * BENCH_QUICK, BENCH_SECTIONS or BENCH_BROWSER=0) also writes its table into docs/performance.md.
 *
 * Node: the runtime against the same loop written straight on LangGraph (bench/loops.ts), a step
 * on a 1,000-node chain against the same on LangGraph and against a short chain (bench/chain.ts),
 * memory over a long run, Pause during a long run, opening and exporting a 1,000-node file, and the
 * command line's start against a plain LangGraph script (bench/startup).
 * Browser (bench/browser.ts): the app's production build against a bare React Flow page and the
 * engine in a page with no UI (bench/bare, bench/engine, built by bench/vite.config.ts), in
 * headless Chromium at 1440×900, alternating, medians.
 *
 *   BENCH_QUICK=1     every row with small sizes (a smoke run of a few minutes)
 *   BENCH_PORT=4421   the app's preview port; the baseline pages take the next one
 *   BENCH_OUT=.bench  where the two builds go
 *   BENCH_REPEAT=6    repetitions of each browser measure
 *   BENCH_BROWSER=0   the Node rows only
 *   BENCH_CHAIN_NODES=1000  the long chain a step is timed on (issue 40, #14)
 *   BENCH_SECTIONS=timeline,small  only these parts (bench/sections.ts lists them)
 *   --loaded          the canvas rows (200, 1,000 and 5,000 nodes) beside a fixed CPU load the bench
 *                     starts (bench/load.ts), the same for app and baseline; its table goes into
 *                     docs/performance.md's loaded table
 * Numbers belong here, never in unit tests.
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeGraph } from '../src/graph/index.ts';
import { parseGraph } from '../src/graph/parse.ts';
import { validateGraph } from '../src/graph/validate.ts';
import { DEFAULT_RETENTION } from '../src/runtime/index.ts';
import { browserRows } from '../bench/browser.ts';
import { gridGraph } from '../bench/graphs.ts';
import { chainSteps } from '../bench/chain.ts';
import { compareLoops, longRun, loopsRow } from '../bench/loops.ts';
import { inFreshProcesses } from '../bench/loopProcess.ts';
import { judge, markdownOf, tableOf, withBenchTable, type Row } from '../bench/report.ts';
import { startLoad } from '../bench/load.ts';
import { chosen, everySection, runSection } from '../bench/sections.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 500 : 10_000));
const CHAIN_NODES = Number(process.env.BENCH_CHAIN_NODES ?? (quick ? 200 : 1_000));
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? (quick ? 5_000 : 100_000));
const REPEAT = Number(process.env.BENCH_REPEAT ?? (quick ? 2 : 6));
const PORT = Number(process.env.BENCH_PORT ?? 4180);
const OUT = resolve(root, process.env.BENCH_OUT ?? '.bench');
const gc = (globalThis as { gc?: () => void }).gc;
const rows: Row[] = [];
const log = (line: string) => console.log(line);
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

const loaded = process.argv.includes('--loaded');
// Under load: the canvas rows only (a full loaded run is these three sections).
if (loaded) process.env.BENCH_SECTIONS ??= 'small,big,huge';
const fullLoaded = loaded && process.env.BENCH_SECTIONS === 'small,big,huge';
let loadNote = '';

const startedAt = new Date();
const loadBefore = load();
log(`Loopscope bench — ${startedAt.toISOString()}, Node ${process.version}, ${cpus().length} cores, load ${loadBefore}${quick ? ', QUICK (small sizes)' : ''}${gc ? '' : ' (run with --expose-gc for exact heap numbers)'}`);
log(`Checkpointer for both runtimes: newest ${DEFAULT_RETENTION.keepNewest} + a keyframe every ${DEFAULT_RETENTION.keyframeEvery} steps (at most ${DEFAULT_RETENTION.maxKeyframes}, spaced wider as they pile up)\n`);

// 1. The runtime against LangGraph written straight: paired runs alternating, each in a fresh process, the median of their ratios (bench/loops.ts).
if (chosen('loops')) await runSection('loops', rows, log, async () => {
// Runs of a tenth of the rounds, each in a process of its own warmed up by half as many (bench/loopProcess.ts).
const loops = await compareLoops(ROUNDS, Math.max(4, REPEAT * 2), 10, inFreshProcesses(Math.max(1, Math.round(ROUNDS / 20))));
log(`runtime vs LangGraph in Node, ${ROUNDS.toLocaleString('en')} rounds (${loops.method}, runs of ${loops.length.toLocaleString('en')}): ${Math.round(loops.ours)} ms (${loops.steps.ours} steps a run) vs ${Math.round(loops.straight)} ms (${loops.steps.straight} steps); pairs' ratios ${loops.ratios.map((ratio) => ratio.toFixed(2)).join(', ')}`);
rows.push(loopsRow('runtime.node', 'in Node', ROUNDS, loops));

});

// 1b. A step as the graph grows (issue 40, #14): a chain of act nodes, each step a node no step ran before.
if (chosen('chain')) await runSection('chain', rows, log, async () => {
const [small, large] = [50, CHAIN_NODES];
const [smallStep, largeStep] = await chainSteps([small, large], Math.max(2, Math.ceil(REPEAT / 2)));
const perStep = (ms: number) => `${ms.toFixed(2)} ms`;
log(`a step on a chain of ${small} / ${large.toLocaleString('en')} act nodes: ours ${perStep(smallStep.ours)} / ${perStep(largeStep.ours)}, straight LangGraph ${perStep(smallStep.straight)} / ${perStep(largeStep.straight)}`);
rows.push(
  { id: 'runtime.chainStep', measure: `a step of \`loopscope run\` on a chain of ${large.toLocaleString('en')} act nodes`, unit: 'ms', ours: largeStep.ours, baseline: largeStep.straight, baselineIs: 'a step of the same chain written straight on LangGraph with a MemorySaver (bench/chain.ts), best of the repetitions', target: { ratio: 1.25 } },
  {
    id: 'runtime.chainGrowth', measure: `a step of \`loopscope run\` on a chain of ${large.toLocaleString('en')} act nodes, against one of ${small}`, unit: 'ms', ours: largeStep.ours, baseline: smallStep.ours, baselineIs: `a step of ours on a chain of ${small} (bench/chain.ts)`, target: null,
    note: `LangGraph's own step grows ${(largeStep.straight / smallStep.straight).toFixed(2)}× between the same sizes (written straight): what a step pays per node is LangGraph's (docs/performance.md, "A step as the graph grows")`,
  },
);

});

// 2. Memory over a long run, heap after a full GC every tenth of the way.
if (chosen('memory')) await runSection('memory', rows, log, async () => {
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};
const samples: { rounds: number; heap: number }[] = [];
const memoryRun = longRun(MEMORY_ROUNDS);
const every = Math.max(1, Math.floor(MEMORY_ROUNDS / 10));
memoryRun.subscribe((event) => {
  if (event.type === 'step' && event.step.node === 'verify' && event.step.round % every === 0) samples.push({ rounds: event.step.round, heap: heapMb() });
});
await memoryRun.run();
const baseSample = samples.find((sample) => sample.rounds >= Math.min(10_000, MEMORY_ROUNDS / 10)) ?? samples[0];
const later = samples.filter((sample) => sample.rounds >= baseSample.rounds);
const spread = Math.max(...later.map((sample) => Math.abs(sample.heap - baseSample.heap) / baseSample.heap)) * 100;
log(`memory over ${MEMORY_ROUNDS.toLocaleString('en')} rounds, heap MB after GC: ${samples.map((sample) => `${sample.rounds}: ${sample.heap.toFixed(1)}`).join(', ')}`);
rows.push({ id: 'runtime.memory', measure: `runtime memory, ${baseSample.rounds.toLocaleString('en')} → ${MEMORY_ROUNDS.toLocaleString('en')} rounds, largest heap change`, unit: '%', ours: spread, baseline: null, baselineIs: `the heap at round ${baseSample.rounds.toLocaleString('en')}`, target: { atMost: 10 }, note: gc ? undefined : 'no --expose-gc: heap numbers are rough' });

});

// 3. Pause during a long run, and how long the event loop was held.
if (chosen('pause')) await runSection('pause', rows, log, async () => {
const pausing = longRun(1_000_000);
let longestBlock = 0;
let lastTick = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  longestBlock = Math.max(longestBlock, now - lastTick - 1);
  lastTick = now;
}, 1);
const running = pausing.run();
await new Promise((resolve) => setTimeout(resolve, 1000));
const pausedAt = performance.now();
pausing.pause();
await running;
const answered = performance.now() - pausedAt;
clearInterval(ticker);
rows.push(
  { id: 'runtime.pause', measure: 'Pause during a long run, answered in', unit: 'ms', ours: answered, baseline: null, baselineIs: '—', target: null },
  { id: 'runtime.eventLoop', measure: 'longest hold of the event loop during a long run', unit: 'ms', ours: longestBlock, baseline: null, baselineIs: '—', target: null },
);

});

// 4. Opening and exporting a 1,000-node, 1,500-edge file, against JSON.parse / JSON.stringify of it.
const fastestOf = (work: () => void) => {
  let fastest = Number.POSITIVE_INFINITY;
  for (let n = 0; n < REPEAT; n += 1) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
};
if (chosen('file')) await runSection('file', rows, log, async () => {
const fileText = JSON.stringify(gridGraph(1_000, 1_500));
const file = parseGraph(fileText);
if (!file.ok) throw new Error(file.problems[0].message);
const importMs = fastestOf(() => {
  const parsed = parseGraph(fileText);
  if (parsed.ok) validateGraph(parsed.value);
});
rows.push(
  { id: 'file.import', measure: '1,000-node file: parse + validate', unit: 'ms', ours: importMs, baseline: fastestOf(() => JSON.parse(fileText)), baselineIs: 'JSON.parse of the same text', target: { atMost: 50 } },
  { id: 'file.export', measure: '1,000-node file: export', unit: 'ms', ours: fastestOf(() => serializeGraph(file.value)), baseline: fastestOf(() => JSON.stringify(file.value)), baselineIs: 'JSON.stringify of the same graph', target: { atMost: 20 } },
);

});

// 5. The command line's start: `loopscope run` of a one-round graph, from start to exit, against a
// plain LangGraph script running the same loop (bench/startup). Alternating, medians.
const timedRun = (args: string[]) => {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  return performance.now() - started;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
if (chosen('cli')) await runSection('cli', rows, log, async () => {
if (spawnSync(process.execPath, ['--import', 'tsx', 'scripts/buildCli.ts'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('the command line did not build');
const startTimes = { ours: [] as number[], plain: [] as number[] };
for (let n = 0; n < Math.max(3, REPEAT); n += 1) {
  startTimes.ours.push(timedRun(['bin/loopscope.mjs', 'run', 'bench/startup/one-round.json']));
  startTimes.plain.push(timedRun(['bench/startup/plain.mjs']));
}
log(`loopscope run, one round, start to exit: ${startTimes.ours.map(Math.round).join(', ')} ms; the plain LangGraph script: ${startTimes.plain.map(Math.round).join(', ')} ms`);
rows.push({ id: 'cli.startup', measure: '`loopscope run` of a one-round graph, start to exit', unit: 'ms', ours: median(startTimes.ours), baseline: median(startTimes.plain), baselineIs: 'a plain LangGraph script running the same loop (bench/startup/plain.mjs), median of alternating runs', target: { ratio: 1.5 } });

});

// 6. The browser.
if (process.env.BENCH_BROWSER !== '0' && ['small', 'big', 'huge', 'giant', 'canvas', 'run', 'timeline', 'runtime', 'autosave', 'scenarios'].some((section) => chosen(section))) await runSection('browser', rows, log, async () => {
  const appDir = join(OUT, 'app');
  const pagesDir = join(OUT, 'pages');
  log(`\nbuilding the app into ${appDir} and the baseline pages into ${pagesDir}`);
  const build = (args: string[]) => {
    const result = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', ...args, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`vite build ${args.join(' ')} failed`);
  };
  build(['--outDir', appDir]);
  build(['--config', 'bench/vite.config.ts', '--outDir', pagesDir]);
  log(`browser: headless Chromium 1440×900, ${REPEAT} alternating repetitions, medians; app on port ${PORT}, baselines on ${PORT + 1}`);
  const load = loaded ? startLoad() : null;
  if (load) {
    loadNote = load.describe;
    log(`under load: ${load.describe}, started after the builds, for app and baseline alike`);
  }
  try {
    const measured = await browserRows({ root, appDir, pagesDir, port: PORT, quick, repeat: REPEAT, log });
    rows.push(...(load ? measured.filter((row) => row.id !== 'initial.js').map((row) => ({ ...row, id: `loaded.${row.id}`, measure: `${row.measure}, under load` })) : measured));
  } finally {
    load?.stop();
  }
});

const results = rows.map(judge);
const loadAfter = load();
log(`\nLoopscope against its baselines${quick ? ' (QUICK: small sizes, not the issue\'s)' : ''}; load average before ${loadBefore}, after ${loadAfter}`);
console.table(tableOf(results));
for (const result of results) if (result.note) log(`  ${result.measure}: ${result.note}`);
const machine = { node: process.version, cores: cpus().length, cpu: cpus()[0]?.model, loadBefore, loadAfter };
writeFileSync(join(root, 'bench-results.json'), `${JSON.stringify({ startedAt: startedAt.toISOString(), seconds: Math.round((Date.now() - startedAt.getTime()) / 1000), quick, repeat: REPEAT, machine, rows: results }, null, 2)}\n`);
writeFileSync(join(root, 'bench-results.md'), `${markdownOf(results)}\n`);
// A full run writes its table into docs/performance.md; a full loaded run, the loaded table.
const writesDoc = !quick && process.env.BENCH_BROWSER !== '0' && (loaded ? fullLoaded : everySection());
if (writesDoc) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const docPath = join(root, 'docs', 'performance.md');
  const caption = `Measured on ${commit} (${startedAt.toISOString().slice(0, 10)}), one full run of ${Math.round((Date.now() - startedAt.getTime()) / 60_000)} min on ${cpus().length} cores, load average before ${loadBefore}, after ${loadAfter}.`;
  const under = loadNote ? ` Under load: ${loadNote}, beside app and baseline alike.` : '';
  writeFileSync(docPath, withBenchTable(readFileSync(docPath, 'utf8'), `${caption}${under}\n\n${markdownOf(results)}\n`, loaded ? 'bench-loaded-table' : 'bench-table'));
}
log(`\nwritten: bench-results.json, bench-results.md${writesDoc ? ', docs/performance.md' : ''} (${Math.round((Date.now() - startedAt.getTime()) / 1000)} s)`);
