import { describe, expect, it } from 'vitest';
import { TEMPLATES, findTemplate, type GraphFile, type Scenario } from '../graph/index.ts';
import { applyScenario, checkScenario, runGraph, runScenario, ScenarioError } from './index.ts';

const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

describe('scenarios', () => {
  for (const template of TEMPLATES) {
    for (const scenario of template.graph().scenarios) {
      it(`${template.id}: ${scenario.name}`, async () => {
        const result = await runScenario(template.graph(), scenario);
        expect(result.failures).toEqual([]);
      });
    }
  }

  it('the templates pin the loops they were designed for', () => {
    expect(securityclaw().scenarios.length).toBeGreaterThanOrEqual(6);
    expect((findTemplate('graph-engineer') as { graph: () => GraphFile }).graph().scenarios.length).toBeGreaterThanOrEqual(1);
    expect((findTemplate('approval-gate') as { graph: () => GraphFile }).graph().scenarios.length).toBeGreaterThanOrEqual(1);
  });

  it('merges a partial skill over the graph’s and keeps its other settings', () => {
    const graph = applyScenario(securityclaw(), { name: 's', skills: { search_events: { script: [{ outcome: 'error' }] } }, state: { question: 'other' }, expect: {} });
    expect(graph.skills.search_events).toMatchObject({ type: 'mock', access: 'read', tokens: 100, script: [{ outcome: 'error' }] });
    expect(graph.state).toEqual({ question: 'other' });
    expect(securityclaw().skills.search_events).toMatchObject({ script: [{ outcome: 'timeout' }, { outcome: 'empty' }] });
  });

  it('refuses a merged skill that is not valid, naming the path', () => {
    expect(() => applyScenario(securityclaw(), { name: 'bad', skills: { search_events: { script: [{ outcome: 'maybe' }] } }, expect: {} }))
      .toThrowError(new ScenarioError('scenario "bad": skills.search_events.script[0].outcome: expected "ok" or "empty" or "timeout" or "parse_error" or "permission_denied" or "error"'));
  });

  it('lists every failed expectation', async () => {
    const trace = await runGraph(securityclaw());
    const scenario: Scenario = {
      name: 'wrong', expect: {
        stopReason: 'max_rounds', rounds: 1, attempts: { execute: 2 }, visits: { recover: 0 }, path: ['decide'],
        state: [{ path: 'recovery.skill', value: 'fallback_lookup' }],
      },
    };
    expect(checkScenario(trace, scenario)).toEqual([
      'stopReason: expected "max_rounds", got "completed"',
      'rounds: expected 1, got 2',
      'attempts of execute: expected 2, got 3',
      'visits of recover: expected 0, got 1',
      'path: expected ["decide"], got ["decide","execute","evaluate","recover","decide","execute","evaluate","answer"]',
      'state recovery.skill: expected "fallback_lookup", got "query_alternative_source"',
    ]);
  });
});
