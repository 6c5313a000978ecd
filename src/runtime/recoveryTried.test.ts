/** "This recovery was already tried" (issue 54, #11): Recover keeps `recovery.tried`, and `contains` reads it. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseGraph } from '../graph/parse.ts';
import { storedWords } from '../graph/reasonWords.ts';
import type { GraphFile, Scenario } from '../graph/schema.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { validateGraph } from '../graph/validate.ts';
import { runScenario } from './scenario.ts';

const example = async (): Promise<GraphFile> => {
  const parsed = parseGraph(await readFile(new URL('../../examples/recovery-tried/graph.json', import.meta.url), 'utf8'));
  if (!parsed.ok) throw new Error('examples/recovery-tried/graph.json does not parse');
  return parsed.value;
};
const scenarioOf = (graph: GraphFile, name: string) => graph.scenarios.find((scenario) => scenario.name === name) as Scenario;

describe('a recovery tried once is not tried again', { timeout: 30_000 }, () => {
  it('the example graph validates and each of its scenarios passes', async () => {
    const graph = await example();
    expect(validateGraph(graph)).toEqual([]);
    for (const scenario of graph.scenarios) expect((await runScenario(graph, scenario)).failures).toEqual([]);
  });

  it('seed 001: the wider search came back empty too, so the run stops instead of widening it again, and the step says why', async () => {
    const graph = await example();
    const { trace } = await runScenario(graph, scenarioOf(graph, 'a recovery tried once is not tried again'));
    expect(trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'recover', 'decide', 'execute', 'evaluate', 'halt', 'final']);
    expect(trace.steps[3].writes.recovery).toEqual({ action: 'expand_search_scope', skill: 'query_alternative_source', reason: 'empty_result', tried: ['expand_search_scope'] });
    // The condition's explanation, with the value it read: missing before any recovery, the list after one.
    const e4 = trace.steps[2].edges.find((edge) => edge.id === 'e4')!;
    expect(e4.matched).toBe(false);
    expect(storedWords(e4)).toBe('recovery.tried contains "expand_search_scope" (was missing)');
    expect(trace.steps[6].fired).toMatchObject({ id: 'e4', target: 'halt' });
    expect(storedWords(trace.steps[6].fired!)).toBe('recovery.tried contains "expand_search_scope" (was ["expand_search_scope"])');
    expect(trace.stopReason).toBe('no_recovery_path');
    expect(trace.steps.filter((step) => step.node === 'recover')).toHaveLength(1);
  });

  it('recovery.tried holds each action once, in the order it was first taken, and not "none"', async () => {
    const graph = findTemplate('securityclaw')!.graph();
    const timeoutThenLow: Scenario = {
      name: 'fallback, then broaden, then broaden again',
      skills: {
        search_events: { script: [{ outcome: 'error', error: 'SIEM returned 500' }] },
        fallback_lookup: { script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] },
        query_alternative_source: { script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] },
      },
      expect: {},
    };
    const { trace } = await runScenario(graph, timeoutThenLow);
    const tried = trace.steps.filter((step) => step.node === 'recover').map((step) => (step.writes.recovery as { tried: string[] }).tried);
    expect(tried.slice(0, 3)).toEqual([['fallback_tool'], ['fallback_tool', 'broaden_evidence'], ['fallback_tool', 'broaden_evidence']]);
    // No rule applies (the budget left cannot pay the fallback): the action is "none", and none was taken.
    const { trace: unpaid } = await runScenario(graph, scenarioOf(graph, 'recovery skips a rule the budget left cannot pay'));
    expect(unpaid.finalState.recovery).toMatchObject({ action: 'none', tried: [] });
  });
});
