import { describe, expect, it } from 'vitest';
import { findTemplate, type GraphFile } from '../graph/index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { createController, runGraph, stateAfterStep, type RunEvent } from './index.ts';
import { withoutTimings } from './testing.ts';

const template = (id: string) => (findTemplate(id) as { graph: () => GraphFile }).graph();

describe('createController', () => {
  it('steps one node at a time, with the state after each step', async () => {
    const controller = createController(template('securityclaw'));
    expect(controller.status).toBe('idle');
    const first = await controller.step();
    expect(first?.node).toBe('decide');
    expect(controller.status).toBe('paused');
    expect(controller.state.steps).toBe(1);
    expect((controller.state.plan as { signature: string }).signature).toContain('search_events');
    const second = await controller.step();
    expect(second?.node).toBe('execute');
    expect(controller.trace.steps).toHaveLength(2);
  });

  it('a second step() while one is in flight does nothing', async () => {
    const controller = createController(template('securityclaw'));
    const [first, second] = await Promise.all([controller.step(), controller.step()]);
    expect(first?.node).toBe('decide');
    expect(second).toBeNull();
    expect(controller.trace.steps).toHaveLength(1);
  });

  it('runs to the end with plain events in order, and gives the same trace as a headless run', async () => {
    const controller = createController(template('securityclaw'), { seed: 3 });
    const events: RunEvent[] = [];
    controller.subscribe((event) => events.push(event));
    await controller.run();
    expect(controller.status).toBe('stopped');
    expect(events.filter((event) => event.type === 'step')).toHaveLength(8);
    expect(events.filter((event) => event.type === 'status').map((event) => event.type === 'status' && event.status)).toEqual(['running', 'stopped']);
    const stopped = events.at(-1);
    expect(stopped?.type === 'stopped' && stopped.reason).toBe('completed');
    expect(withoutTimings(controller.trace)).toEqual(withoutTimings(await runGraph(template('securityclaw'), { seed: 3 })));
    expect(await controller.step()).toBeNull();
  });

  it('pauses at a breakpoint before a node, and Run goes on past it', async () => {
    const controller = createController(template('securityclaw'), { shouldPauseBefore: (node) => node === 'recover' });
    await controller.run();
    expect(controller.status).toBe('paused');
    expect(controller.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate']);
    await controller.run();
    expect(controller.trace.stopReason).toBe('completed');
  });

  it('pauses after a step when asked, and pause() stops a long run between steps', async () => {
    const afterFired = createController(template('securityclaw'), { shouldPauseAfter: (step) => step.fired?.id === 'e4' });
    await afterFired.run();
    expect(afterFired.trace.steps.at(-1)?.node).toBe('evaluate');

    const graph = FIXTURES.loop();
    const long = createController(graph, { compact: true });
    const running = long.run();
    await new Promise((resolve) => setTimeout(resolve, 0));
    long.pause();
    await running;
    expect(long.status).toBe('paused');
    expect(long.trace.steps.length).toBeGreaterThan(0);
    expect(long.trace.steps.length).toBeLessThan(graph.limits.maxSteps);
  });

  it('a long run yields to the event loop: a timer fires while it runs', async () => {
    const controller = createController(FIXTURES.loop(), { compact: true });
    let stepsWhenTimerFired = -1;
    setTimeout(() => {
      stepsWhenTimerFired = controller.trace.steps.length;
    }, 0);
    await controller.run();
    expect(controller.trace.stopReason).toBe('max_steps');
    expect(stepsWhenTimerFired).toBeGreaterThan(0);
    expect(stepsWhenTimerFired).toBeLessThan(controller.trace.steps.length);
  });

  it('stop() ends the run with user_stopped', async () => {
    const controller = createController(template('securityclaw'));
    await controller.step();
    controller.stop();
    expect(controller.status).toBe('stopped');
    expect(controller.trace.stopReason).toBe('user_stopped');
    expect(await controller.step()).toBeNull();
  });
});

it('Stop pressed while a node waits on a skill: the node finishes, the run stops as user_stopped', async () => {
  const graph = FIXTURES.twoActions();
  graph.skills.flaky = { type: 'http', access: 'read', url: 'http://slow.test/', method: 'GET', timeoutMs: 5000 };
  let answer: (response: Response) => void = () => {};
  const fetch = (() => new Promise<Response>((resolve) => {
    answer = resolve;
  })) as unknown as typeof globalThis.fetch;
  const controller = createController(graph, { fetch });
  const running = controller.run();
  await new Promise((resolve) => setTimeout(resolve, 10));
  controller.stop();
  answer(new Response('[{"ok":true}]'));
  await running;
  expect(controller.trace.stopReason).toBe('user_stopped');
  expect(controller.trace.steps.map((step) => step.node)).toEqual(['plan', 'act']);
  expect(controller.trace.steps[1].stop?.reason).toBe('user_stopped');
});

describe('a named scenario', () => {
  it('applies its skills, seed and name', async () => {
    const controller = createController(template('securityclaw'), { scenario: 'timeout triggers local retry' });
    await controller.run();
    expect(controller.trace).toMatchObject({ scenario: 'timeout triggers local retry', stopReason: 'completed', rounds: 1 });
    expect(() => createController(template('securityclaw'), { scenario: 'nope' })).toThrow('the graph has no scenario "nope"');
  });
});

describe('approvals', () => {
  it('permission denied → awaiting approval → approved grants the skill once', async () => {
    const controller = createController(template('approval-gate'));
    const events: RunEvent[] = [];
    controller.subscribe((event) => events.push(event));
    await controller.run();
    expect(controller.status).toBe('awaiting_approval');
    expect(controller.pendingApproval).toMatchObject({ node: 'ask', skill: 'open_ticket', args: { title: 'Block 10.0.0.5', severity: 'high' } });
    expect(events.some((event) => event.type === 'approval')).toBe(true);
    expect(await controller.step()).toBeNull();
    controller.decide('approved');
    expect(controller.pendingApproval).toBeNull();
    await controller.run();
    expect(controller.trace.stopReason).toBe('completed');
    expect(controller.trace.steps.map((step) => `${step.node}:${step.outcome}`)).toEqual(['draft:ok', 'apply:denied', 'ask:approved', 'apply:ok', 'done:null']);
    expect(controller.state.approval).toEqual({ decision: 'approved', skill: 'open_ticket', by: 'person' });
  });

  it('a person ignores config.auto; denied stops the run with denied', async () => {
    const controller = createController(template('approval-gate'));
    await controller.run();
    controller.decide('denied');
    await controller.run();
    expect(controller.trace.stopReason).toBe('denied');
    expect(controller.state.approval).toMatchObject({ decision: 'denied', by: 'person' });
  });
});

describe('forks', () => {
  it('continues from step N with a skill’s next results overridden', async () => {
    const original = await runGraph(template('securityclaw'));
    const fork = createController(template('securityclaw'), {
      fork: { fromTrace: original, atStep: 1, nextResults: { search_events: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] } },
    });
    await fork.ready;
    expect(fork.trace.steps).toHaveLength(1);
    expect(fork.status).toBe('paused');
    await fork.run();
    expect(fork.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    expect(fork.trace.steps[1].attempts.map((attempt) => attempt.outcome)).toEqual(['ok']);
    expect(fork.trace.forkedFrom).toEqual({ step: 1, edited: [], overridden: ['search_events'] });
    expect(withoutTimings(fork.trace.steps[0])).toEqual(withoutTimings(original.steps[0]));
  });

  it('continues with an edited state: the edit changes the route', async () => {
    const original = await runGraph(template('securityclaw'));
    const fork = createController(template('securityclaw'), {
      fork: { fromTrace: original, atStep: 3, state: { evaluation: { evidence_sufficient: false, plan_exhausted: false, reason: 'coverage_low', reasoning: 'edited', records: 0 } } },
    });
    const step = await fork.step();
    expect(step?.node).toBe('recover');
    expect(step?.writes.recovery).toMatchObject({ reason: 'coverage_low', action: 'broaden_evidence' });
  });

  it('re-runs with the original seed and scenario', async () => {
    const original = await runGraph(template('securityclaw'), { seed: 11, scenario: 'empty result enters recovery' });
    const fork = createController(template('securityclaw'), { fork: { fromTrace: original, atStep: 4 } });
    await fork.run();
    expect(withoutTimings({ ...fork.trace, forkedFrom: undefined })).toEqual(withoutTimings(original));
  });

  it('answers approvals in the re-run as the trace did', async () => {
    const interactive = createController(template('approval-gate'));
    await interactive.run();
    interactive.decide('approved');
    await interactive.run();
    const fork = createController(template('approval-gate'), { fork: { fromTrace: interactive.trace, atStep: 3 } });
    await fork.run();
    expect(fork.trace.stopReason).toBe('completed');
    expect(fork.state.approval).toMatchObject({ decision: 'approved' });
  });

  it('refuses a re-run that no longer follows the trace', async () => {
    const original = await runGraph(template('securityclaw'));
    const changed = template('securityclaw');
    changed.edges = changed.edges.map((edge) => (edge.id === 'e4' ? { ...edge, target: 'halt' } : edge));
    const fork = createController(changed, { fork: { fromTrace: original, atStep: 6 } });
    await fork.ready;
    expect(fork.trace.stopReason).toBe('error');
    expect(fork.trace.stopExplain).toContain('the graph changed since that run');
  });
});

describe('the state after any step', () => {
  it('comes from the trace, with or without stateBefore on every step', async () => {
    const full = await runGraph(template('securityclaw'));
    expect(stateAfterStep(full, 0)).toEqual({ question: 'failed logins from 10.0.0.5?', round: 1, steps: 0, tokensUsed: 0 });
    expect(stateAfterStep(full, 2)).toMatchObject({ steps: 2, tokensUsed: 200, results: [{ skill: 'search_events', outcome: 'empty' }] });
    expect(stateAfterStep(full, full.steps.length)).toBe(full.finalState);
    const sparse = { ...full, steps: full.steps.map((step, index) => (index === 0 ? step : { ...step, stateBefore: undefined })) };
    for (let step = 0; step <= full.steps.length; step += 1) expect(stateAfterStep(sparse, step)).toEqual(stateAfterStep(full, step));
  });
});
