import { describe, expect, it } from 'vitest';
import { type GraphFile, type MockEntry } from '../graph/index.ts';
import { validateGraph } from '../graph/validate.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { createController, runGraph } from './index.ts';
import { Trace } from './trace.ts';
import { executedNodes, nodeOf, scriptedLlm, withoutTimings } from './testing.ts';
import { noteWords } from './stepWords.ts';

const script = (graph: ReturnType<typeof FIXTURES.innerLoop>, skill: string, entries: MockEntry[]) => {
  const definition = graph.skills[skill];
  if (definition.type !== 'mock') throw new Error(`${skill} is not a mock`);
  definition.script = entries;
};
const tool = (name: string, args: Record<string, unknown> = {}): MockEntry => ({ outcome: 'ok', reply: { tool: name, args } });
const done: MockEntry = { outcome: 'ok', reply: { done: true, output: {} } };

describe('the inner agent loop (seed 003)', () => {
  it('iterates decider → tool → observe until done, each iteration in the step, the flat attempts kept', async () => {
    const trace = await runGraph(FIXTURES.innerLoop());
    expect(executedNodes(trace)).toEqual(['work', 'check', 'answer']);
    const work = trace.steps[0];
    expect(work.outcome).toBe('ok');
    expect(work.maxIter).toBe(3);
    expect(work.iterations?.map((iteration) => [iteration.n, iteration.tool ?? null, iteration.outcome, iteration.attempts.map((attempt) => attempt.skill)])).toEqual([
      [1, 'grep', 'ok', ['think', 'grep']],
      [2, null, 'done', ['think']],
    ]);
    expect(work.iterations?.[0].reply).toEqual({ tool: 'grep', args: { q: 'FAIL' } });
    expect(work.attempts.map((attempt) => [attempt.skill, attempt.iteration])).toEqual([['think', 1], ['grep', 1], ['think', 2]]);
    expect(work.writes.results).toEqual([{ skill: 'grep', args: { q: 'FAIL' }, outcome: 'ok', records: [{ line: 'FAIL a.test.ts' }], attempts: 1 }]);
    expect(trace.tokensUsed).toBe(5 + 10 + 5 + 3);
    // Context isolation: the decider is shown the node's declared reads, and the step says so.
    expect(work.given).toEqual({ skill: 'think', reads: ['plan', 'reasoning', 'approval'], state: {} });
    expect(Trace.safeParse(trace).success).toBe(true);
  });

  it('a reply that does not parse is a parse_error of the decider, retried in place', async () => {
    const graph = FIXTURES.innerLoop();
    // A text reply is read as a model's text: JSON inside it counts, prose alone does not.
    script(graph, 'think', [{ outcome: 'ok', reply: 'let me grep for it' }, { outcome: 'ok', reply: 'Calling {"tool": "grep"} now' }, done]);
    const work = (await runGraph(graph)).steps[0];
    expect(work.iterations?.[0].attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome])).toEqual([['think', 1, 'parse_error'], ['think', 2, 'ok'], ['grep', 1, 'ok']]);
    expect(work.iterations?.[0].attempts[0].error).toBe('the decider did not answer with JSON');
    expect(work.iterations?.[0].reply).toEqual({ tool: 'grep', args: {} });
    expect(work.outcome).toBe('ok');
  });

  it('JSON that is not a decider reply is a parse_error naming what is wrong', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'think', [{ outcome: 'ok', reply: { call: 'grep' } }, done]);
    const work = (await runGraph(graph)).steps[0];
    expect(work.iterations?.[0].attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome])).toEqual([['think', 1, 'parse_error'], ['think', 2, 'ok']]);
    expect(work.iterations?.[0].attempts[0].error).toMatch(/^not a decider reply: /);
  });

  it('a tool outside `tools` is an error attempt, and the node routes on error', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'think', [tool('rm_rf')]);
    const trace = await runGraph(graph);
    const work = trace.steps[0];
    expect(work.outcome).toBe('error');
    expect(work.iterations?.[0].attempts.at(-1)).toMatchObject({ skill: 'rm_rf', outcome: 'error', error: expect.stringMatching(/not one of this loop's tools/) });
    expect(work.writes.execution_error).toMatchObject({ outcome: 'error', skill: 'rm_rf' });
    expect(work.fired?.id).toBe('w2');
  });

  it('the permission check runs before the tool call: a write tool in read-only mode is denied inside the iteration', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'think', [tool('grep'), tool('write_file', { path: 'a.ts' })]);
    const work = (await runGraph(graph)).steps[0];
    expect(work.outcome).toBe('denied');
    expect(work.iterations?.map((iteration) => iteration.outcome)).toEqual(['ok', 'permission_denied']);
    expect(work.iterations?.[1].attempts.at(-1)?.retry).toMatch(/^permission check: read-only does not allow write access/);
    expect(work.writes.execution_error).toMatchObject({ outcome: 'permission_denied', skill: 'write_file' });
  });

  it('each tool call has the node\'s local retry: a timeout is retried inside its iteration', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'grep', [{ outcome: 'timeout' }, { outcome: 'ok', records: [{ line: 'x' }] }]);
    const work = (await runGraph(graph)).steps[0];
    expect(work.iterations?.[0].attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome])).toEqual([['think', 1, 'ok'], ['grep', 1, 'timeout'], ['grep', 2, 'ok']]);
    expect(work.iterations).toHaveLength(2);
  });

  it('maxIter iterations without done end with max_iter, which routes like an error; finally answers and the stop reason stays', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'think', [tool('grep')]);
    const trace = await runGraph(graph);
    const work = trace.steps[0];
    expect(work.outcome).toBe('max_iter');
    expect(work.iterations).toHaveLength(3);
    expect(noteWords(work.note!)).toMatch(/^max_iter reached: 3 iteration\(s\) without done/);
    expect(work.writes.execution_error).toMatchObject({ skill: 'think', message: expect.stringMatching(/max_iter/) });
    expect(executedNodes(trace)).toEqual(['work', 'halt', 'final']);
    expect(trace.stopReason).toBe('gave_up');
    expect(trace.steps.at(-1)).toMatchObject({ node: 'final', finally: true, stop: { reason: 'gave_up' } });
    expect(trace.finalState.response).toEqual({ text: 'stopped early: find the failing test' });
  });

  it('a verify loop ending at max_iter is exhausted with reason max_iter', async () => {
    const graph = FIXTURES.innerLoop();
    const check = nodeOf(graph, 'check', 'verify');
    check.config.loop = { decider: 'judge', tools: ['grep'], maxIter: 2 };
    script(graph, 'judge', [tool('grep')]);
    const trace = await runGraph(graph);
    const step = trace.steps.find((candidate) => candidate.node === 'check');
    expect(step?.outcome).toBe('max_iter');
    expect(step?.writes.evaluation).toMatchObject({ reason: 'max_iter', plan_exhausted: true, evidence_sufficient: false });
  });

  it('a verify loop\'s done output sets the evaluation; an output that is no judgement is a parse_error', async () => {
    const graph = FIXTURES.innerLoop();
    nodeOf(graph, 'check', 'verify').config.loop = { decider: 'judge', tools: ['grep'], maxIter: 3 };
    script(graph, 'judge', [tool('grep'), { outcome: 'ok', reply: { done: true, output: { verdict: 'fine' } } }, { outcome: 'ok', reply: { done: true, output: { sufficient: true, exhausted: false, reason: 'sufficient', reasoning: 'grep agrees' } } }]);
    const step = (await runGraph(graph)).steps.find((candidate) => candidate.node === 'check');
    expect(step?.iterations?.[1].attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'ok']);
    expect(step?.outcome).toBe('sufficient');
    expect(step?.writes.evaluation).toMatchObject({ evidence_sufficient: true, reason: 'sufficient', reasoning: expect.stringMatching(/grep agrees/) });
  });
});

