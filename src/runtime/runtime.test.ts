import { describe, expect, it, vi } from 'vitest';
import { SKILL_LIMITS, type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { boundKeys } from '../skills/index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { guardCheckWords } from './guards.ts';
import { stopWords } from './stepWords.ts';
import { createController, nodeRan, runGraph } from './index.ts';
import { backoffBefore } from './retry.ts';
import { executedNodes, nodeOf, withoutTimings } from './testing.ts';
import { noteWords, runStopWords } from './stepWords.ts';

/** The real waits of at least `ms` set from now on: a simulated delay must set none (counted, not timed). */
const waitsOfAtLeast = (ms: number) => {
  const spy = vi.spyOn(globalThis, 'setTimeout');
  return () => {
    const waits = spy.mock.calls.map((call) => call[1] ?? 0).filter((delay) => delay >= ms);
    spy.mockRestore();
    return waits;
  };
};

const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

describe('action level: local retry', () => {
  it('a timeout is retried in place: only the current action, round and steps unchanged, no re-plan', async () => {
    const trace = await runGraph(FIXTURES.twoActions());
    const act = trace.steps.find((step) => step.node === 'act');
    expect(act?.attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome, attempt.action])).toEqual([
      ['flaky', 1, 'timeout', 0], ['flaky', 2, 'ok', 0], ['steady', 1, 'ok', 1],
    ]);
    expect(act?.attempts[0].retry).toBe('timeout is in retryOn (attempt 1 of 3): retrying in place');
    expect(act?.round).toBe(1);
    expect(act?.stateBefore?.steps).toBe(1);
    expect(trace.steps.find((step) => step.node === 'check')?.stateBefore?.steps).toBe(2);
    expect(executedNodes(trace)).toEqual(['plan', 'act', 'check', 'done']);
    expect(trace.finalState.results).toEqual([
      { skill: 'flaky', args: { q: 'a b' }, outcome: 'ok', records: [{ n: 1 }], attempts: 2 },
      { skill: 'steady', args: {}, outcome: 'ok', records: [{ n: 2 }], attempts: 1 },
    ]);
    expect(trace.tokensUsed).toBe(25);
  });

  it('a timeout not in retryOn is not retried, and the fatal action stops the rest', async () => {
    const graph = FIXTURES.twoActions();
    nodeOf(graph, 'act', 'act').config.retry.retryOn = ['parse_error'];
    const trace = await runGraph(graph);
    const act = trace.steps.find((step) => step.node === 'act');
    expect(act?.outcome).toBe('error');
    expect(act?.attempts.map((attempt) => attempt.skill)).toEqual(['flaky']);
    expect(act?.attempts[0].retry).toBe('timeout is not in retryOn [parse_error]: not retried');
    expect(act?.writes.execution_error).toEqual({ outcome: 'timeout', skill: 'flaky', message: 'timeout' });
    expect(trace.steps.find((step) => step.node === 'check')?.writes.evaluation).toMatchObject({ reason: 'timeout', plan_exhausted: true });
  });

  it('parse errors exhaust the retries and the failure reaches evaluate', async () => {
    const graph = securityclaw();
    graph.skills.search_events = { type: 'mock', access: 'read', tokens: 10, script: [{ outcome: 'parse_error' }] };
    const trace = await runGraph(graph);
    const execute = trace.steps[1];
    expect(execute.attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'parse_error', 'parse_error']);
    expect(execute.attempts[2].retry).toBe('parse_error is in retryOn but the attempts are used up (3 of 3)');
    expect(trace.steps[2].writes.evaluation).toMatchObject({ reason: 'parse_error', plan_exhausted: true, evidence_sufficient: false });
    expect(trace.steps[2].fired?.id).toBe('e4');
  });

  it('a per-attempt timeout turns a slow mock answer into a timeout, on the simulated clock', async () => {
    const graph = FIXTURES.twoActions();
    graph.skills.steady = { type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{}], delayMs: 5000 }, { outcome: 'ok', records: [{}] }] };
    nodeOf(graph, 'act', 'act').config.retry.timeoutMs = 1000;
    const timers = waitsOfAtLeast(1000);
    const trace = await runGraph(graph);
    expect(timers()).toEqual([]);
    const attempts = trace.steps[1].attempts.filter((attempt) => attempt.skill === 'steady');
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(['timeout', 'ok']);
    expect(attempts[0].error).toBe('no answer within 1000 ms (took 5000 ms)');
  });
});

