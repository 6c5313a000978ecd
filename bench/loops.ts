/**
 * The runtime's baseline: one plan → act → verify loop (a timeout retried in place at the first
 * act, then one record a round, never enough) written straight on LangGraph, and the same loop as
 * a Loopscope graph file compiled by the runtime, both with the same checkpointer and retention
 * policy. Node (scripts/bench.ts) and the browser (bench/engine) run these same functions.
 */
import { Annotation, END, START, StateGraph } from '@langchain/langgraph/web';
import { type GraphFile } from '../src/graph/index.ts';
import { parseGraph } from '../src/graph/parse.ts';
import { createController, DEFAULT_RETENTION, RetainingSaver } from '../src/runtime/index.ts';
import { median, pairedRatio, type Row } from './report.ts';

/** The loop as a Loopscope graph file: VERIFY never has the records it wants, so the rounds bound it. */
export const loopGraph = (rounds: number): GraphFile => {
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

export const runStraight = async (rounds: number) => {
  let steps = 0;
  const stream = await straightLangGraph(rounds).stream(
    { round: 1, steps: 0, tokensUsed: 0, served: 0 },
    { configurable: { thread_id: 'bench' }, streamMode: 'updates', recursionLimit: rounds * 3 + 10 },
  );
  for await (const chunk of stream) steps += Object.keys(chunk).length;
  return steps;
};

/** Ours as the command line runs it to its end: no person, no trace steps kept, no journal. */
export const longRun = (rounds: number) => createController(loopGraph(rounds), { headless: true, compact: true, keepSteps: false, record: false, retention: DEFAULT_RETENTION });

export const runOurs = async (rounds: number) => {
  const controller = longRun(rounds);
  let steps = 0;
  controller.subscribe((event) => {
    if (event.type === 'step') steps += 1;
  });
  await controller.run();
  if (controller.trace.stopReason !== 'max_rounds') throw new Error(`the loop stopped with ${controller.trace.stopReason}: ${controller.trace.stopExplain}`);
  return steps;
};

/**
 * The clock a loop is timed by: in Node the process's CPU time (user and system, every thread: the
 * garbage collector's too), which a busy machine's waits for a core do not inflate; the run only
 * yields with `setImmediate` and never sleeps, so on a quiet machine it reads as the wall clock. A
 * page has no CPU clock: there, the wall clock.
 */
export const loopClock = (): { name: 'CPU time' | 'wall clock'; now: () => number } =>
  typeof process !== 'undefined' && typeof process.cpuUsage === 'function'
    ? { name: 'CPU time', now: () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    } }
    : { name: 'wall clock', now: () => performance.now() };

/** A timed run of one side: its clock's milliseconds and the steps it took. */
export type LoopRun = { ms: number; steps: number };
export const LOOP_ARMS = { ours: runOurs, straight: runStraight } as const;
export type LoopArm = keyof typeof LOOP_ARMS;

/**
 * How the runs of a comparison are made: both sides alike. In this process (the page's way), after
 * one run of each side to warm both up; what a run leaves to collect is collected before the next
 * is timed (Node with --expose-gc, as `npm run bench` runs): else the run that goes second of a pair
 * pays for the first's garbage, which read as ours 1.21× when it went second and 1.07× when first.
 */
export type LoopRunner = { method: string; warmUp: (length: number) => Promise<void>; run: (arm: LoopArm, length: number) => Promise<LoopRun> };

export const inThisProcess = (): LoopRunner => {
  const clock = loopClock();
  const collect = (globalThis as { gc?: () => void }).gc;
  return {
    method: `${clock.name}, every run in one ${typeof process === 'undefined' ? 'page' : 'process'} after one run of each side to warm up`,
    warmUp: async (length) => {
      await runStraight(length);
      await runOurs(length);
    },
    run: async (arm, length) => {
      collect?.();
      const started = clock.now();
      const steps = await LOOP_ARMS[arm](length);
      return { ms: clock.now() - started, steps };
    },
  };
};

/**
 * Ours over straight LangGraph: `rounds` split into `blocks` runs of the same length, run in pairs,
 * ours and straight alternating which goes first; a pair's two runs are seconds apart, so a busy
 * moment of a shared machine hits both alike. The ratio is the median of the pairs' ratios; each
 * side's time, its median run scaled to `rounds`.
 */
export const compareLoops = async (rounds: number, pairs: number, blocks = 5, runner: LoopRunner = inThisProcess()) => {
  const length = Math.max(1, Math.round(rounds / blocks));
  await runner.warmUp(length);
  const ours: number[] = [];
  const straight: number[] = [];
  let steps = { straight: 0, ours: 0 };
  for (let n = 0; n < pairs; n += 1) {
    const order: [LoopArm, LoopArm] = n % 2 === 0 ? ['straight', 'ours'] : ['ours', 'straight'];
    const pair: Partial<Record<LoopArm, LoopRun>> = {};
    for (const arm of order) pair[arm] = await runner.run(arm, length);
    ours.push(pair.ours!.ms);
    straight.push(pair.straight!.ms);
    steps = { ours: pair.ours!.steps, straight: pair.straight!.steps };
  }
  const scaled = (values: number[]) => (median(values) ?? 0) * (rounds / length);
  return { method: runner.method, length, ours: scaled(ours), straight: scaled(straight), ratio: pairedRatio(ours, straight)!, ratios: ours.map((ms, n) => ms / straight[n]), steps };
};

/** The runtime row of a comparison, in Node or in the page: the same method on both. */
export const loopsRow = (id: string, where: string, rounds: number, loops: Awaited<ReturnType<typeof compareLoops>>): Row => ({
  id, measure: `runtime, ${rounds.toLocaleString('en')} rounds, ${where}`, unit: 'ms', ours: loops.ours, baseline: loops.straight, ownRatio: loops.ratio,
  baselineIs: 'the same loop written straight on LangGraph (bench/loops.ts) with the same checkpointer',
  target: { ratio: 1.1 },
  note: `${loops.method}; runs of ${loops.length.toLocaleString('en')} rounds in ${loops.ratios.length} pairs, ours and straight alternating which goes first: each side its median run scaled to ${rounds.toLocaleString('en')} rounds, the ratio the median of the pairs' ratios (${Math.min(...loops.ratios).toFixed(2)}–${Math.max(...loops.ratios).toFixed(2)})`,
});

/** A graph file run as the app runs it (compact, every step kept for the timeline), with no page around it. */
export const runAsTheAppDoes = async (graph: GraphFile) => {
  const started = performance.now();
  const controller = createController(graph, { compact: true });
  await controller.run();
  return { ms: performance.now() - started, steps: controller.trace.steps.length, stopReason: controller.trace.stopReason };
};
