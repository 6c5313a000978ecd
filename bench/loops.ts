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

export const time = async (once: () => Promise<number>) => {
  const started = performance.now();
  const steps = await once();
  return { ms: performance.now() - started, steps };
};

/** Ours over straight LangGraph, alternating so that a busy moment of a shared machine hits both alike. */
export const compareLoops = async (rounds: number, repeat: number) => {
  const best = { straight: Number.POSITIVE_INFINITY, ours: Number.POSITIVE_INFINITY };
  let steps = { straight: 0, ours: 0 };
  await runStraight(Math.min(200, rounds));
  await runOurs(Math.min(200, rounds));
  for (let n = 0; n < repeat; n += 1) {
    const straight = await time(() => runStraight(rounds));
    const ours = await time(() => runOurs(rounds));
    best.straight = Math.min(best.straight, straight.ms);
    best.ours = Math.min(best.ours, ours.ms);
    steps = { straight: straight.steps, ours: ours.steps };
  }
  return { best, steps };
};

/** A graph file run as the app runs it (compact, every step kept for the timeline), with no page around it. */
export const runAsTheAppDoes = async (graph: GraphFile) => {
  const started = performance.now();
  const controller = createController(graph, { compact: true });
  await controller.run();
  return { ms: performance.now() - started, steps: controller.trace.steps.length, stopReason: controller.trace.stopReason };
};
