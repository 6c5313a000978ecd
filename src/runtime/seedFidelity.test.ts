/**
 * Issue 35: the seed articles' code run side by side with Loopscope left a few places where the
 * runtime broke its own documentation or could not say what the articles say. Each is pinned here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphFile, MockEntry } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { runGraph } from './index.ts';
import { nodeOf } from './testing.ts';
import { noteWords } from './stepWords.ts';

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
    expect(noteWords(step.note!)).toContain('only reads');
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

/** The inner-loop fixture's graph with `skill`'s script replaced. */
const scripted = (graph: GraphFile, skill: string, entries: MockEntry[]) => {
  const definition = graph.skills[skill];
  if (definition.type !== 'mock') throw new Error(`${skill} is not a mock`);
  definition.script = entries;
  return graph;
};
const tool = (name: string, args: Record<string, unknown> = {}): MockEntry => ({ outcome: 'ok', reply: { tool: name, args } });
const doneWith = (output: Record<string, unknown>): MockEntry => ({ outcome: 'ok', reply: { done: true, output } });

/** The inner-loop fixture with a Reason node in front whose decider `planner` may read with grep. */
const reasonLoop = (replies: MockEntry[]): GraphFile => {
  const graph = FIXTURES.innerLoop();
  graph.skills.planner = { type: 'mock', access: 'read', tokens: 4, script: replies };
  graph.nodes.unshift({ id: 'plan_it', kind: 'reason', position: { x: 0, y: 0 }, config: { planner: 'scripted', plans: [], retry: { maxAttempts: 3, retryOn: ['timeout', 'parse_error'] }, loop: { decider: 'planner', tools: ['grep', 'write_file'], maxIter: 3 } } });
  graph.edges.unshift({ id: 'p1', source: 'plan_it', target: 'work', when: { any: [{ outcome: 'ok' }, { outcome: 'repeated' }] } }, { id: 'p2', source: 'plan_it', target: 'halt', when: 'otherwise' });
  graph.entry = 'plan_it';
  return graph;
};

describe('REASON with an inner loop (seed 003 runs every node through the same loop)', () => {
  it('the decider looks with a read tool, then its done output is the plan; the iterations are in the step', async () => {
    const trace = await runGraph(reasonLoop([tool('grep', { q: 'FAIL' }), doneWith(PLAN)]));
    const step = trace.steps[0];
    expect(step).toMatchObject({ node: 'plan_it', outcome: 'ok', maxIter: 3, writes: { plan: { actions: PLAN.actions, repeated: false } } });
    expect(step.iterations?.map((iteration) => [iteration.tool ?? null, iteration.outcome])).toEqual([['grep', 'ok'], [null, 'done']]);
    expect(Object.keys(step.writes)).toEqual(['plan']);
    expect(noteWords(step.note!)).toMatch(/^the decider planner planned it after 2 iteration\(s\): fallback_lookup/);
    expect(step.given).toMatchObject({ skill: 'planner', reads: ['round', 'recovery', 'plan', 'evaluation', 'failures'] });
  });

  it('a malformed plan is a parse_error of the decider, retried in place', async () => {
    const step = (await runGraph(reasonLoop([doneWith({ actions: 'grep everything' }), doneWith(PLAN)]))).steps[0];
    expect(step.iterations?.[0].attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome])).toEqual([['planner', 1, 'parse_error'], ['planner', 2, 'ok']]);
    expect(step.iterations?.[0].attempts[0].error).toMatch(/^not a decider reply: output: the output must be \{"actions"/);
    expect(step.outcome).toBe('ok');
  });

  it('a refused tool ends it at once with denied; no done within maxIter is max_iter; neither writes a plan', async () => {
    const denied = (await runGraph(reasonLoop([tool('write_file')]))).steps[0];
    expect(denied).toMatchObject({ outcome: 'denied', writes: {}, fired: { id: 'p2' } });
    expect(denied.iterations).toHaveLength(1);
    const capped = (await runGraph(reasonLoop([tool('grep')]))).steps[0];
    expect(capped).toMatchObject({ outcome: 'max_iter', writes: {} });
    expect(capped.iterations).toHaveLength(3);
  });
});

describe('a done output carrying "error" ends the node with the outcome error, in every kind that runs a loop', () => {
  const failing = doneWith({ error: 'the repository is gone' });

  it('reason', async () => {
    const step = (await runGraph(reasonLoop([failing]))).steps[0];
    expect(step).toMatchObject({ outcome: 'error', writes: {}, fired: { id: 'p2' } });
    expect(noteWords(step.note!)).toContain('answered done with an error: the repository is gone');
  });

  it('act: execution_error names the decider and the error', async () => {
    const step = (await runGraph(scripted(FIXTURES.innerLoop(), 'think', [tool('grep'), failing]))).steps[0];
    expect(step.outcome).toBe('error');
    expect(step.writes.execution_error).toEqual({ outcome: 'error', skill: 'think', message: 'the repository is gone' });
    expect(step.fired?.id).toBe('w2');
  });

  it('collect: what was gathered before stays', async () => {
    const graph = graphEngineer();
    scripted(graph, 'scout', [tool('read_logs'), doneWith({ error: { code: 500 } })]);
    const step = (await runGraph(graph)).steps[0];
    expect(step.outcome).toBe('error');
    expect(noteWords(step.note!)).toContain('answered done with an error: {"code":500}');
    expect(step.writes.collected).toHaveLength(1);
  });

  it('verify: the plan is exhausted with execution_error', async () => {
    const graph = FIXTURES.innerLoop();
    nodeOf(graph, 'check', 'verify').config.loop = { decider: 'judge', tools: ['grep'], maxIter: 3 };
    scripted(graph, 'judge', [failing]);
    const step = (await runGraph(graph)).steps.find((candidate) => candidate.node === 'check');
    expect(step?.outcome).toBe('error');
    expect(step?.writes.evaluation).toMatchObject({ evidence_sufficient: false, plan_exhausted: true, reason: 'execution_error' });
  });

  it('an output with "error": false or null is no error', async () => {
    const step = (await runGraph(scripted(FIXTURES.innerLoop(), 'think', [tool('grep'), doneWith({ error: null })]))).steps[0];
    expect(step.outcome).toBe('ok');
  });

  it('"error" is read as the article\'s `if result.get("error")` reads it: 0, "", [] and {} are no error; 1, [0] and {"a": 0} are (issue 54, #5)', async () => {
    const outcomeWith = async (error: unknown) => (await runGraph(scripted(FIXTURES.innerLoop(), 'think', [tool('grep'), doneWith({ error })]))).steps[0].outcome;
    for (const falsy of [0, '', [], {}, false]) expect(await outcomeWith(falsy), JSON.stringify(falsy)).toBe('ok');
    for (const truthy of [1, 'x', [0], { a: 0 }, true]) expect(await outcomeWith(truthy), JSON.stringify(truthy)).toBe('error');
  });
});

