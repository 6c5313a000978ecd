/**
 * Issue 35: the seed articles' code run side by side with Loopscope left a few places where the
 * runtime broke its own documentation or could not say what the articles say. Each is pinned here.
 */
import { describe, expect, it } from 'vitest';
import type { GraphFile, MockEntry } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from './index.ts';
import { nodeOf } from './testing.ts';

const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

/** SecurityClaw whose decide node asks a mock planner answering `replies`, one per attempt. */
const mockPlanner = (replies: MockEntry[]): GraphFile => {
  const graph = securityclaw();
  graph.skills.planner = { type: 'mock', access: 'read', tokens: 10, script: replies };
  Object.assign(nodeOf(graph, 'decide', 'reason').config, { planner: 'llm', skill: 'planner' });
  return graph;
};
const PLAN = { actions: [{ skill: 'fallback_lookup', args: { ip: '10.0.0.5' } }] };

describe('the llm planner reads a mock reply as it reads a model\'s answer', () => {
  it('a mock planner\'s {"outcome": "ok", "reply": plan} is the plan (the mock gives no records: empty, read as an answer)', async () => {
    const trace = await runGraph(mockPlanner([{ outcome: 'ok', reply: PLAN }]));
    expect(trace.steps[0]).toMatchObject({ node: 'decide', outcome: 'ok', writes: { plan: { actions: PLAN.actions } } });
    expect(trace.stopReason).toBe('completed');
  });

  it('finds the JSON inside a text answer, as deciders and judges do; prose alone is a parse_error retried in place', async () => {
    const trace = await runGraph(mockPlanner([
      { outcome: 'ok', reply: 'Let me think.' },
      { outcome: 'ok', reply: `Here is the plan: ${JSON.stringify(PLAN)} — good luck` },
    ]));
    const decide = trace.steps[0];
    expect(decide.attempts.map((attempt) => [attempt.outcome, attempt.error ?? null])).toEqual([['parse_error', 'the planner did not answer with JSON'], ['ok', null]]);
    expect(decide.writes.plan).toMatchObject({ actions: PLAN.actions });
  });
});