describe('an llm decider', () => {
  it('is asked through the OpenAI-compatible skill with the node\'s declared reads only; fenced JSON parses', async () => {
    const graph = FIXTURES.innerLoop();
    graph.skills.think = { type: 'llm', access: 'read', baseUrl: 'http://llm.test/v1', model: 'tiny', timeoutMs: 1000 };
    graph.state.secret_notes = 'not for the decider';
    const { fetch, prompts } = scriptedLlm(['```json\n{"tool": "grep", "args": {"q": "FAIL"}}\n```', '{"done": true, "output": {}}']);
    const trace = await runGraph(graph, { fetch });
    const work = trace.steps[0];
    expect(work.iterations?.map((iteration) => iteration.outcome)).toEqual(['ok', 'done']);
    expect(prompts).toHaveLength(2);
    expect(prompts.join('\n')).not.toContain('not for the decider');
    expect(prompts[1]).toContain('FAIL a.test.ts');
    expect(work.given).toEqual({ skill: 'think', reads: ['plan', 'reasoning', 'approval'], state: {} });
  });
});

describe('verify with a judge', () => {
  it('a judge that finds the evidence insufficient sends the run back; its input is recorded', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'judge', [
      { outcome: 'ok', reply: { sufficient: false, exhausted: false, reason: 'coverage_low', reasoning: 'only one file searched' } },
      { outcome: 'ok', reply: { sufficient: true, exhausted: false, reasoning: 'enough' } },
    ]);
    script(graph, 'think', [tool('grep'), done]);
    const trace = await runGraph(graph);
    expect(executedNodes(trace)).toEqual(['work', 'check', 'work', 'check', 'answer']);
    const first = trace.steps[1];
    expect(first.outcome).toBe('continue');
    expect(first.writes.evaluation).toMatchObject({ reason: 'coverage_low', evidence_sufficient: false, plan_exhausted: false });
    expect(first.given).toMatchObject({ skill: 'judge', reads: ['results', 'execution_error', 'collected', 'verified'] });
    expect(first.given?.state.results).toHaveLength(1);
    expect(trace.stopReason).toBe('completed');
  });

  it('a judge that cannot answer leaves the plan exhausted with the failure as the reason', async () => {
    const graph = FIXTURES.innerLoop();
    script(graph, 'judge', [{ outcome: 'timeout' }]);
    const step = (await runGraph(graph)).steps[1];
    expect(step.attempts).toHaveLength(3);
    expect(step.writes.evaluation).toMatchObject({ reason: 'timeout', plan_exhausted: true });
  });
});