describe('task level: recovery and routing', () => {
  it('an empty result enters recovery and the next round plans the recovery skill', async () => {
    const trace = await runGraph(securityclaw());
    expect(trace.steps[2].writes.evaluation).toMatchObject({ reason: 'empty_result', plan_exhausted: true });
    expect(trace.steps[3].writes.recovery).toEqual({ action: 'expand_search_scope', skill: 'query_alternative_source', reason: 'empty_result', tried: ['expand_search_scope'] });
    const replan = trace.steps[4];
    expect(replan.round).toBe(2);
    expect((replan.writes.plan as { actions: unknown[] }).actions).toEqual([{ skill: 'query_alternative_source', args: { q: 'login_failed src=10.0.0.5', window: '24h' } }]);
    expect(trace.stopReason).toBe('completed');
    expect(trace.rounds).toBe(2);
  });

  it('no matching rule → no_path → the stop node reason no_recovery_path', async () => {
    const graph = securityclaw();
    graph.skills.search_events = { type: 'mock', access: 'read', script: [{ outcome: 'error', error: 'boom' }] };
    const recover = nodeOf(graph, 'recover', 'recover');
    recover.config.rules = recover.config.rules.filter((rule) => rule.reason !== 'execution_error');
    const trace = await runGraph(graph);
    expect(trace.steps[3].outcome).toBe('no_path');
    expect(trace.stopReason).toBe('no_recovery_path');
    expect(trace.steps.at(-1)?.stop?.reason).toBe('no_recovery_path');
  });

  it('a rule whose estTokens exceed the budget left is skipped, and the explain says so', async () => {
    const graph = securityclaw();
    nodeOf(graph, 'recover', 'recover').config.rules.push({ reason: 'otherwise', action: 'broaden_evidence', skill: 'fallback_lookup', estTokens: 10 });
    graph.skills.search_events = { type: 'mock', access: 'read', tokens: 1900, script: [{ outcome: 'empty' }] };
    const trace = await runGraph(graph);
    const recover = trace.steps[3];
    expect(recover.writes.recovery).toEqual({ action: 'broaden_evidence', skill: 'fallback_lookup', reason: 'empty_result', tried: ['broaden_evidence'] });
    expect(noteWords(recover.note!)).toContain('needs ~150 tokens but only 100 are left, so it does not apply');
  });

  it('request_human_confirmation gives needs_human', async () => {
    const graph = securityclaw();
    nodeOf(graph, 'recover', 'recover').config.rules = [{ reason: 'empty_result', action: 'request_human_confirmation' }];
    const trace = await runGraph(graph);
    expect(trace.steps[3].outcome).toBe('needs_human');
  });

  it('no edge matches → no_route, with every edge explained', async () => {
    const graph = securityclaw();
    graph.edges = graph.edges.filter((edge) => edge.id !== 'e5' && edge.id !== 'e4' && edge.id !== 'e11');
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('no_route');
    // The step that stopped the run comes before the final response (`finally`).
    expect(trace.steps.at(-1)).toMatchObject({ node: 'final', finally: true, stop: { reason: 'no_route' } });
    const last = trace.steps.at(-2);
    expect(last?.node).toBe('evaluate');
    expect(last?.fired).toBeNull();
    expect(last?.edges).toEqual([{ id: 'e3', target: 'answer', matched: false, why: { is: 'outcome', expected: 'sufficient', actual: 'exhausted', matched: false } }]);
    expect(storedWords(last!.edges[0])).toBe('outcome is "exhausted", not "sufficient"');
  });

  it('a repeated plan with no recovery and no new evidence is a blind retry', async () => {
    const graph = FIXTURES.twoActions();
    graph.skills.flaky = { type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{}] }] };
    graph.skills.steady = { type: 'mock', access: 'read', script: [{ outcome: 'empty' }] };
    nodeOf(graph, 'check', 'verify').config.minRecords = 2;
    const trace = await runGraph(graph);
    const plans = trace.steps.filter((step) => step.node === 'plan' && nodeRan(step));
    expect(plans.map((step) => step.outcome)).toEqual(['ok', 'repeated', 'repeated']);
    expect(plans[1].blindRetry).toBe(true);
    expect(trace.stopReason).toBe('max_rounds');
  });

  it('an exception inside a node stops the run with error, never a crash', async () => {
    const graph = FIXTURES.twoActions();
    nodeOf(graph, 'done', 'respond').config.template = '{{state.x}}';
    graph.state = { x: 1n as unknown as number };
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('error');
    expect(runStopWords(trace)).toMatch(/^done failed: /);
    expect(trace.steps.at(-1)?.stop?.reason).toBe('error');
  });
});

