/**
 * `limits.onBudget: "evaluate"` (seed 001 §6: `consume()` says no, no further call; §5.2 stops after
 * the evaluation): once the budget is spent no skill is called, the next Verify still judges what
 * was gathered, then the run stops `budget_exhausted`.
 */
import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { guardCheckWords } from './guards.ts';
import { noteWords, runStopWords, stopWords } from './stepWords.ts';
import { createController, runGraph } from './index.ts';
import { executedNodes, nodeOf, withoutTimings, withStopWords } from './testing.ts';


/** The article's scenario: a plan of two actions whose first one spends the budget (2,010 of 2,000 tokens). */
const article = (onBudget?: 'stop' | 'evaluate'): GraphFile => {
  const graph = FIXTURES.twoActions();
  graph.limits = { ...graph.limits, tokenBudget: 2000, ...(onBudget ? { onBudget } : {}) };
  graph.skills.flaky = { type: 'mock', access: 'read', tokens: 2010, script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }] };
  nodeOf(graph, 'check', 'verify').config.minRecords = 1;
  return graph;
};

const SPENT = 'the budget is spent (2,010 of 2,000 tokens): no further call';

describe('limits.onBudget: "evaluate"', () => {
  it('the budget spent between two actions of one plan: the second is not called, Verify judges the first\'s records, the run stops budget_exhausted', async () => {
    const trace = await runGraph(article('evaluate'));
    const act = trace.steps.find((step) => step.node === 'act');
    expect(act?.attempts.map((attempt) => [attempt.skill, attempt.action])).toEqual([['flaky', 0]]);
    expect(act?.outcome).toBe('ok');
    expect(noteWords(act!.note!)).toBe('1 action(s) returned 2 record(s); 1 later action(s) not called: the budget is spent');
    expect(act?.fired?.target).toBe('check');
    expect(act?.budget).toEqual({ at: 'spent', used: 2010, limit: 2000, node: 'check', evaluates: true });
    expect(trace.finalState.results).toEqual([{ skill: 'flaky', args: { q: 'a b' }, outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }], attempts: 1 }]);
    expect(trace.finalState.execution_error).toBeNull();

    const check = trace.steps.at(-1);
    expect(check).toMatchObject({ node: 'check', outcome: 'sufficient', fired: null, guard: null, budget: { at: 'evaluated', node: 'check' } });
    expect(check?.guards?.at(-1)).toEqual({ name: 'budget_exhausted', value: 2010, limit: 2000, passed: true, judges: true });
    expect(guardCheckWords(check!.guards!.at(-1)!)).toBe('tokens 2010/2000, spent: onBudget evaluate lets this Verify judge what was gathered');
    expect(trace.finalState.evaluation).toMatchObject({ evidence_sufficient: true, records: 2 });
    expect(executedNodes(trace)).toEqual(['plan', 'act', 'check']);
    expect(withStopWords(trace)).toMatchObject({ stopReason: 'budget_exhausted', tokensUsed: 2010, stopExplain: `${SPENT}; the Verify node check judged what was gathered, then the run stops` });
  });

  it('stop (the default) stops before the second action, as before: nothing evaluates', async () => {
    for (const graph of [article(), article('stop')]) {
      const trace = await runGraph(graph);
      expect(executedNodes(trace)).toEqual(['plan', 'act']);
      expect(trace.stopReason).toBe('budget_exhausted');
      expect(trace.steps.some((step) => step.budget)).toBe(false);
      expect(trace.finalState.evaluation).toBeUndefined();
    }
  });

  it('no retry once the budget is spent: the action ends as its last attempt\'s failure, which Verify judges', async () => {
    const graph = article('evaluate');
    graph.skills.flaky = { type: 'mock', access: 'read', tokens: 2010, script: [{ outcome: 'timeout', error: 'SIEM did not answer' }] };
    const trace = await runGraph(graph);
    const act = trace.steps.find((step) => step.node === 'act');
    expect(act?.attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome])).toEqual([['flaky', 1, 'timeout']]);
    expect(act?.outcome).toBe('error');
    expect(trace.finalState.execution_error).toMatchObject({ outcome: 'timeout', skill: 'flaky' });
    expect(trace.finalState.evaluation).toMatchObject({ plan_exhausted: true, reason: 'timeout' });
    expect(executedNodes(trace)).toEqual(['plan', 'act', 'check']);
    expect(trace.stopReason).toBe('budget_exhausted');
  });

  it('a budget spent exactly by the last action: the next Verify still judges, then the run stops', async () => {
    const graph = article('evaluate');
    graph.skills.flaky.tokens = 1995;
    const trace = await runGraph(graph);
    expect(trace.steps.find((step) => step.node === 'act')?.attempts).toHaveLength(2);
    expect(executedNodes(trace)).toEqual(['plan', 'act', 'check']);
    expect(trace).toMatchObject({ stopReason: 'budget_exhausted', tokensUsed: 2000 });
    expect(trace.finalState.evaluation).toMatchObject({ records: 3 });
  });

  it('a Verify whose judging needs a call (a judge) does not run: the run stops before it, and says why', async () => {
    const graph = article('evaluate');
    graph.skills.judge = { type: 'mock', access: 'read', tokens: 1, script: [{ outcome: 'ok', records: [{ sufficient: true }] }] };
    nodeOf(graph, 'check', 'verify').config.judge = 'judge';
    const trace = await runGraph(graph);
    expect(trace.steps.find((step) => step.node === 'act')?.budget).toEqual({ at: 'spent', used: 2010, limit: 2000, node: 'check', evaluates: false, calls: 'judge' });
    const last = trace.steps.at(-1);
    expect(last).toMatchObject({ node: 'check', outcome: null, budget: { at: 'stopped', calls: 'judge' } });
    // The step keeps the guard's numbers and the spent budget as data; their words are the budget's.
    expect(last?.guard).toEqual({ reason: 'budget_exhausted', value: 2010, limit: 2000 });
    expect(stopWords(last!.guard!, last!.budget)).toBe(`${SPENT}; check would call judge to judge, so the run stops before it`);
    expect(runStopWords(trace)).toBe(stopWords(last!.guard!, last!.budget));
    expect(executedNodes(trace)).toEqual(['plan', 'act']);
    expect(trace.stopReason).toBe('budget_exhausted');
    expect(trace.finalState.evaluation).toBeUndefined();
  });

  it('a node after the spend that is not a Verify does not run', async () => {
    const graph = article('evaluate');
    // The act's edge leads to recovery instead: recovery would plan more calls.
    graph.edges = graph.edges.map((edge) => (edge.id === 'e2' ? { ...edge, target: 'fix' } : edge));
    const trace = await runGraph(graph);
    expect(trace.steps.find((step) => step.node === 'act')?.budget).toMatchObject({ at: 'spent', node: 'fix', evaluates: false });
    expect(stopWords(trace.steps.at(-1)!.guard!, trace.steps.at(-1)!.budget)).toBe(`${SPENT}; fix is not a Verify that judges without a call, so the run stops before it`);
    expect(executedNodes(trace)).toEqual(['plan', 'act']);
  });

  it('an Act loop cut by the budget: the tool calls made are what the Verify judges', async () => {
    const graph = article('evaluate');
    graph.skills.decider = {
      type: 'mock', access: 'read', tokens: 0,
      script: [{ outcome: 'ok', reply: { tool: 'flaky', args: {} } }, { outcome: 'ok', reply: { tool: 'steady', args: {} } }, { outcome: 'ok', reply: { done: true, output: {} } }],
    };
    nodeOf(graph, 'act', 'act').config.loop = { decider: 'decider', tools: ['flaky', 'steady'], maxIter: 5 };
    const trace = await runGraph(graph);
    const act = trace.steps.find((step) => step.node === 'act');
    // The decider is not asked again: the second iteration's call is the one the budget refused.
    expect(act?.attempts.map((attempt) => attempt.skill)).toEqual(['decider', 'flaky']);
    expect(act?.outcome).toBe('ok');
    expect(trace.finalState.results).toMatchObject([{ skill: 'flaky', records: [{}, {}] }]);
    expect(executedNodes(trace)).toEqual(['plan', 'act', 'check']);
    expect(trace.stopReason).toBe('budget_exhausted');
  });

  it('a Collect cut by the budget: the records of the skills called are what the Verify judges', async () => {
    const graph = article('evaluate');
    const parsed = parseGraph({
      ...graph, entry: 'gather',
      nodes: [...graph.nodes, { id: 'gather', kind: 'collect', config: { skills: ['flaky', 'steady'] } }],
      edges: [...graph.edges, { id: 'g1', source: 'gather', target: 'check' }],
    });
    if (!parsed.ok) throw new Error('the graph does not parse');
    const trace = await runGraph(parsed.value);
    expect(trace.steps[0].attempts.map((attempt) => attempt.skill)).toEqual(['flaky']);
    expect(trace.steps[0]).toMatchObject({ outcome: 'ok', budget: { at: 'spent', node: 'check', evaluates: true } });
    expect(noteWords(trace.steps[0].note!)).toBe('gathered 2 record(s) from flaky; no further call: the budget is spent');
    expect(trace.finalState.collected).toHaveLength(2);
    expect(executedNodes(trace)).toEqual(['gather', 'check']);
    expect(trace.finalState.evaluation).toMatchObject({ evidence_sufficient: true, records: 2 });
    expect(trace.stopReason).toBe('budget_exhausted');
  });

  it('keeps nothing outside the channels: a fork continues as the run did, and one given back tokens goes on to answer', async () => {
    const template = (findTemplate('budget-evaluate') as { graph: () => GraphFile }).graph();
    const scenario = template.scenarios[1].name;
    const original = createController(template, { scenario });
    await original.run();
    expect(original.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'final']);
    const same = await original.fork(3, {});
    await same.run();
    expect(withoutTimings({ ...same.trace, forkedFrom: undefined })).toEqual(withoutTimings(original.trace));
    // The spent budget is `tokensUsed` against the file's budget: edited below it, Evaluate's sufficient edge answers.
    const refunded = await original.fork(2, { state: { tokensUsed: 100 } });
    await refunded.run();
    expect(refunded.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    expect(refunded.trace.stopReason).toBe('completed');
  });
});
