import { describe, expect, it } from 'vitest';
import { describeProblems, type GraphFile, type Scenario } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { TEMPLATES, findTemplate } from '../graph/templates/index.ts';
import { applyScenario, causeOf, checkScenario, firstDivergence, refusedRealSkill, runGraph, runScenario, ScenarioError } from './index.ts';

const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
const expectOnly = (expect: Scenario['expect']): Scenario => ({ name: 'probe', expect });

// Whole runs through LangGraph, loaded on first use: room for a loaded machine.
describe('scenarios', { timeout: 30_000 }, () => {
  for (const template of TEMPLATES) {
    for (const scenario of template.graph().scenarios) {
      it(`${template.id}: ${scenario.name}`, async () => {
        const result = await runScenario(template.graph(), scenario);
        expect(result.failures.map((failure) => failure.message)).toEqual([]);
        expect(result.divergence).toBeNull();
      });
    }
  }

  it('the templates pin the loops they were designed for', () => {
    expect(securityclaw().scenarios.length).toBeGreaterThanOrEqual(6);
    expect((findTemplate('graph-engineer') as { graph: () => GraphFile }).graph().scenarios.length).toBeGreaterThanOrEqual(1);
    expect((findTemplate('approval-gate') as { graph: () => GraphFile }).graph().scenarios.length).toBeGreaterThanOrEqual(1);
  });

  it('SecurityClaw pins every test the seeds list, and tells the three failures apart', async () => {
    const graph = securityclaw();
    const byName = (name: string) => graph.scenarios.find((scenario) => scenario.name === name) as Scenario;
    const seedTests = {
      timeout: 'told apart: a timeout that never clears recovers by the fallback tool',
      parse: 'told apart: a parse failure exhausts its retries and reaches evaluate',
      empty: 'empty result enters recover path',
    };
    for (const name of ['execute timeout triggers local retry', "recovery changes the next round's path", 'max rounds forces stop', ...Object.values(seedTests)])
      expect(byName(name), name).toBeDefined();
    const reasons = await Promise.all(Object.values(seedTests).map(async (name) => (await runScenario(graph, byName(name))).trace.finalState.failures));
    expect(reasons.map((failures) => (failures as { reason: string }[])[0].reason)).toEqual(['timeout', 'parse_error', 'empty_result']);
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
});

describe('a scenario never calls a real skill', { timeout: 30_000 }, () => {
  const withHttp = () => {
    const graph = securityclaw();
    graph.skills.search_events = { type: 'http', access: 'read', url: 'http://127.0.0.1:9/search?q={{args.q}}', method: 'POST', timeoutMs: 1000, tokens: 5 };
    return graph;
  };
  const noNetwork: typeof fetch = () => {
    throw new Error('a scenario called the network');
  };

  it('an http skill with no mock in the scenario is refused: each attempt is an error that says why', async () => {
    const result = await runScenario(withHttp(), { name: 'offline', expect: {} }, { fetch: noNetwork });
    const attempt = result.trace.steps[1].attempts[0];
    expect(attempt).toMatchObject({ skill: 'search_events', outcome: 'error', tokens: 0, error: refusedRealSkill('offline', 'search_events', 'http') });
    expect(attempt.error).toContain('add "skills": {"search_events": {"type": "mock", "script": [...]}} to the scenario');
  });

  it('a mock that replaces an http skill runs instead of it and keeps its access for the permission check', async () => {
    const graph = withHttp();
    graph.skills.search_events = { ...graph.skills.search_events, access: 'write' } as GraphFile['skills'][string];
    const scenario: Scenario = { name: 'pinned', skills: { search_events: { type: 'mock', script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }] } }, expect: {} };
    expect(applyScenario(graph, scenario).skills.search_events).toEqual({ type: 'mock', access: 'write', tokens: 5, script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }] });
    // A script alone is a mock too: an override need not repeat the type.
    expect(applyScenario(graph, { name: 's', skills: { search_events: { script: [{ outcome: 'empty' }] } }, expect: {} }).skills.search_events)
      .toEqual({ type: 'mock', access: 'write', tokens: 5, script: [{ outcome: 'empty' }] });
    graph.permissions.mode = 'workspace';
    const result = await runScenario(graph, { ...scenario, expect: { path: ['decide', 'execute', 'evaluate', 'answer'] } }, { fetch: noNetwork });
    expect(result.failures).toEqual([]);
  });

  it('an llm planner replays a scripted reply as it parses a real answer', async () => {
    const graph = securityclaw();
    graph.skills.planner = { type: 'llm', access: 'read', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 1000 };
    const decide = graph.nodes.find((node) => node.id === 'decide');
    if (decide?.kind !== 'reason') throw new Error('no decide');
    decide.config = { ...decide.config, planner: 'llm', skill: 'planner' };
    const plan = { actions: [{ skill: 'query_alternative_source', args: {} }] };
    const result = await runScenario(graph, {
      name: 'llm', skills: { planner: { type: 'mock', script: [{ outcome: 'ok', records: [{ text: '…' }], reply: 'not json' }, { outcome: 'ok', records: [{ text: '…' }], reply: plan }] } },
      expect: { attempts: { decide: 2 }, path: ['decide', 'execute', 'evaluate', 'answer'] },
    }, { fetch: noNetwork });
    expect(result.failures).toEqual([]);
    expect(result.trace.steps[0].attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'ok']);
  });
});

