import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { compileToStateGraph, internalNames, recursionLimitOf } from './compile.ts';
import { FIXTURES } from './fixtures/index.ts';

describe('the compiled LangGraph StateGraph', () => {
  it('has one node per reachable graph node under internal names, so a node may be called plan', () => {
    const engine = new Engine(FIXTURES.twoActions());
    expect([...internalNames(engine).entries()]).toEqual([
      ['plan', 'node_0_plan'], ['act', 'node_1_act'], ['check', 'node_2_check'], ['fix', 'node_3_fix'], ['done', 'node_4_done'], ['halt', 'node_5_halt'],
    ]);
    const compiled = compileToStateGraph(engine);
    expect(Object.keys(compiled.nodes).sort()).toEqual(['__start__', 'node_0_plan', 'node_1_act', 'node_2_check', 'node_3_fix', 'node_4_done', 'node_5_halt']);
    expect(recursionLimitOf(engine)).toBe(22);
  });

  it('really runs: LangGraph streams one update per engine step, carrying the agent state', async () => {
    const engine = new Engine(FIXTURES.twoActions(), { headless: true });
    const updates: string[] = [];
    const stream = await compileToStateGraph(engine).stream({ agent: engine.state, steps: 0 }, { streamMode: 'updates', recursionLimit: recursionLimitOf(engine) });
    let lastAgent: Record<string, unknown> = {};
    for await (const chunk of stream) {
      for (const [name, update] of Object.entries(chunk as Record<string, { agent: Record<string, unknown> }>)) {
        updates.push(name);
        lastAgent = update.agent;
      }
    }
    expect(updates).toEqual(['node_0_plan', 'node_1_act', 'node_2_check', 'node_4_done']);
    expect(engine.stop?.reason).toBe('completed');
    expect(lastAgent.response).toEqual(engine.state.response);
    expect(lastAgent.steps).toBe(4);
  });
});
