import { describe, expect, it } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { applyScenario, createController, runGraph, runScenario, scenarioFromRun, type Trace } from './index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { nodeOf } from './testing.ts';

const template = (id: string) => (findTemplate(id) as { graph: () => GraphFile }).graph();

/** A server for http skills: each path answers its list of responses in turn, the last repeating. */
const server = (routes: Record<string, (() => Response)[]>) => {
  const calls: string[] = [];
  const impl = (async (input: string | URL) => {
    const url = new URL(String(input));
    calls.push(url.pathname + url.search);
    const queue = routes[url.pathname];
    if (!queue) return new Response('not found', { status: 404 });
    return (queue.length > 1 ? queue.shift() : queue[0])!();
  }) as unknown as typeof fetch;
  return { impl, calls };
};
const json = (value: unknown) => () => new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
const offline: typeof fetch = () => {
  throw new Error('a scenario called the network');
};

/** SecurityClaw with its two searches as http skills of a local service. */
const httpGraph = () => {
  const graph = template('securityclaw');
  graph.skills.search_events = { type: 'http', access: 'read', url: 'http://siem.test/search?q={{args.q}}', method: 'GET', timeoutMs: 1000, tokens: 100 };
  graph.skills.query_alternative_source = { type: 'http', access: 'read', url: 'http://siem.test/archive?q={{args.q}}', method: 'GET', timeoutMs: 1000, tokens: 150, recordsPath: 'hits' };
  return graph;
};
const httpService = () => server({
  '/search': [() => new Response('<html>busy</html>'), json([])],
  '/archive': [json({ hits: [{ ip: '10.0.0.5', count: 42 }, { ip: '10.0.0.5', count: 7 }] })],
});

/**
 * Seed 001's act with edges by outcome, as the issue's graph had them: three attempts end empty
 * (e14 to Evaluate, as ok's e2 does); two end in an error (e15 to Recover).
 */