describe('expectations', { timeout: 30_000 }, () => {
  const defaultTrace = () => runGraph(securityclaw());

  it('each failure names the expectation, expected against actual, and the step where the run parts from it', async () => {
    const trace = await defaultTrace();
    const failures = checkScenario(trace, expectOnly({
      stopReason: 'max_rounds', rounds: 1, steps: 5, tokensUsed: { max: 300 }, attempts: { execute: 2 }, visits: { recover: 0, answer: 2 },
      path: ['decide', 'execute', 'evaluate', 'answer'], pathIncludes: ['decide', 'halt'], fired: ['e3', 'e7'], notFired: ['e4'],
      state: [{ path: 'recovery.skill', value: 'fallback_lookup' }, { path: 'question', value: 'x' }],
    }));
    expect(failures.map((failure) => [failure.expectation, failure.step])).toEqual([
      ['stopReason', 8], ['rounds', 4], ['steps', 5], ['tokensUsed', 6], ['attempts.execute', 6], ['visits.recover', 3], ['visits.answer', 8],
      ['path', 3], ['pathIncludes', 4], ['fired', 4], ['notFired', 3], ['state recovery.skill', 4], ['state question', null],
    ]);
    const messages = failures.map((failure) => failure.message);
    expect(messages).toContain('stopReason: expected "max_rounds", got "completed" (parts at step 8: the run stopped at answer (step 8): completed)');
    expect(messages).toContain('path: expected ["decide","execute","evaluate","answer"], got ["decide","execute","evaluate","recover","decide","execute","evaluate","answer"] (parts at step 3: evaluate (step 3) took e4 to recover (evaluation.plan_exhausted eq true (was true)), not toward answer: e3 did not match, outcome is "exhausted", not "sufficient")');
    expect(messages).toContain('tokensUsed: expected at most 300, got 350 (parts at step 6: execute (step 6) brought the tokens past 300)');
    expect(messages).toContain('attempts.execute: expected 2, got 3 (parts at step 6: execute (step 6) went past 2 attempt(s): query_alternative_source ok)');
    expect(messages).toContain('fired: expected e7 to fire, got no firing (edges fired: e1, e2, e4, e6, e3) (parts at step 4: recover (step 4) took e6 to decide (outcome is "recovered"), not e7: e7 was not tried, an earlier edge fired)');
    expect(messages).toContain('notFired: expected e4 never to fire, got 1 firing(s) (parts at step 3: evaluate (step 3) took e4 to recover (evaluation.plan_exhausted eq true (was true)))');
    expect(messages).toContain('state question: expected "x", got "failed logins from 10.0.0.5?" (no step wrote question: it kept its initial value)');
    expect(failures.find((failure) => failure.expectation === 'rounds')).toMatchObject({ expected: 1, actual: 2 });
    expect(firstDivergence(failures)).toBe(3);
    // Each leads with where and why the run parts from it, then says what was expected and what happened.
    const path = failures.find((failure) => failure.expectation === 'path');
    expect(path?.lead).toBe('parts at step 3: evaluate took e4 (exhausted), the scenario took e3');
    expect(path?.mismatch).toBe('path: expected ["decide","execute","evaluate","answer"], got ["decide","execute","evaluate","recover","decide","execute","evaluate","answer"]');
    expect(failures.find((failure) => failure.expectation === 'tokensUsed')?.lead).toBe('parts at step 6: execute (step 6) brought the tokens past 300');
    expect(failures.find((failure) => failure.expectation === 'state question')?.lead).toBe('state question: no step wrote question: it kept its initial value');
  });

  it('a failed scenario leads with its cause: the step where the paths part, the edge the run took there and the one the scenario took, by label and condition', async () => {
    const result = await runScenario(securityclaw(), { name: 'answers at once', expect: { path: ['decide', 'execute', 'evaluate', 'answer'], attempts: { execute: 2 } } });
    expect(result.divergence).toBe(3);
    expect(result.cause).toBe('parts at step 3: Evaluate took e4 (exhausted), the scenario took e3 (sufficient)');
    expect(causeOf(result.failures, result.divergence)).toBe(result.cause);
    const fired = await runScenario(securityclaw(), { name: 'gives up', expect: { fired: ['e7'] } });
    expect(fired.cause).toBe('parts at step 4: Recover took e6 (recovered), the scenario took e7 (otherwise)');
    const passing = await runScenario(securityclaw(), { name: 'as drawn', expect: { stopReason: 'completed' } });
    expect(passing.cause).toBeNull();
  });

  it('passes what the run did: a path with gaps, edges fired and not, tokens in a range', async () => {
    const trace = await defaultTrace();
    expect(checkScenario(trace, expectOnly({
      pathIncludes: ['execute', 'recover', 'answer'], fired: ['e4', 'e6', 'e3'], notFired: ['e5', 'e7'], tokensUsed: { min: 300, max: 400 },
    }))).toEqual([]);
    expect(checkScenario(trace, expectOnly({ tokensUsed: 350 }))).toEqual([]);
    expect(checkScenario(trace, expectOnly({ tokensUsed: { min: 400 } }))[0].message).toBe('tokensUsed: expected at least 400, got 350 (parts at step 8: the run stopped at step 8 (completed) with 350 token(s))');
  });

  it('a path the run left short names the stop; a node that never ran names where the run could have turned to it', async () => {
    const trace = await defaultTrace();
    const [longer] = checkScenario(trace, expectOnly({ path: [...trace.steps.map((step) => step.node), 'halt'] }));
    expect(longer.detail).toBe('the run stopped at step 8 (completed) after 8 node(s); expected halt next');
    const [never] = checkScenario(trace, expectOnly({ visits: { halt: 1 } }));
    expect(never).toMatchObject({ step: 4, detail: 'recover (step 4) took e6 to decide (outcome is "recovered"), not toward halt: e7 was not tried, an earlier edge fired' });
  });

  it('older scenario files still read; a bad range names its path', () => {
    const file = (expect: unknown) => ({ format: 'loopscope/graph', version: 1, name: 'g', entry: 'a', nodes: [{ id: 'a', kind: 'respond' }], scenarios: [{ name: 's', expect }] });
    expect(parseGraph(file({ stopReason: 'completed', tokensUsed: 3 })).ok).toBe(true);
    const bad = parseGraph(file({ tokensUsed: { min: 5, max: 1 } }));
    expect(bad.ok ? '' : describeProblems(bad.problems)).toBe('scenarios[0].expect.tokensUsed: "min" must not be above "max"');
    const text = parseGraph(file({ tokensUsed: 'lots' }));
    expect(text.ok ? '' : describeProblems(text.problems)).toBe('scenarios[0].expect.tokensUsed: expected a number of tokens, or a range {"min": N, "max": N}');
  });
});