describe('system level: guards', () => {
  it('a guard that stops the run just before the finally node still lets it write the final response', async () => {
    // Found by the generated-graph property: the entry is the finally node and the budget is spent before it runs.
    const graph: GraphFile = { format: 'loopscope/graph', version: 1, name: 'closing entry', entry: 'answer', finally: 'answer', limits: { maxRounds: 5, maxSteps: 50, tokenBudget: 0 }, state: {}, skills: {}, nodes: [{ id: 'answer', kind: 'respond', position: { x: 0, y: 0 }, config: {} }], edges: [] } as unknown as GraphFile;
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('budget_exhausted');
    expect(trace.steps.map((step) => [step.node, step.finally ?? false, step.stop?.reason])).toEqual([
      ['answer', false, 'budget_exhausted'],
      ['answer', true, 'budget_exhausted'],
    ]);
  });

  it('max rounds forces a stop', async () => {
    const graph = securityclaw();
    graph.skills.search_events = { type: 'mock', access: 'read', script: [{ outcome: 'empty' }] };
    graph.skills.query_alternative_source = { type: 'mock', access: 'read', script: [{ outcome: 'empty' }] };
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('max_rounds');
    expect(trace.rounds).toBe(5);
    expect(trace.steps.at(-1)).toMatchObject({ node: 'final', finally: true, round: 5 });
    const last = trace.steps.at(-2);
    expect(last?.guard).toEqual({ reason: 'max_rounds', value: 6, limit: 5 });
    expect(stopWords(last!.guard!)).toBe('round 6 would exceed maxRounds 5');
    expect(last?.fired).toBeNull();
    expect(last?.guards?.map(guardCheckWords)).toEqual(['round 6/5']);
    expect(trace.finalState.round).toBe(5);
  });

  it('max steps forces a stop', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 7;
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('max_steps');
    expect(trace.finalState.steps).toBe(7);
    expect(trace.steps.at(-1)?.guard).toEqual({ reason: 'max_steps', value: 7, limit: 7 });
    expect(stopWords(trace.steps.at(-1)!.guard!)).toBe('steps 7 reached maxSteps 7');
    expect(runStopWords(trace)).toBe('steps 7 reached maxSteps 7');
    expect(trace.steps.at(-1)?.guards?.map((guard) => guard.passed)).toEqual([true, false]);
  });

  it('the budget running out between nodes stops before the next node', async () => {
    const graph = FIXTURES.twoActions();
    graph.limits.tokenBudget = 25;
    nodeOf(graph, 'check', 'verify').config.minRecords = 5;
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('budget_exhausted');
    expect(stopWords(trace.steps.at(-1)!.guard!)).toBe('tokens used 25 reached the budget of 25');
    expect(trace.steps.at(-1)?.node).toBe('check');
  });

  it('a round a guard stops before its first node does not count', async () => {
    const graph = FIXTURES.twoActions();
    graph.limits.tokenBudget = 0;
    const trace = await runGraph(graph);
    expect(trace).toMatchObject({ stopReason: 'budget_exhausted', rounds: 0, tokensUsed: 0 });
    expect(trace.steps).toHaveLength(1);
    // Stored as data, worded in one place.
    expect(trace.steps[0].guards?.[2]).toEqual({ name: 'budget_exhausted', value: 0, limit: 0, passed: false });
    expect(trace.steps[0].guards?.map(guardCheckWords)).toEqual(['round 1/3', 'steps 0/20', 'tokens 0/0']);
  });

  it('the budget is checked before each retry attempt', async () => {
    const graph = FIXTURES.twoActions();
    graph.limits.tokenBudget = 10;
    const trace = await runGraph(graph);
    const act = trace.steps.at(-1);
    expect(act?.node).toBe('act');
    expect(act?.attempts).toHaveLength(1);
    expect(act?.guard?.reason).toBe('budget_exhausted');
    expect(act && stopWords(act.guard!)).toBe('tokens 10/10 before attempt 2 of flaky: the budget is used up');
    expect(act?.fired).toBeNull();
    expect(trace.stopReason).toBe('budget_exhausted');
  });
});

