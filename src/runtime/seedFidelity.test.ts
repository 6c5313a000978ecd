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

const graphEngineer = () => (findTemplate('graph-engineer') as { graph: () => GraphFile }).graph();

describe('COLLECT only reads', () => {
  it('a write skill in its list is refused before the call, in workspace mode too, saying why', async () => {
    const graph = graphEngineer();
    graph.permissions.mode = 'workspace';
    const gather = nodeOf(graph, 'gather', 'collect');
    delete gather.config.loop;
    gather.config.skills = ['read_logs', 'apply_patch'];
    const step = (await runGraph(graph)).steps[0];
    expect(step.outcome).toBe('error');
    expect(step.attempts.map((attempt) => [attempt.skill, attempt.outcome, attempt.tokens])).toEqual([['read_logs', 'ok', 40], ['apply_patch', 'permission_denied', 0]]);
    expect(step.attempts[1].error).toBe('gather is a Collect node, which only reads: apply_patch needs write access');
    expect(step.attempts[1].returned).toBeUndefined();
    expect(step.note).toContain('only reads');
  });

  it('a write tool its loop\'s decider asks for is refused before the call, and the loop ends at once', async () => {
    const graph = graphEngineer();
    graph.permissions.mode = 'full';
    nodeOf(graph, 'gather', 'collect').config.loop?.tools.push('apply_patch');
    const scout = graph.skills.scout;
    if (scout.type !== 'mock') throw new Error('scout is a mock');
    scout.script = [{ outcome: 'ok', reply: { tool: 'apply_patch', args: {} } }];
    const step = (await runGraph(graph)).steps[0];
    expect(step.iterations?.map((iteration) => iteration.outcome)).toEqual(['permission_denied']);
    expect(step.attempts.at(-1)).toMatchObject({ skill: 'apply_patch', outcome: 'permission_denied', tokens: 0, error: expect.stringMatching(/only reads/) });
  });
});