describe('a guard stop leads the same with a finally node as without (issue 54, #1)', { timeout: 30_000 }, () => {
  const guards: [string, (graph: GraphFile) => void, Scenario['expect']][] = [
    ['budget', (graph) => { graph.limits.tokenBudget = 200; }, { path: ['decide', 'execute', 'evaluate', 'recover'], pathIncludes: ['decide', 'execute', 'evaluate'] }],
    ['round', (graph) => { graph.limits.maxRounds = 1; }, { path: ['decide', 'execute', 'evaluate', 'recover', 'decide', 'execute'], pathIncludes: ['recover', 'decide', 'execute'] }],
    ['step', (graph) => { graph.limits.maxSteps = 3; }, { path: ['decide', 'execute', 'evaluate', 'recover'], pathIncludes: ['decide', 'execute', 'evaluate', 'recover'] }],
  ];
  for (const [name, limit, expect_] of guards) {
    it(`a ${name} stop: the same step and words, never the finally step`, async () => {
      const leads = async (withFinally: boolean) => {
        const graph = securityclaw();
        // Evaluate's one way to recover here (a second one, e11 on continue, makes the step guard's lead name step 3: see issue 54's note).
        graph.edges = graph.edges.filter((edge) => edge.id !== 'e11');
        limit(graph);
        if (!withFinally) delete graph.finally;
        const result = await runScenario(graph, { name, expect: expect_ });
        return { result, leads: result.failures.map((failure) => [failure.expectation, failure.step, failure.lead]) };
      };
      const without = await leads(false);
      const withFinally = await leads(true);
      expect(withFinally.result.trace.steps.at(-1)?.finally).toBe(true);
      expect(without.leads).toHaveLength(2);
      expect(withFinally.leads).toEqual(without.leads);
      expect(withFinally.result.cause).toBe(without.result.cause);
      // The lead is the guard's stop at its step.
      const guard = without.result.trace.steps.at(-1);
      expect(guard?.guard).not.toBeNull();
      expect(withFinally.result.divergence).toBe(guard?.step);
    });
  }

  it('a path that leaves the finally node out parts where the run stopped, saying the final response ran after it', async () => {
    const graph = securityclaw();
    graph.limits.tokenBudget = 200;
    const [failure] = (await runScenario(graph, { name: 'no final', expect: { path: ['decide', 'execute'] } })).failures;
    expect(failure.step).toBe(3);
    expect(failure.lead).toBe('parts at step 3: the run stopped at step 3 (budget_exhausted), then final wrote the final response (finally); expected the run to end after execute');
  });
});