const actByOutcome = () => {
  const graph = template('securityclaw');
  graph.skills.search_events = { type: 'mock', access: 'read', tokens: 100, script: [{ outcome: 'timeout' }, { outcome: 'timeout' }, { outcome: 'empty' }, { outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] };
  graph.edges = [
    { id: 'e2', source: 'execute', target: 'evaluate', when: { outcome: 'ok' } },
    { id: 'e14', source: 'execute', target: 'evaluate', when: { outcome: 'empty' } },
    { id: 'e15', source: 'execute', target: 'recover', when: 'otherwise' },
    ...graph.edges.filter((edge) => edge.id !== 'e2'),
  ];
  return graph;
};

// Whole runs through LangGraph, loaded on first use: room for a loaded machine.
describe('save a run as a scenario', { timeout: 30_000 }, () => {
  it('pins the path, stop, rounds, attempts and each real skill’s results; the scenario replays offline and passes', async () => {
    const service = httpService();
    const graph = httpGraph();
    const trace = await runGraph(graph, { fetch: service.impl });
    expect(service.calls).toEqual(['/search?q=login_failed%20src%3D10.0.0.5', '/search?q=login_failed%20src%3D10.0.0.5', '/archive?q=login_failed%20src%3D10.0.0.5']);
    const { scenario, notes } = scenarioFromRun(graph, trace);
    expect(notes).toEqual([]);
    expect(scenario).toMatchObject({
      name: 'SecurityClaw triage: completed in 2 round(s)',
      seed: 1,
      skills: {
        search_events: { type: 'mock', script: [{ outcome: 'parse_error', tokens: 100, error: 'the answer is not JSON' }, { outcome: 'empty', tokens: 100 }] },
        query_alternative_source: { type: 'mock', script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5', count: 42 }, { ip: '10.0.0.5', count: 7 }], tokens: 150 }] },
      },
      expect: { stopReason: 'completed', rounds: 2, attempts: { execute: 3 }, path: ['decide', 'execute', 'evaluate', 'recover', 'decide', 'execute', 'evaluate', 'answer'] },
    });
    const replay = await runScenario(graph, scenario, { fetch: offline });
    expect(replay.failures).toEqual([]);
    expect(replay.trace.tokensUsed).toBe(trace.tokensUsed);
    expect(replay.trace.finalState).toEqual(trace.finalState);
  });

  it('the saved scenario catches a changed condition, at the step where the run parts from it', async () => {
    const graph = httpGraph();
    const { scenario } = scenarioFromRun(graph, await runGraph(graph, { fetch: httpService().impl }));
    const edited = structuredClone(graph);
    edited.edges = edited.edges.map((edge) => (edge.id === 'e4' ? { ...edge, when: { path: 'evaluation.plan_exhausted', op: 'eq', value: false } } : edge));
    const result = await runScenario(edited, scenario, { fetch: offline });
    expect(result.divergence).toBe(3);
    expect(result.failures.find((failure) => failure.expectation === 'path')?.detail).toBe('evaluate (step 3) took e5 to decide (otherwise: no other edge matched), not toward recover: e4 did not match, evaluation.plan_exhausted eq false (was true)');
  });

  it('a failure leads with the step where the run parts from the saved one, its edges and outcomes as the saved run had them, and the setting that made it (issue 53, #10)', async () => {
    const graph = actByOutcome();
    const { scenario } = scenarioFromRun(graph, await runGraph(graph));
    expect(scenario.savedFrom?.steps[1]).toEqual({ node: 'execute', outcome: 'empty', edge: 'e14', attempts: 3 });
    const edited = structuredClone(graph);
    nodeOf(edited, 'execute', 'act').config.retry = { maxAttempts: 2, retryOn: ['timeout', 'parse_error'] };
    const result = await runScenario(edited, scenario);
    expect(result.divergence).toBe(2);
    expect(result.cause).toBe("parts at step 2: Execute skill took e15 (error) after 2 attempt(s), the saved run took e14 (empty) after 3 attempt(s). Execute skill's Max attempts is 2; the saved run needed 3");

    // A scenario without the saved run's record (hand-written, or saved before it was kept) leads with the turn, not the count, and does not guess the edge.
    const older = await runScenario(edited, { ...scenario, savedFrom: undefined });
    expect(older.cause).toBe('parts at step 2: Execute skill took e15 (error), the scenario went on to Evaluate (by e2 (ok) or e14 (empty))');
  });

  it('a lower token budget is named as the change that stopped the run early (issue 53, #10)', async () => {
    const graph = template('securityclaw');
    const saved = await runGraph(graph);
    const { scenario } = scenarioFromRun(graph, saved);
    const edited = structuredClone(graph);
    edited.limits.tokenBudget = 250;
    const result = await runScenario(edited, scenario);
    expect(result.cause).toMatch(new RegExp(`^parts at step \\d+: .*\\. The Token budget is 250; the saved run used ${saved.tokensUsed} token\\(s\\)$`));
  });

  it('each limit that turns the run is named with what the saved run needed of it: rounds, steps, the budget spent (issue 53)', async () => {
    const graph = template('securityclaw');
    const saved = await runGraph(graph);
    const { scenario } = scenarioFromRun(graph, saved);
    expect(scenario.savedFrom).toMatchObject({ rounds: saved.rounds });
    expect(saved.rounds).toBeGreaterThan(1);
    const fewer = structuredClone(graph);
    fewer.limits.maxRounds = saved.rounds - 1;
    expect((await runScenario(fewer, scenario)).cause).toMatch(new RegExp(`\\. The Max rounds is ${saved.rounds - 1}; the saved run ran ${saved.rounds} round\\(s\\)$`));
    const shorter = structuredClone(graph);
    shorter.limits.maxSteps = 3;
    expect((await runScenario(shorter, scenario)).cause).toMatch(new RegExp(`\\. The Max steps is 3; the saved run ran ${scenario.savedFrom?.steps.length} step\\(s\\)$`));

    // What a spent budget does: the saved run let its Verify judge, this one stops at once.
    const spending = FIXTURES.twoActions();
    spending.limits = { ...spending.limits, tokenBudget: 2000, onBudget: 'evaluate' };
    spending.skills.flaky = { type: 'mock', access: 'read', tokens: 2010, script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] };
    nodeOf(spending, 'check', 'verify').config.minRecords = 1;
    const spent = scenarioFromRun(spending, await runGraph(spending)).scenario;
    const stopping = structuredClone(spending);
    stopping.limits.onBudget = 'stop';
    expect((await runScenario(stopping, spent)).cause).toBe('parts at step 2: act stopped the run (budget_exhausted), the saved run took e2 (ok). The When the budget is spent is "stop"; the saved run spent its budget (2010 of 2000 token(s))');
  });

  it('a changed skill script is named by the first call that now returns otherwise, the scenario’s or the graph’s (issue 53)', async () => {
    const graph = actByOutcome();
    const { scenario } = scenarioFromRun(graph, await runGraph(graph));
    // The saved run kept the skills as it ran them.
    expect(scenario.savedFrom?.settings?.['skills.search_events.script']).toEqual(scenario.skills?.search_events.script);
    // The scenario's own script edited: its third call now fails.
    const edited = structuredClone(scenario);
    (edited.skills!.search_events.script as unknown[])[2] = { outcome: 'error', error: 'the log store is down', tokens: 100 };
    const result = await runScenario(graph, edited);
    expect(result.divergence).toBe(2);
    expect(result.cause).toBe("parts at step 2: Execute skill took e15 (error), the saved run took e14 (empty). Skill search_events's script changed: call 3 now returns error; the saved run got empty");
    // The graph's script, once the scenario no longer brings its own: its second call no longer times out.
    const own = structuredClone(scenario);
    delete own.skills!.search_events;
    const changed = structuredClone(graph);
    changed.skills.search_events = { type: 'mock', access: 'read', tokens: 100, script: [{ outcome: 'timeout' }, { outcome: 'ok' }] };
    expect((await runScenario(changed, own)).cause).toMatch(/\. Skill search_events's script changed: call 2 now returns ok; the saved run got timeout$/);
  });

  it('an llm planner’s answers become scripted replies', async () => {
    const graph = template('securityclaw');
    graph.skills.planner = { type: 'llm', access: 'read', baseUrl: 'http://llm.test/v1', model: 'tiny', timeoutMs: 1000 };
    Object.assign(nodeOf(graph, 'decide', 'reason').config, { planner: 'llm', skill: 'planner' });
    const plan = { actions: [{ skill: 'fallback_lookup', args: { ip: '10.0.0.5' } }] };
    const texts = ['Sure! Here is the plan:', JSON.stringify(plan)];
    const llm = (async () => new Response(JSON.stringify({ choices: [{ message: { content: texts.shift() } }], usage: { total_tokens: 30 } }))) as unknown as typeof fetch;
    const trace = await runGraph(graph, { fetch: llm });
    const { scenario } = scenarioFromRun(graph, trace);
    expect(scenario.skills?.planner).toEqual({ type: 'mock', script: [
      { outcome: 'parse_error', records: [{ text: 'Sure! Here is the plan:' }], tokens: 30, error: 'the planner did not answer with JSON', reply: 'Sure! Here is the plan:' },
      { outcome: 'ok', records: [{ text: JSON.stringify(plan) }], tokens: 30, reply: plan },
    ] });
    expect((await runScenario(graph, scenario, { fetch: offline })).failures).toEqual([]);
  });

  it('an inner-loop run saved as a scenario replays: the decider’s and judge’s replies, iterations and the finally step', async () => {
    const graph = template('graph-engineer');
    const maxIter = graph.scenarios.find((scenario) => scenario.name === 'the inner loop hits max_iter and routes on error');
    const stopped = (await runScenario(graph, maxIter!)).trace;
    expect(stopped.steps.at(-1)).toMatchObject({ node: 'wrap_up', finally: true });
    for (const trace of [await runGraph(graph), stopped]) {
      const { scenario } = scenarioFromRun(graph, trace);
      expect(trace.steps.some((step) => step.iterations !== undefined)).toBe(true);
      expect(scenario.expect.path).toEqual(trace.steps.filter((step) => step.guard === null).map((step) => step.node));
      // The decider's replies are scripted as replies (JSON), not as records.
      expect(scenario.skills?.coder).toMatchObject({ type: 'mock', script: expect.arrayContaining([expect.objectContaining({ reply: expect.objectContaining({ tool: 'grep_repo' }) })]) });
      const replay = await runScenario(graph, scenario);
      expect(replay.failures).toEqual([]);
      expect(replay.trace.steps.map((step) => [step.node, step.iterations?.length, step.finally])).toEqual(trace.steps.map((step) => [step.node, step.iterations?.length, step.finally]));
    }
  });

  it('pins a person’s approvals as the scenario’s decisions: the replay takes the same answers and asks nobody', async () => {
    const graph = template('approval-gate');
    nodeOf(graph, 'ask', 'approve').config.auto = 'deny';
    const controller = createController(graph);
    await controller.run();
    controller.decide('approved');
    await controller.run();
    const { scenario, notes } = scenarioFromRun(graph, controller.trace);
    expect(scenario.decisions).toEqual({ ask: ['approved'] });
    expect(notes.join(' ')).not.toContain('approv');
    const replay = await runScenario(graph, scenario);
    expect(replay.failures).toEqual([]);
    expect(replay.trace.finalState.approval).toMatchObject({ decision: 'approved', by: 'answers' });
    // Saved again from the replay, the answers stay: a scenario of a scenario run pins them too.
    expect(scenarioFromRun(graph, replay.trace).scenario.decisions).toEqual({ ask: ['approved'] });
    // In the app, a run with answers given in advance does not stop to ask.
    const answered = createController(applyScenario(graph, scenario));
    await answered.run();
    expect(answered.session.pending).toBeNull();
    expect(answered.trace.stopReason).toBe(replay.trace.stopReason);
  });

  it('leaves a headless answer (`auto`) to the graph: a scenario pins only what a person answered', async () => {
    const graph = template('approval-gate');
    nodeOf(graph, 'ask', 'approve').config.auto = 'deny';
    const trace = await runGraph(graph);
    expect(trace.finalState.approval).toMatchObject({ decision: 'denied', by: 'auto' });
    expect(scenarioFromRun(graph, trace).scenario.decisions).toBeUndefined();
  });

  it('says what it cannot pin: a fork’s state edit, an uncalled real skill, records an old trace lacks', async () => {
    const graph = template('approval-gate');
    nodeOf(graph, 'ask', 'approve').config.auto = 'deny';
    graph.skills.notify = { type: 'http', access: 'read', url: 'http://chat.test/', method: 'GET', timeoutMs: 1000 };
    const controller = createController(graph);
    await controller.run();
    controller.decide('approved');
    await controller.run();
    const { scenario, notes } = scenarioFromRun(graph, controller.trace, ['Approval gate: completed in 1 round(s)']);
    expect(scenario.name).toBe('Approval gate: completed in 1 round(s) (2)');
    expect(notes).toEqual([
      'The http skill notify was not called in this run: the scenario refuses it (an error attempt) if a later version of the graph calls it.',
    ]);
    // A permission refusal is not a call: the script holds only the call that ran.
    expect(scenario.skills?.open_ticket).toEqual({ type: 'mock', script: [{ outcome: 'ok', records: [{ ticket: 'SEC-1042', status: 'open' }], tokens: 80 }] });

    const original = createController(template('securityclaw'), { headless: true });
    await original.run();
    const forked = await original.fork(2, { state: { question: 'other' } });
    await forked.run();
    expect(scenarioFromRun(template('securityclaw'), forked.trace).notes).toContain('This run is a fork with the state after step 2 edited (question): a scenario starts from the initial state, so it does not make that edit.');

    const old: Trace = JSON.parse(JSON.stringify(await runGraph(template('securityclaw')), (key, value: unknown) => (key === 'returned' || key === 'text' ? undefined : value)));
    const fromOld = scenarioFromRun(template('securityclaw'), old);
    expect(fromOld.notes[0]).toBe('This trace does not hold the records query_alternative_source returned (it was made by an older Loopscope): their scripts return empty placeholder records.');
    expect(fromOld.scenario.skills?.query_alternative_source).toEqual({ type: 'mock', script: [{ outcome: 'ok', records: [{}, {}], tokens: 150 }] });
    expect((await runScenario(template('securityclaw'), fromOld.scenario)).failures).toEqual([]);
  });
});
