/**
 * `npm run bench`: the runtime against LangGraph written straight, in the same process.
 *
 * 1. Speed: one plan → act → verify loop (a timeout retried in place at the first act, then one
 *    record a round, never enough) run for ROUNDS rounds twice: written straight on LangGraph, and
 *    as a Loopscope graph file compiled to LangGraph by the runtime, both with the same
 *    checkpointer and retention policy. Best of a few runs each, alternating; the ratio is ours
 *    over straight LangGraph.
 * 2. Memory: the Loopscope loop over MEMORY_ROUNDS rounds, heap after a full GC every tenth of the
 *    way: it stays flat (the trace's steps are not kept here; the checkpointer keeps a bounded set).
 * 3. Responsiveness: how long Pause takes to stop a long run, and the longest the event loop was
 *    held while it ran.
 * Numbers only, no verdicts: timings belong here, never in unit tests.
 */
import { Annotation, END, START, StateGraph } from '@langchain/langgraph/web';
import { LIMITS, parseGraph, validateGraph, type GraphFile } from '../src/graph/index.ts';
import { createController, DEFAULT_RETENTION, RetainingSaver } from '../src/runtime/index.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10_000);
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 2);
const gc = (globalThis as { gc?: () => void }).gc;

/** The loop as a Loopscope graph file: VERIFY never has the records it wants, so the rounds bound it. */
const loopGraph = (rounds: number): GraphFile => {
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: 'Bench loop', entry: 'plan',
    skills: { probe: { type: 'mock', tokens: 1, script: [{ outcome: 'timeout' }, { outcome: 'ok', records: [{ seen: true }] }] } },
    nodes: [
      { id: 'plan', kind: 'reason', config: { plans: [{ actions: [{ skill: 'probe' }] }] } },
      { id: 'act', kind: 'act' },
      { id: 'verify', kind: 'verify', config: { minRecords: 2 } },
      { id: 'done', kind: 'respond' },
    ],
    edges: [
      { id: 'l1', source: 'plan', target: 'act' },
      { id: 'l2', source: 'act', target: 'verify' },
      { id: 'l3', source: 'verify', target: 'done', when: { outcome: 'sufficient' } },
      { id: 'l4', source: 'verify', target: 'plan', when: 'otherwise' },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
  // A file may ask for at most 1,000 rounds (LIMITS); the bench sets its long runs on the parsed graph.
  return { ...parsed.value, limits: { ...parsed.value.limits, maxRounds: rounds, maxSteps: rounds * 3 + 10 } };
};

/** The same loop written straight on LangGraph: the same fields, the same mock script and retry, no trace, no guards. */
const straightLangGraph = (rounds: number) => {
  const State = Annotation.Root({
    round: Annotation<number>(), steps: Annotation<number>(), tokensUsed: Annotation<number>(),
    plan: Annotation<{ actions: { skill: string; args: Record<string, unknown> }[]; signature: string }>(),
    results: Annotation<unknown[]>(), execution_error: Annotation<unknown>(), evaluation: Annotation<Record<string, unknown>>(),
    served: Annotation<number>(),
  });
  const script = [{ outcome: 'timeout', records: [] as unknown[] }, { outcome: 'ok', records: [{ seen: true }] }];
  return new StateGraph(State)
    .addNode('planner', async (state) => ({
      round: state.steps > 0 ? state.round + 1 : state.round, steps: state.steps + 1,
      plan: { actions: [{ skill: 'probe', args: {} }], signature: 'probe({})' },
    }))
    .addNode('act', async (state) => {
      let served = state.served;
      let tokensUsed = state.tokensUsed;
      let answer = script[0];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        answer = script[Math.min(served, script.length - 1)];
        served += 1;
        tokensUsed += 1;
        if (answer.outcome !== 'timeout') break;
      }
      return { served, tokensUsed, steps: state.steps + 1, execution_error: null, results: [{ skill: 'probe', args: {}, outcome: answer.outcome, records: answer.records, attempts: served - state.served }] };
    })
    .addNode('verify', async (state) => {
      const records = (state.results as { records: unknown[] }[]).reduce((sum, result) => sum + result.records.length, 0);
      return { steps: state.steps + 1, evaluation: { evidence_sufficient: false, plan_exhausted: false, reason: 'coverage_low', reasoning: `${records} record(s)`, records } };
    })
    .addEdge(START, 'planner')
    .addEdge('planner', 'act')
    .addEdge('act', 'verify')
    .addConditionalEdges('verify', (state) => (state.round >= rounds ? END : 'planner'), ['planner', END])
    .compile({ checkpointer: new RetainingSaver(DEFAULT_RETENTION) });
};

const runStraight = async (rounds: number) => {
  let steps = 0;
  const stream = await straightLangGraph(rounds).stream(
    { round: 1, steps: 0, tokensUsed: 0, served: 0 },
    { configurable: { thread_id: 'bench' }, streamMode: 'updates', recursionLimit: rounds * 3 + 10 },
  );
  for await (const chunk of stream) steps += Object.keys(chunk).length;
  return steps;
};