describe('inner loops', () => {
  it('act runs at most maxIter actions a visit and says how many it left', async () => {
    const graph = FIXTURES.twoActions();
    nodeOf(graph, 'plan', 'reason').config.plans[0].actions.push({ skill: 'steady', args: { third: true } });
    nodeOf(graph, 'act', 'act').config.maxIter = 2;
    const trace = await runGraph(graph);
    expect((trace.steps[1].writes.results as unknown[]).length).toBe(2);
    expect(noteWords(trace.steps[1].note!)).toBe('2 action(s) returned 2 record(s) (1 over maxIter 2 not run)');
  });

  it('collect appends to collected; a failing skill gives error and stops the rest', async () => {
    const graph = (findTemplate('graph-engineer') as { graph: () => GraphFile }).graph();
    const gather = nodeOf(graph, 'gather', 'collect');
    gather.config = { ...gather.config, skills: ['read_logs', 'glob_files'], loop: undefined };
    const ok = await runGraph(graph);
    expect(ok.steps[0]).toMatchObject({ node: 'gather', outcome: 'ok', writes: { collected: [{ line: "error: cannot find module 'left-pad'" }, { file: 'package.json' }, { file: 'package-lock.json' }] } });
    graph.skills.read_logs = { type: 'mock', access: 'read', script: [{ outcome: 'error', error: 'no logs' }] };
    graph.edges.push({ id: 'g0', source: 'gather', target: 'report', when: { outcome: 'error' } });
    graph.edges = [graph.edges.at(-1) as (typeof graph.edges)[number], ...graph.edges.slice(0, -1)];
    const failed = await runGraph(graph);
    expect(failed.steps[0]).toMatchObject({ outcome: 'error', writes: { collected: [] } });
    expect(failed.steps[0].attempts.map((attempt) => attempt.skill)).toEqual(['read_logs']);
  });
});