describe('finally: a final response on every stop (seed 000)', () => {
  it('runs once after a guard stop, with no guards of its own, in the compiled graph', async () => {
    const graph = FIXTURES.innerLoop();
    graph.limits.maxSteps = 1;
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('max_steps');
    expect(trace.steps.map((step) => [step.node, step.guard?.reason ?? null, step.finally ?? false])).toEqual([
      ['work', null, false], ['check', 'max_steps', false], ['final', null, true],
    ]);
    expect(trace.finalState.response).toBeDefined();
  });

  it('does not run after a completed run', async () => {
    const trace = await runGraph(FIXTURES.innerLoop());
    expect(trace.steps.some((step) => step.finally)).toBe(false);
  });

  it('must name a respond node', () => {
    const graph = FIXTURES.innerLoop();
    graph.finally = 'halt';
    expect(validateGraph(graph).map((problem) => problem.code)).toContain('bad_finally');
    graph.finally = 'final';
    expect(validateGraph(graph).map((problem) => problem.code)).not.toContain('bad_finally');
    // Nothing leads to the finally node, and that is no problem: it runs after a stop.
    expect(validateGraph(graph).map((problem) => problem.code)).not.toContain('unreachable');
  });
});

describe('fixes found against the seeds\' code', () => {
  const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

  it('a recovery that names only an action is still a recovery in between: the next plan is not repeated', async () => {
    const graph = securityclaw();
    nodeOf(graph, 'recover', 'recover').config.rules = [{ reason: 'empty_result', action: 'expand_search_scope' }];
    const trace = await runGraph(graph);
    const plans = trace.steps.filter((step) => step.node === 'decide');
    expect(plans[1].outcome).toBe('ok');
    expect(noteWords(plans[1].note!)).toMatch(/after the recovery expand_search_scope for empty_result/);
  });

  it('a budget stop between retries still writes execution_error', async () => {
    const graph = securityclaw();
    graph.skills.search_events = { type: 'mock', access: 'read', tokens: 1000, script: [{ outcome: 'timeout' }] };
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('budget_exhausted');
    expect(trace.finalState.execution_error).toMatchObject({ outcome: 'timeout', skill: 'search_events', message: expect.stringMatching(/budget/) });
  });

  it('permission_conflict is softened only when an approve node can grant the skill', () => {
    const graph = FIXTURES.innerLoop();
    const conflict = () => validateGraph(graph).find((problem) => problem.code === 'permission_conflict');
    expect(conflict()?.severity).toBe('error');
    graph.nodes.push({ id: 'ask', kind: 'approve', position: { x: 0, y: 0 }, config: {} });
    graph.edges.push({ id: 'a1', source: 'ask', target: 'work' });
    // Nothing leads to it yet: it cannot be reached from work.
    expect(conflict()?.severity).toBe('error');
    graph.edges.push({ id: 'a0', source: 'work', target: 'ask', when: { outcome: 'denied' } });
    expect(conflict()?.severity).toBe('warning');
    // A verify loop's tool is not granted by approval: approval grants what an act node was refused.
    nodeOf(graph, 'work', 'act').config.loop = { decider: 'think', tools: ['grep'], maxIter: 3 };
    nodeOf(graph, 'check', 'verify').config.loop = { decider: 'judge', tools: ['write_file'], maxIter: 2 };
    expect(conflict()?.severity).toBe('error');
  });

  it('an approval never grants a loop\'s decider: the validation error and the approve step say the same (issue 54, #2)', async () => {
    const graph = FIXTURES.innerLoop();
    graph.skills.think = { ...graph.skills.think, access: 'write' };
    graph.nodes.push({ id: 'ask', kind: 'approve', position: { x: 0, y: 0 }, config: { auto: 'approve' } });
    graph.edges.unshift({ id: 'a0', source: 'work', target: 'ask', when: { outcome: 'denied' } });
    graph.edges.push({ id: 'a1', source: 'ask', target: 'halt' });
    // The loop's write tool is granted by the approval (a warning); its decider never is (an error).
    expect(validateGraph(graph).filter((problem) => problem.code === 'permission_conflict').map((problem) => [problem.message.slice(0, 20), problem.severity])).toEqual([['work uses "think", w', 'error'], ['work uses "write_fil', 'warning']]);
    const trace = await runGraph(graph);
    const ask = trace.steps.find((step) => step.node === 'ask');
    expect(ask?.writes.approval).toEqual({ decision: 'approved', skill: null, by: 'auto' });
    expect(ask?.note && noteWords(ask.note)).toContain('think was refused as a loop\'s decider, which an approval never grants');
  });

  it('a cap that drops work says so: a validation warning, and the step\'s note', async () => {
    const graph = securityclaw();
    const decide = nodeOf(graph, 'decide', 'reason');
    decide.config.plans = [{ actions: [{ skill: 'search_events', args: {} }, { skill: 'fallback_lookup', args: {} }] }];
    nodeOf(graph, 'execute', 'act').config.maxIter = 1;
    expect(validateGraph(graph).find((problem) => problem.code === 'capped_work')?.message).toMatch(/2 actions but execute runs at most maxIter 1/);
    const execute = (await runGraph(graph)).steps[1];
    expect(noteWords(execute.note!)).toMatch(/1 over maxIter 1 not run/);
  });
});

