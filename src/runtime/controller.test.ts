import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { FIXTURES } from './fixtures/index.ts';
import { createController, runGraph, stateAfterStep, type RunEvent } from './index.ts';
import type { Breakpoints, PauseRules } from './pauseRules.ts';
import { securityclawAnswers, securityclawOver, startCountingService, withoutTimings, type CountingService } from './testing.ts';
import { runStopWords } from './stepWords.ts';
import { agentState } from './state.ts';

const template = (id: string) => (findTemplate(id) as { graph: () => GraphFile }).graph();

/** A Run's pause rules: these breakpoints, at full speed. */
const pausing = (breakpoints: Partial<Breakpoints>): PauseRules => ({ breakpoints: { nodes: [], edges: [], conditions: [], ...breakpoints } });

describe('createController', () => {
  it('steps one node at a time, with the state after each step', async () => {
    const controller = createController(template('securityclaw'));
    expect(controller.session.status).toBe('idle');
    const first = await controller.step();
    expect(first?.node).toBe('decide');
    expect(controller.session.status).toBe('paused');
    expect(controller.state.steps).toBe(1);
    expect((controller.state.plan as { signature: string }).signature).toContain('search_events');
    const second = await controller.step();
    expect(second?.node).toBe('execute');
    expect(controller.trace.steps).toHaveLength(2);
  });

  it('a graph with no entry, or an entry that names no node, stops at once saying so and how to set one', async () => {
    const noEntry = await runGraph({ ...template('securityclaw'), entry: '' });
    expect(noEntry.stopReason).toBe('error');
    expect(runStopWords(noEntry)).toMatch(/^The graph has no entry node: set one where a run starts: "Set as entry" on a node/);
    const missing = await runGraph({ ...template('securityclaw'), entry: 'gone' });
    expect(runStopWords(missing)).toMatch(/^The entry "gone" is not a node of this graph: set one/);
  });

  it('tells each attempt as it ends (LangGraph’s custom stream), before the step it belongs to', async () => {
    const controller = createController(template('securityclaw'));
    const events: string[] = [];
    controller.subscribe((event) => {
      if (event.type === 'attempt') events.push(`attempt ${event.step}:${event.node} ${event.attempt.n} ${event.attempt.outcome}`);
      if (event.type === 'step') events.push(`step ${event.step.step}:${event.step.node}`);
    });
    await controller.step();
    await controller.step();
    expect(events).toEqual(['step 1:decide', 'attempt 2:execute 1 timeout', 'attempt 2:execute 2 empty', 'step 2:execute']);
  });

  it('a step event carries where the run stands after it: its trace but for the steps, and the node that runs next', async () => {
    const controller = createController(template('securityclaw'));
    const told: RunEvent[] = [];
    controller.subscribe((event) => told.push(event));
    await controller.step();
    await controller.step();
    const last = told.filter((event) => event.type === 'step').at(-1);
    const { steps, ...trace } = controller.trace;
    expect(last).toMatchObject({ step: steps[1], run: { trace, next: controller.next }, states: { after: controller.state } });
  });

  it('a headless run tells no attempts as they end; its steps keep them', async () => {
    const controller = createController(template('securityclaw'), { headless: true });
    const told: string[] = [];
    controller.subscribe((event) => {
      if (event.type === 'attempt') told.push(event.node);
    });
    await controller.step();
    await controller.step();
    expect(told).toEqual([]);
    expect(controller.trace.steps[1].attempts.map((attempt) => attempt.outcome)).toEqual(['timeout', 'empty']);
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
    expect(controller.session.status).toBe('stopped');
    expect(events.filter((event) => event.type === 'step')).toHaveLength(8);
    expect(events.filter((event) => event.type === 'status').map((event) => event.type === 'status' && event.status)).toEqual(['running', 'stopped']);
    const stopped = events.at(-1);
    expect(stopped?.type === 'stopped' && stopped.reason).toBe('completed');
    expect(withoutTimings(controller.trace)).toEqual(withoutTimings(await runGraph(template('securityclaw'), { seed: 3 })));
    expect(await controller.step()).toBeNull();
  });

  it('pauses at a breakpoint before a node, and Run goes on past it', async () => {
    const controller = createController(template('securityclaw'));
    const rules = pausing({ nodes: ['recover'] });
    await controller.run(rules);
    expect(controller.session.status).toBe('paused');
    expect(controller.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate']);
    await controller.run(rules);
    expect(controller.trace.stopReason).toBe('completed');
  });

  it('pauses after a step when asked, and pause() stops a long run between steps', async () => {
    const afterFired = createController(template('securityclaw'));
    await afterFired.run(pausing({ edges: ['e4'] }));
    expect(afterFired.trace.steps.at(-1)?.node).toBe('evaluate');

    const graph = FIXTURES.loop();
    const long = createController(graph, { compact: true });
    const unsubscribe = long.subscribe((event) => {
      if (event.type === 'step' && event.step.step === 5) long.pause();
    });
    await long.run();
    unsubscribe();
    expect(long.session.status).toBe('paused');
    // The node already under way when Pause came finishes: the run stops between two steps after it.
    expect(long.trace.steps.length).toBeGreaterThanOrEqual(5);
    expect(long.trace.steps.length).toBeLessThan(graph.limits.maxSteps);
  });

  it('a Run longer than one LangGraph stream call goes on in the next, missing no step and no condition', async () => {
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 1100;
    // The act node spends a token a round: half this budget is crossed by step 1000, the last node of the first stream call.
    graph.limits.tokenBudget = 1002;
    const long = createController(graph, { compact: true });
    await long.run(pausing({ conditions: [{ type: 'tokens_percent', percent: 50 }] }));
    expect(long.session.status).toBe('paused');
    expect(long.trace.steps).toHaveLength(1000);
    await long.run();
    const { steps } = long.trace;
    expect(long.trace.stopReason).toBe('max_steps');
    expect(steps.map((step) => step.step)).toEqual(steps.map((_, index) => index + 1));
    expect(steps.slice(1, -1).every((step, index) => step.node === (index % 2 === 0 ? 'act' : 'check'))).toBe(true);
    expect(long.trace.finalState.steps).toBe(1100);
  }, 60_000);

  it('a long Run yields to the page every few nodes: a task queued meanwhile runs (counted in nodes, on a stepped clock)', async () => {
    // The runtime yields once its clock has moved on by a few milliseconds: a clock that moves 5 ms
    // at each reading makes that every few nodes on any machine, so the check counts nodes, not time.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 5));
    onTestFinished(() => clock.mockRestore());
    const graph = FIXTURES.loop();
    graph.limits.maxSteps = 100;
    const long = createController(graph, { compact: true });
    let steps = 0;
    long.subscribe((event) => {
      if (event.type === 'step') steps += 1;
    });
    // A task of the page's: each time it runs it notes how many steps the run has made, and queues itself again.
    const seen: number[] = [];
    let running = true;
    const pageTask = () => {
      seen.push(steps);
      if (running) setImmediate(pageTask);
    };
    setImmediate(pageTask);
    await long.run();
    running = false;
    expect(long.trace.stopReason).toBe('max_steps');
    const between = seen.slice(1).map((at, index) => at - seen[index]);
    expect(seen.length).toBeGreaterThan(steps / 4);
    expect(Math.max(...between)).toBeLessThanOrEqual(4);
  });

  it('a Step’s node never calls back into its controller (only a Run’s nodes ask the hook between them), and the page still gets its turn before the node', async () => {
    const controller = createController(template('securityclaw'));
    // The hook a Run's nodes ask; a Step's node is handed none (docs/architecture.md, "The count").
    const asked = vi.spyOn(controller as unknown as { beforeNode: () => unknown }, 'beforeNode');
    let pageRan = false;
    const ranFirst: boolean[] = [];
    controller.subscribe((event) => {
      if (event.type === 'step') ranFirst.push(pageRan);
    });
    setImmediate(() => {
      pageRan = true;
    });
    await controller.step();
    await controller.step();
    expect(asked).not.toHaveBeenCalled();
    expect(ranFirst).toEqual([true, true]);
    await controller.run();
    expect(asked).toHaveBeenCalled();
  });

  it('stop() ends the run with user_stopped', async () => {
    const controller = createController(template('securityclaw'));
    await controller.step();
    controller.stop();
    expect(controller.session.status).toBe('stopped');
    expect(controller.trace.stopReason).toBe('user_stopped');
    expect(await controller.step()).toBeNull();
  });
});

it('Stop pressed while a node waits on a skill: the node finishes, the run stops as user_stopped', async () => {
  const graph = FIXTURES.twoActions();
  graph.skills.flaky = { type: 'http', access: 'read', url: 'http://slow.test/', method: 'GET', timeoutMs: 5000 };
  let answer: (response: Response) => void = () => {};
  let called: () => void = () => {};
  const waiting = new Promise<void>((resolve) => {
    called = resolve;
  });
  const fetch = (() => new Promise<Response>((resolve) => {
    answer = resolve;
    called();
  })) as unknown as typeof globalThis.fetch;
  const controller = createController(graph, { fetch });
  const running = controller.run();
  await waiting;
  controller.stop();
  expect(controller.session.status).toBe('stopped');
  answer(new Response('[{"ok":true}]'));
  await running;
  expect(controller.trace.stopReason).toBe('user_stopped');
  expect(controller.trace.steps.map((step) => step.node)).toEqual(['plan', 'act']);
  expect(controller.trace.steps[1].stop?.reason).toBe('user_stopped');
});

describe('a named scenario', () => {
  it('applies its skills, seed and name', async () => {
    const controller = createController(template('securityclaw'), { scenario: 'execute timeout triggers local retry' });
    await controller.run();
    expect(controller.trace).toMatchObject({ scenario: 'execute timeout triggers local retry', stopReason: 'completed', rounds: 1 });
    expect(() => createController(template('securityclaw'), { scenario: 'nope' })).toThrow('the graph has no scenario "nope"');
  });
});

describe('approvals', () => {
  it('permission denied → awaiting approval → approved grants the skill once', async () => {
    const controller = createController(template('approval-gate'));
    const events: RunEvent[] = [];
    controller.subscribe((event) => events.push(event));
    await controller.run();
    expect(controller.session.status).toBe('awaiting_approval');
    expect(controller.session.pending).toMatchObject({ node: 'ask', skill: 'open_ticket', args: { title: 'Block 10.0.0.5', severity: 'high' } });
    expect(events.some((event) => event.type === 'approval')).toBe(true);
    expect(await controller.step()).toBeNull();
    controller.decide('approved');
    expect(controller.session.pending).toBeNull();
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
  // A reason no edge of SecurityClaw names (coverage_low goes to recovery): the evaluation routes otherwise.
  const edited = { evidence_sufficient: false, plan_exhausted: false, reason: 'insufficient', reasoning: 'edited', records: 0 };

  it('keep the steps up to N as they ran and serve a skill’s next results', async () => {
    const original = createController(template('securityclaw'));
    await original.run();
    const fork = await original.fork(1, { nextResults: { search_events: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }] } });
    expect(fork.session.status).toBe('paused');
    expect(fork.trace.steps).toHaveLength(1);
    await fork.run();
    expect(fork.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    expect(fork.trace.steps[1].attempts.map((attempt) => attempt.outcome)).toEqual(['ok']);
    expect(fork.trace.forkedFrom).toEqual({ step: 1, edited: [], overridden: ['search_events'] });
    expect(fork.trace.steps[0]).toEqual(original.trace.steps[0]);
    expect(original.trace.stopReason).toBe('completed');
  });

  it('with an edited state choose the step’s edge again: an edited evaluation routes otherwise', async () => {
    const original = createController(template('securityclaw'));
    await original.run();
    const fork = await original.fork(3, { state: { evaluation: edited } });
    expect(fork.trace.steps[2]).toMatchObject({ node: 'evaluate', fired: { id: 'e5', target: 'decide' } });
    expect(await fork.stateAt(3)).toMatchObject({ evaluation: edited, steps: 3 });
    const next = await fork.step();
    expect(next).toMatchObject({ step: 4, node: 'decide', round: 2 });
  });

  it('with another outcome for the step route on it', async () => {
    const original = createController(template('securityclaw'));
    await original.run();
    const fork = await original.fork(3, { outcome: 'sufficient' });
    expect(fork.trace.steps[2]).toMatchObject({ outcome: 'sufficient', fired: { id: 'e3', target: 'answer' } });
    expect(fork.trace.forkedFrom).toEqual({ step: 3, edited: ['outcome'], overridden: [] });
    await fork.run();
    expect(fork.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    await expect(original.fork(3, { outcome: 'approved' })).rejects.toThrow('"approved" is not an outcome of step 3 (a verify node has sufficient, exhausted, continue)');
  });

  it('honour breakpoints from their first Run: on the node they go to, and on the edge their step now takes', async () => {
    const rules = pausing({ nodes: ['answer'] });
    const original = createController(template('securityclaw'));
    await original.step();
    await original.step();
    await original.step();
    // Fork and continue: the new outcome routes to answer, which has a breakpoint: nothing runs yet.
    const fork = await original.fork(3, { outcome: 'sufficient' });
    await fork.run(rules);
    expect(fork.session.status).toBe('paused');
    expect(fork.trace.steps).toHaveLength(3);
    expect(fork.next).toBe('answer');
    // Continue goes past the breakpoint it stopped at.
    await fork.run(rules);
    expect(fork.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);

    const withEdgeBreakpoint = createController(template('securityclaw'));
    await withEdgeBreakpoint.step();
    const forkAtFirst = await withEdgeBreakpoint.fork(1, {});
    await forkAtFirst.run(pausing({ edges: ['e1'] }));
    expect(forkAtFirst.trace.steps).toHaveLength(1);
    expect(forkAtFirst.next).toBe('execute');
  });

  it('without edits continue exactly as the original, with its seed and scenario', async () => {
    const original = await runGraph(template('securityclaw'), { seed: 11, scenario: 'empty result enters recover path' });
    const interactive = createController(template('securityclaw'), { seed: 11, scenario: 'empty result enters recover path' });
    await interactive.run();
    const fork = await interactive.fork(4, {});
    await fork.run();
    expect(withoutTimings({ ...fork.trace, forkedFrom: undefined })).toEqual(withoutTimings(original));
  });

  it('refuse an edit that does not fit the state, naming the path', async () => {
    const original = createController(template('securityclaw'));
    await original.run();
    await expect(original.fork(3, { state: { round: 'two' } })).rejects.toThrow('round: expected a number, got a string');
    await expect(original.fork(3, { state: { evaluation: { ...edited, plan_exhausted: 'no' } } })).rejects.toThrow('evaluation.plan_exhausted: expected true or false');
  });

  it('form a tree: a fork of a fork, each continued on its own', async () => {
    const original = createController(template('securityclaw'));
    await original.run();
    const child = await original.fork(3, { state: { evaluation: edited } });
    await child.step();
    const grandchild = await child.fork(4, { nextResults: { search_events: [{ outcome: 'ok', records: [{}, {}] }] } });
    await grandchild.run();
    await child.run();
    expect(grandchild.trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'decide', 'execute', 'evaluate', 'answer']);
    expect(child.trace.steps.slice(0, 4).map((step) => step.fired?.id)).toEqual(['e1', 'e2', 'e5', 'e1']);
    expect(child.trace.stopReason).toBe('completed');
    expect(grandchild.trace.forkedFrom?.step).toBe(4);
  });

  it('answer an approval in the fork as a person does', async () => {
    const interactive = createController(template('approval-gate'));
    await interactive.run();
    interactive.decide('approved');
    await interactive.run();
    const fork = await interactive.fork(2, {});
    expect(fork.session.status).toBe('awaiting_approval');
    fork.decide('denied');
    await fork.run();
    expect(fork.trace.stopReason).toBe('denied');
  });
});

describe('checkpoints', () => {
  it('the state of every step is read from its checkpoint, or rebuilt from the journal when the checkpoint was dropped', async () => {
    const full = await runGraph(template('securityclaw'));
    const kept = createController(template('securityclaw'), { retention: { keepNewest: 2, keyframeEvery: 4, maxKeyframes: 1 } });
    await kept.run();
    for (let step = 0; step <= full.steps.length; step += 1) expect(await kept.stateAt(step)).toEqual(stateAfterStep(full, step));
    expect(await kept.stateAt(99)).toBeNull();
  });

  it('the run keeps no copy of its values: it reads them from its checkpointer, and each step a Run tells carries the states of its own step', async () => {
    const controller = createController(template('securityclaw'));
    const told: Extract<RunEvent, { type: 'step' }>[] = [];
    controller.subscribe((event) => {
      if (event.type === 'step') told.push(event);
    });
    await controller.step();
    const inside = controller as unknown as Record<string, unknown> & { shared: { saver: { latest(thread: string): Record<string, unknown> } }; threadId: string };
    expect(Object.keys(inside)).not.toContain('values');
    expect(controller.state).toEqual(agentState(inside.shared.saver.latest(inside.threadId)));
    // A Run streams each node's update while LangGraph goes on: each step told is read at its own step.
    await controller.run();
    expect(told.length).toBeGreaterThan(3);
    for (const event of told) {
      expect(event.states?.after).toEqual(await controller.stateAt(event.step.step));
      expect(event.states?.before).toEqual(await controller.stateAt(event.step.step - 1));
      expect(event.step.stateBefore).toEqual(event.states?.before);
    }
  });

  it('a run restored from its journal continues from its last step and ends as an uninterrupted run', async () => {
    const whole = await runGraph(template('securityclaw'));
    const first = createController(template('securityclaw'));
    for (let step = 0; step < 3; step += 1) await first.step();
    const restored = createController(template('securityclaw'), { journal: JSON.parse(JSON.stringify(first.journal)) });
    expect(restored.session.status).toBe('paused');
    expect(restored.trace.steps).toHaveLength(3);
    await restored.run();
    expect(withoutTimings({ ...restored.trace, steps: restored.trace.steps.map((step) => ({ ...step, stateBefore: undefined })) }))
      .toEqual(withoutTimings({ ...whole, steps: whole.steps.map((step) => ({ ...step, stateBefore: undefined })) }));
  });
});

describe('a skill that already ran is never called again', () => {
  let service: CountingService;
  beforeAll(async () => {
    service = await startCountingService(securityclawAnswers);
  });
  afterAll(() => service.close());

  it('not by time travel, a fork, or a run restored mid-fork (a local HTTP service counts the calls)', async () => {
    service.calls.length = 0;
    const graph = securityclawOver(template('securityclaw'), service.url);
    const original = createController(graph, { compact: true });
    await original.run();
    expect(original.trace.stopReason).toBe('completed');
    expect(service.calls.map((call) => call.split('?')[0])).toEqual(['/siem', '/archive']);
    for (let step = 0; step <= original.trace.steps.length; step += 1) await original.stateAt(step);
    expect(service.calls).toHaveLength(2);

    const fork = await original.fork(3, { state: { evaluation: { evidence_sufficient: false, plan_exhausted: false, reason: 'insufficient', reasoning: 'edited', records: 0 } } });
    expect(service.calls).toHaveLength(2);
    await fork.step();
    await fork.step();
    expect(service.calls).toHaveLength(3);
    expect(service.calls[2]).toMatch(/^\/siem\?.*&step=4$/);

    const restored = createController(graph, { compact: true, journal: JSON.parse(JSON.stringify(fork.journal)), forkedFrom: fork.trace.forkedFrom });
    await restored.run();
    expect(restored.trace.stopReason).toBe('completed');
    expect(restored.trace.steps.slice(0, 5)).toEqual(fork.trace.steps);
    // After the reload only new steps called the service: the recover step's next round asked the archive.
    expect(service.calls.slice(3).map((call) => call.split('?')[0])).toEqual(['/archive']);
    expect(new Set(service.calls).size).toBe(service.calls.length);
  });
});