describe('permissions', () => {
  it('a write skill in read-only mode is denied; headless auto approve grants it once', async () => {
    const graph = (findTemplate('approval-gate') as { graph: () => GraphFile }).graph();
    const trace = await runGraph(graph);
    expect(trace.steps.map((step) => `${step.node}:${step.outcome}`)).toEqual(['draft:ok', 'apply:denied', 'ask:approved', 'apply:ok', 'done:null']);
    expect(trace.steps[1].attempts[0]).toMatchObject({ outcome: 'permission_denied', tokens: 0 });
    expect(trace.finalState.approval).toEqual({ decision: 'approved', skill: 'open_ticket', by: 'auto' });
    expect(trace.finalState.response).toEqual({ text: 'Ticket opened for: 10.0.0.5 brute-forcing the admin login' });
  });

  it('the grant is used up: a second call of the skill is denied again', async () => {
    const graph = (findTemplate('approval-gate') as { graph: () => GraphFile }).graph();
    const draft = nodeOf(graph, 'draft', 'reason');
    draft.config.plans[0].actions.push({ skill: 'open_ticket', args: { title: 'again' } });
    const trace = await runGraph(graph);
    expect(trace.steps[3].attempts.map((attempt) => attempt.outcome)).toEqual(['ok', 'permission_denied']);
  });

  it('an approval covers the call with its in-place retries: an approved write that times out is retried, not refused (issue 54, #3)', async () => {
    const graph = (findTemplate('approval-gate') as { graph: () => GraphFile }).graph();
    const skill = graph.skills.open_ticket;
    if (skill.type !== 'mock') throw new Error('open_ticket is a mock');
    skill.script = [{ outcome: 'timeout', error: 'the tracker did not answer' }, { outcome: 'ok', records: [{ id: 7 }] }];
    nodeOf(graph, 'apply', 'act').config.retry = { maxAttempts: 3, retryOn: ['timeout'] };
    const trace = await runGraph(graph);
    expect(trace.steps.map((step) => `${step.node}:${step.outcome}`)).toEqual(['draft:ok', 'apply:denied', 'ask:approved', 'apply:ok', 'done:null']);
    expect(trace.steps[3].attempts.map((attempt) => [attempt.n, attempt.outcome])).toEqual([[1, 'timeout'], [2, 'ok']]);
    expect(trace.stopReason).toBe('completed');
  });

  it('headless without auto denies', async () => {
    const graph = (findTemplate('approval-gate') as { graph: () => GraphFile }).graph();
    delete nodeOf(graph, 'ask', 'approve').config.auto;
    const trace = await runGraph(graph);
    expect(trace.stopReason).toBe('denied');
    expect(trace.finalState.approval).toEqual({ decision: 'denied', skill: 'open_ticket', by: 'default (headless, no auto)' });
  });
});

describe('determinism and the trace format', () => {
  it('one seed gives one trace, run at once or stepped one LangGraph call per node', async () => {
    const first = await runGraph(securityclaw(), { seed: 7 });
    const second = await runGraph(securityclaw(), { seed: 7 });
    const stepped = createController(securityclaw(), { seed: 7, headless: true });
    while (await stepped.step());
    expect(withoutTimings(second)).toEqual(withoutTimings(first));
    expect(withoutTimings(stepped.trace)).toEqual(withoutTimings(first));
    expect(first.seed).toBe(7);
  });

  it('has every SPEC §2 field', async () => {
    const trace = await runGraph(securityclaw());
    expect(Object.keys(trace)).toEqual(expect.arrayContaining(['format', 'version', 'graph', 'seed', 'stopReason', 'rounds', 'tokensUsed', 'finalState', 'steps']));
    expect(trace).toMatchObject({ format: 'loopscope/trace', version: 1, graph: 'SecurityClaw triage', stopReason: 'completed', rounds: 2, tokensUsed: 350 });
    expect(trace.steps[1]).toMatchObject({
      step: 2, round: 1, node: 'execute', kind: 'act', outcome: 'empty', reads: ['plan', 'reasoning', 'approval'],
      // The reasons as data, not words (src/graph/reason.ts).
      edges: [{ id: 'e2', target: 'evaluate', matched: true, why: { is: 'always', matched: true } }],
      fired: { id: 'e2', target: 'evaluate', why: { is: 'always', matched: true } }, guard: null,
    });
    expect(trace.steps[1].attempts.map((attempt) => [attempt.n, attempt.skill, attempt.outcome, attempt.tokens])).toEqual([[1, 'search_events', 'timeout', 100], [2, 'search_events', 'empty', 100]]);
    expect(Object.keys(trace.steps[1].writes)).toEqual(['results', 'execution_error']);
    expect(typeof trace.steps[1].durationMs).toBe('number');
  });

  it('respond without a template answers the question with the evidence, a record a line', async () => {
    const trace = await runGraph(securityclaw());
    expect(trace.finalState.response).toEqual({
      text: 'failed logins from 10.0.0.5? — 2 record(s) of evidence:\n- ip=10.0.0.5 user=admin event=login_failed count=42\n- ip=10.0.0.5 user=root event=login_failed count=7',
    });
  });

  it('each kind writes only its own fields', async () => {
    const trace = await runGraph(securityclaw());
    const owned: Record<string, string[]> = { reason: ['plan'], act: ['results', 'execution_error'], verify: ['evaluation'], recover: ['recovery', 'failures'], respond: ['response'] };
    for (const step of trace.steps) for (const field of Object.keys(step.writes)) expect(owned[step.kind]).toContain(field);
  });
});