describe('an inner loop in channels: checkpoints, forks and restores stay exact', () => {
  const graphEngineer = () => (findTemplate('graph-engineer') as { graph: () => GraphFile }).graph();
  const withoutStateBefore = (trace: Trace) => withoutTimings({ ...trace, forkedFrom: undefined, steps: trace.steps.map((step) => ({ ...step, stateBefore: undefined })) });

  it('stepping node by node gives the headless trace, through max_iter and the finally node', async () => {
    const scenario = 'the inner loop hits max_iter and routes on error';
    const whole = await runGraph(graphEngineer(), { scenario });
    const stepped = createController(graphEngineer(), { scenario });
    const nodes: string[] = [];
    for (let step = await stepped.step(); step; step = await stepped.step()) nodes.push(step.node);
    expect(nodes).toEqual(['gather', 'think', 'run', 'halt', 'wrap_up']);
    expect(stepped.session.status).toBe('stopped');
    expect(withoutStateBefore(stepped.trace)).toEqual(withoutStateBefore(whole));
  });

  it('a fork after a loop step continues the deciders\' scripts where they were, as the original did', async () => {
    const original = createController(graphEngineer());
    await original.run();
    const fork = await original.fork(3, {});
    await fork.run();
    expect(withoutStateBefore(fork.trace)).toEqual(withoutStateBefore(original.trace));
  });

  it('a run restored from its journal mid-loop-graph ends as an uninterrupted run', async () => {
    const whole = await runGraph(graphEngineer());
    const first = createController(graphEngineer());
    for (let step = 0; step < 4; step += 1) await first.step();
    const restored = createController(graphEngineer(), { journal: JSON.parse(JSON.stringify(first.journal)) });
    await restored.run();
    expect(withoutStateBefore(restored.trace)).toEqual(withoutStateBefore(whole));
  });

  it('a run restored between its stop and the final response writes the final response', async () => {
    const scenario = 'the inner loop hits max_iter and routes on error';
    const first = createController(graphEngineer(), { scenario });
    for (let step = 0; step < 4; step += 1) await first.step();
    expect(first.session.status).toBe('paused');
    expect(first.next).toBe('wrap_up');
    const restored = createController(graphEngineer(), { scenario, journal: JSON.parse(JSON.stringify(first.journal)) });
    expect(restored.next).toBe('wrap_up');
    await restored.run();
    expect(restored.trace.steps.at(-1)).toMatchObject({ node: 'wrap_up', finally: true });
    expect(restored.trace.stopReason).toBe('gave_up');
  });

  it('a fork may give a loop step the outcome max_iter, and the run routes on it to the final response', async () => {
    const original = createController(graphEngineer());
    await original.run();
    const fork = await original.fork(3, { outcome: 'max_iter' });
    await fork.run();
    expect(fork.trace.steps.map((step) => step.node)).toEqual(['gather', 'think', 'run', 'halt', 'wrap_up']);
    expect(fork.trace.stopReason).toBe('gave_up');
  });
});