describe('VERIFY\'s verdict from its own tool ("verdictFrom": "tool")', () => {
  const verifyByTool = (answers: MockEntry[], replies: MockEntry[]) => {
    const graph = FIXTURES.innerLoop();
    graph.skills.run_tests = { type: 'mock', access: 'read', script: answers };
    Object.assign(nodeOf(graph, 'check', 'verify').config, { loop: { decider: 'judge', tools: ['run_tests'], maxIter: 3 }, verdictFrom: 'tool' });
    scripted(graph, 'judge', replies);
    return graph;
  };
  const checks = async (graph: GraphFile) => (await runGraph(graph)).steps.filter((step) => step.node === 'check');

  it('the last tool answer\'s ok sets evidence_sufficient, whatever the decider says; the tool is named in reasoning', async () => {
    const graph = verifyByTool(
      [{ outcome: 'ok', records: [{ ok: false, failed: 2 }] }, { outcome: 'ok', records: [{ ok: true }] }],
      [tool('run_tests'), doneWith({ sufficient: true, reasoning: 'looks fine to me' }), tool('run_tests'), doneWith({})],
    );
    const [first, second] = await checks(graph);
    expect(first.outcome).toBe('continue');
    expect(first.writes.evaluation).toMatchObject({ evidence_sufficient: false, plan_exhausted: false, reason: 'insufficient' });
    expect(first.writes.evaluation).toMatchObject({ reasoning: 'the tool run_tests answered ok: false (the verdict comes from the tool); the decider: looks fine to me' });
    expect(second.outcome).toBe('sufficient');
    expect(second.writes.evaluation).toMatchObject({ evidence_sufficient: true, reason: 'sufficient', reasoning: expect.stringContaining('the tool run_tests answered ok: true') });
  });

  it('no tool answered: nothing was verified; the decider may still say the plan is exhausted', async () => {
    const [step] = await checks(verifyByTool([{ outcome: 'ok', records: [{ ok: true }] }], [doneWith({ exhausted: true, reason: 'coverage_low' })]));
    expect(step.outcome).toBe('exhausted');
    expect(step.writes.evaluation).toMatchObject({ evidence_sufficient: false, plan_exhausted: true, reason: 'coverage_low', reasoning: expect.stringMatching(/^no tool answered/) });
  });

  it('a refused tool ends the verify loop at once with denied', async () => {
    const graph = verifyByTool([{ outcome: 'ok', records: [{ ok: true }] }], [tool('run_tests')]);
    graph.skills.run_tests = { ...graph.skills.run_tests, access: 'exec' } as GraphFile['skills'][string];
    const [step] = await checks(graph);
    expect(step.outcome).toBe('denied');
    expect(step.writes.evaluation).toMatchObject({ plan_exhausted: true, reason: 'permission_denied' });
    expect(step.iterations).toHaveLength(1);
  });
});

describe('the scripted planner takes plans[max(round-1, visits)], as the docs say (issue 54, #4)', () => {
  it('a second visit within a round takes the next plan, and docs/format.md names that rule, not plans[round-1]', async () => {
    const graph = securityclaw();
    // An entry before decide: coming back to decide does not start a round, so round-1 and visits differ.
    graph.nodes.push({ id: 'intake', kind: 'collect', position: { x: 0, y: 0 }, config: { skills: ['fallback_lookup'], args: {}, retry: { maxAttempts: 1, retryOn: [] }, maxIter: 5 } });
    graph.edges.push({ id: 'i1', source: 'intake', target: 'decide' });
    graph.entry = 'intake';
    nodeOf(graph, 'decide', 'reason').config.plans.push({ actions: [{ skill: 'query_alternative_source', args: {} }] });
    nodeOf(graph, 'recover', 'recover').config.rules = [{ reason: 'otherwise', action: 'retry_differently' }];
    const trace = await runGraph(graph);
    const plans = trace.steps.filter((step) => step.node === 'decide');
    expect(plans.map((step) => [step.round, (step.note && noteWords(step.note))?.match(/scripted plan \d of \d/)?.[0]])).toEqual([[1, 'scripted plan 1 of 2'], [1, 'scripted plan 2 of 2']]);
    const page = readFileSync(new URL('../../docs/format.md', import.meta.url), 'utf8');
    expect(page).not.toContain('plans[round-1]');
    expect(page.match(/plans\[max\(round-1, visits\)\]/g)?.length).toBe(2);
  });
});