/** Ours as the command line runs it to its end: no person, no trace steps kept, no journal. */
const longRun = (rounds: number) => createController(loopGraph(rounds), { headless: true, compact: true, keepSteps: false, record: false, retention: DEFAULT_RETENTION });

const runOurs = async (rounds: number) => {
  const controller = longRun(rounds);
  let steps = 0;
  controller.subscribe((event) => {
    if (event.type === 'step') steps += 1;
  });
  await controller.run();
  if (controller.trace.stopReason !== 'max_rounds') throw new Error(`the loop stopped with ${controller.trace.stopReason}: ${controller.trace.stopExplain}`);
  return steps;
};

const time = async (once: () => Promise<number>) => {
  const started = performance.now();
  const steps = await once();
  return { ms: performance.now() - started, steps };
};

const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};

console.log(`Loopscope bench — ${new Date().toISOString()}, Node ${process.version}${gc ? '' : ' (run with --expose-gc for exact heap numbers)'}`);
console.log(`Checkpointer for both: newest ${DEFAULT_RETENTION.keepNewest} + a keyframe every ${DEFAULT_RETENTION.keyframeEvery} steps (at most ${DEFAULT_RETENTION.maxKeyframes}, spaced wider as they pile up)\n`);

// 1. Speed, alternating so that a busy moment of a shared machine hits both alike.
const best = { straight: Number.POSITIVE_INFINITY, ours: Number.POSITIVE_INFINITY };
let stepCounts = { straight: 0, ours: 0 };
await runStraight(200);
await runOurs(200);
for (let n = 0; n < REPEAT; n += 1) {
  const straight = await time(() => runStraight(ROUNDS));
  const ours = await time(() => runOurs(ROUNDS));
  best.straight = Math.min(best.straight, straight.ms);
  best.ours = Math.min(best.ours, ours.ms);
  stepCounts = { straight: straight.steps, ours: ours.steps };
}
const row = (name: string, ms: number, steps: number) => ({ run: name, 'LangGraph steps': steps, [`ms (best of ${REPEAT})`]: Math.round(ms), 'µs/step': Math.round((ms / steps) * 1000) });
console.log(`1. plan → act → verify, ${ROUNDS.toLocaleString('en')} rounds`);
console.table([row('LangGraph, written straight', best.straight, stepCounts.straight), row('Loopscope: the graph file compiled', best.ours, stepCounts.ours)]);
const ratio = best.ours / best.straight;
console.log(`ratio Loopscope / LangGraph: ${ratio.toFixed(3)}× (bound 1.25×, target 1.05×)\n`);

// 2. Memory over a long run, sampled every tenth of the way.
const samples: { rounds: number; heap: number }[] = [];
const memoryRun = longRun(MEMORY_ROUNDS);
const every = Math.max(1, Math.floor(MEMORY_ROUNDS / 10));
memoryRun.subscribe((event) => {
  if (event.type === 'step' && event.step.node === 'verify' && event.step.round % every === 0) samples.push({ rounds: event.step.round, heap: heapMb() });
});
const memoryStarted = performance.now();
await memoryRun.run();
const baseSample = samples.find((sample) => sample.rounds >= Math.min(10_000, MEMORY_ROUNDS)) ?? samples[0];
console.log(`2. memory over ${MEMORY_ROUNDS.toLocaleString('en')} rounds (${Math.round((performance.now() - memoryStarted) / 1000)} s), heap after GC`);
console.table(samples.map((sample) => ({ rounds: sample.rounds, 'heap MB': sample.heap.toFixed(1), [`vs ${baseSample.rounds.toLocaleString('en')} rounds`]: `${(((sample.heap - baseSample.heap) / baseSample.heap) * 100).toFixed(1)} %` })));
const later = samples.filter((sample) => sample.rounds >= baseSample.rounds);
const spread = Math.max(...later.map((sample) => Math.abs(sample.heap - baseSample.heap) / baseSample.heap)) * 100;
console.log(`largest change from round ${baseSample.rounds.toLocaleString('en')} on: ${spread.toFixed(1)} % (bound ±10 %)\n`);

// 3. Pause during a long run, and how long the event loop was held.
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
console.log(`3. Pause answered in ${answered.toFixed(1)} ms (status ${pausing.status}); the event loop was held at most ${longestBlock.toFixed(1)} ms at a time`);

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

const fastestOf = (work: () => void) => {
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
  const json = fastestOf(() => JSON.parse(text));
  const parse = fastestOf(() => parseGraph(text));
  const validate = fastestOf(() => validateGraph(parsed.value));
  return {
    nodes, edges: nodes * 5, 'JSON.parse ms (baseline)': json.toFixed(1), 'parseGraph ms': parse.toFixed(1), 'validateGraph ms': validate.toFixed(1),
    'parse vs baseline': `${(parse / json).toFixed(1)}×`, 'validate µs/node': ((validate / nodes) * 1000).toFixed(1),
  };
});
console.log(`\n4. Opening a file: parse and validation by size (best of ${REPEAT})`);
console.table(sizes);
