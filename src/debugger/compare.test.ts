import { describe, expect, it } from 'vitest';
import { updateEdge, type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import { alignRuns, firstDifference, pairAttempts } from './compare.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();
const flipped = (graph: GraphFile) => updateEdge(graph, 'e4', (edge) => ({ ...edge, when: { path: 'evaluation.plan_exhausted', op: 'eq', value: false } }));
const cell = (step: { step: number; node: string; fired: { id: string } | null } | null) => (step ? `${step.step}:${step.node}${step.fired ? `>${step.fired.id}` : ''}` : '—');

// Whole runs through LangGraph, loaded on first use: room for a loaded machine.
describe('comparing two runs', { timeout: 30_000 }, () => {
  it('two graph versions: the paths aligned, the parting step with the edge each took, state and attempts there', async () => {
    const left = { id: 1, trace: await runGraph(securityclaw()) };
    const right = { id: 2, trace: await runGraph(flipped(securityclaw())) };
    const rows = alignRuns(left, right);
    expect(rows.slice(0, 6).map((row) => [cell(row.left), cell(row.right), row.same])).toEqual([
      ['1:decide>e1', '1:decide>e1', true],
      ['2:execute>e2', '2:execute>e2', true],
      ['3:evaluate>e4', '3:evaluate>e5', false],
      ['4:recover>e6', '—', false],
      ['5:decide>e1', '4:decide>e1', true],
      ['6:execute>e2', '5:execute>e2', true],
    ]);
    // Every step of both runs appears once, in order.
    expect(rows.flatMap((row) => (row.left ? [row.left.step] : []))).toEqual(left.trace.steps.map((step) => step.step));
    expect(rows.flatMap((row) => (row.right ? [row.right.step] : []))).toEqual(right.trace.steps.map((step) => step.step));

    const difference = firstDifference(left, right);
    expect(difference).toMatchObject({ step: 3, kind: 'path', canvas: { nodes: ['evaluate'], leftEdge: 'e4', rightEdge: 'e5' } });
    expect(difference?.sentence).toBe('Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 2 took e5 (otherwise: no other edge matched)');
    expect(difference?.attempts.every((pair) => pair.same)).toBe(true);
  });

  it('the same path with other skill results: the first step whose attempts and writes differ', async () => {
    const graph = securityclaw();
    const other = securityclaw();
    if (other.skills.search_events.type !== 'mock') throw new Error('mock expected');
    other.skills.search_events.script = [{ outcome: 'parse_error' }, { outcome: 'empty' }];
    const difference = firstDifference({ id: 1, trace: await runGraph(graph) }, { id: 2, trace: await runGraph(other) });
    expect(difference).toMatchObject({ step: 2, kind: 'detail', canvas: { nodes: ['execute'], leftEdge: 'e2', rightEdge: 'e2' } });
    expect(difference?.attempts.map((pair) => [pair.left?.outcome, pair.right?.outcome, pair.same])).toEqual([['timeout', 'parse_error', false], ['empty', 'empty', true]]);
    expect(difference?.writes).toEqual([]);
  });

  it('a run with a finally response and one without part at the final response, named as such', async () => {
    const failing = (graph: GraphFile) => {
      if (graph.skills.search_events.type !== 'mock') throw new Error('mock expected');
      graph.skills.search_events.script = [{ outcome: 'error', error: 'SIEM returned 500' }];
      // No rule for the error: no recovery path, the forced stop.
      const recover = graph.nodes.find((node) => node.id === 'recover');
      if (recover?.kind === 'recover') recover.config.rules = recover.config.rules.filter((rule) => rule.reason !== 'execution_error');
      return graph;
    };
    const withFinally = failing(securityclaw());
    const without = failing(securityclaw());
    delete without.finally;
    const left = { id: 1, trace: await runGraph(withFinally) };
    const right = { id: 2, trace: await runGraph(without) };
    const difference = firstDifference(left, right);
    expect(difference).toMatchObject({ step: 6, kind: 'path', canvas: { nodes: ['final'], leftEdge: null, rightEdge: null } });
    expect(difference?.sentence).toBe('Runs part at step 6: run 1 took the final response final (finally, after the stop no_recovery_path), run 2 took nothing (the run had ended)');
    expect(alignRuns(left, right).at(-1)).toMatchObject({ left: { node: 'final', finally: true }, right: null, same: false });
  });

  it('a run and its own copy never differ', async () => {
    const trace = await runGraph(securityclaw());
    expect(firstDifference({ id: 1, trace }, { id: 2, trace: structuredClone(trace) })).toBeNull();
    expect(alignRuns({ id: 1, trace }, { id: 2, trace }).every((row) => row.same)).toBe(true);
  });

  it('pairs attempts in order, one side may have more', () => {
    const attempt = (outcome: 'ok' | 'timeout') => ({ n: 1, skill: 's', outcome, tokens: 1 });
    const step = (outcomes: ('ok' | 'timeout')[]) => ({ step: 1, round: 1, node: 'a', kind: 'act' as const, outcome: 'ok', attempts: outcomes.map(attempt), reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0 });
    expect(pairAttempts(step(['timeout', 'ok']), step(['ok'])).map((pair) => [pair.left?.outcome, pair.right?.outcome ?? null, pair.same])).toEqual([['timeout', 'ok', false], ['ok', null, false]]);
  });
});