describe('the llm planner', () => {
  const PLANNER_ORIGIN = 'http://llm.test';
  const llmGraph = (): GraphFile => {
    const graph = securityclaw();
    graph.skills.planner = { type: 'llm', access: 'read', baseUrl: 'http://llm.test/v1', model: 'tiny', apiKeyName: 'PLANNER_KEY', timeoutMs: 1000 };
    const decide = nodeOf(graph, 'decide', 'reason');
    decide.config.planner = 'llm';
    decide.config.skill = 'planner';
    return graph;
  };
  const answers = (texts: string[]) => {
    const bodies = [...texts];
    return (async () => new Response(JSON.stringify({ choices: [{ message: { content: bodies.shift() ?? texts.at(-1) } }], usage: { total_tokens: 30 } }))) as unknown as typeof fetch;
  };

  it('output that is not a plan is a parse_error, retried locally; usage feeds the budget; the key never reaches the trace', async () => {
    const plan = JSON.stringify({ actions: [{ skill: 'fallback_lookup', args: { ip: '10.0.0.5' } }] });
    const trace = await runGraph(llmGraph(), { fetch: answers(['Sure! Here is the plan:', '{"actions": "nope"}', plan]), keys: boundKeys([{ name: 'PLANNER_KEY', origin: PLANNER_ORIGIN, key: 'sk-very-secret' }]) });
    const decide = trace.steps[0];
    expect(decide.attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'parse_error', 'ok']);
    expect(decide.attempts[1].error).toBe('not a plan: actions: expected an array, got a string');
    expect(decide.writes.plan).toMatchObject({ actions: [{ skill: 'fallback_lookup', args: { ip: '10.0.0.5' } }] });
    expect(trace.stopReason).toBe('completed');
    expect(trace.tokensUsed).toBe(90 + 50);
    expect(JSON.stringify(trace)).not.toContain('sk-very-secret');
  });

  it('a planner that keeps failing ends the node with error', async () => {
    const graph = llmGraph();
    graph.edges.push({ id: 'e8', source: 'decide', target: 'halt', when: { outcome: 'error' } });
    graph.edges = [...graph.edges.filter((edge) => edge.id === 'e8'), ...graph.edges.filter((edge) => edge.id !== 'e8')];
    const trace = await runGraph(graph, { fetch: answers(['no']), keys: boundKeys([{ name: 'PLANNER_KEY', origin: PLANNER_ORIGIN, key: 'k' }]) });
    expect(trace.steps[0]).toMatchObject({ outcome: 'error', fired: { id: 'e8' } });
    expect(trace.steps[0].attempts).toHaveLength(3);
  });
});

describe('the clock', () => {
  it('mock delays and backoff move the run’s clock, so durationMs shows them without waiting', async () => {
    const graph = FIXTURES.twoActions();
    nodeOf(graph, 'act', 'act').config.retry.backoffMs = 1000;
    const timers = waitsOfAtLeast(1000);
    const trace = await runGraph(graph, { now: () => 0 });
    expect(timers()).toEqual([]);
    expect(trace.steps[1].durationMs).toBe(40 + 1000);
    expect(trace.steps[1].attempts[0].durationMs).toBe(40);
  });
});

describe('backoff', () => {
  it('doubles from backoffMs and stops at the cap, so backoffMs 1e9 cannot stall a run', () => {
    expect([2, 3, 4].map((n) => backoffBefore(n, 100))).toEqual([100, 200, 400]);
    expect(backoffBefore(2, 1e9)).toBe(SKILL_LIMITS.maxBackoffMs);
    expect(backoffBefore(100, 1)).toBe(SKILL_LIMITS.maxBackoffMs);
  });
});
