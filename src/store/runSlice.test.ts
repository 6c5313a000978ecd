import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import type { RunController } from '../runtime/controller.ts';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { useHostRequest } from '../network/hosts.ts';
import { useApp } from './index.ts';
import { visitCounts } from '../runtime/traceIndex.ts';
import { pauseAfterReason, pauseBeforeReason } from '../runtime/pauseRules.ts';
import { startSession } from '../runtime/session.ts';
import { chosenScenario, liveRedrawSpacing, overlayFor } from './runActions.ts';
import { runRegistry } from './runRegistry.ts';
import type { Breakpoints } from './runSlice.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();

const step = (fields: Partial<TraceStep>): TraceStep => ({
  step: 1, round: 1, node: 'decide', kind: 'reason', outcome: 'ok', attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0, ...fields,
});

const none: Breakpoints = { nodes: [], edges: [], conditions: [] };

const freshStore = () => {
  useApp.getState().reset();
  useApp.setState({ breakpoints: none, seed: 1, scenarioChoices: new Map(), speedMs: 0 });
  useApp.getState().load(securityclaw());
};

describe('overlay of a step', () => {
  const steps = [
    step({ step: 1, node: 'evaluate', kind: 'verify', edges: [
      { id: 'e3', matched: false, explain: 'outcome is sufficient (was exhausted)' },
      { id: 'e4', matched: true, explain: 'evaluation.plan_exhausted eq true (was true)' },
      { id: 'e5', matched: false, skipped: true, explain: 'otherwise' },
    ], fired: { id: 'e4', target: 'recover', reason: 'evaluation.plan_exhausted eq true (was true)' } }),
    step({ step: 2, node: 'recover', kind: 'recover', fired: { id: 'e6', target: 'decide', reason: 'outcome is recovered' } }),
    step({ step: 3, node: 'evaluate', kind: 'verify', fired: { id: 'e4', target: 'recover', reason: 'again' } }),
    step({ step: 4, node: 'decide', guard: { reason: 'max_rounds', explain: 'round 6 would exceed maxRounds 5' } }),
  ];

  it('names the current node, the fired edge with its reason and the edges tried and not taken', () => {
    const overlay = overlayFor(steps, 1);
    expect(overlay.currentNode).toBe('evaluate');
    expect(overlay.firedEdge).toBe('e4');
    expect(overlay.firedReason).toBe('evaluation.plan_exhausted eq true (was true)');
    expect(overlay.triedEdges).toEqual({ e3: 'outcome is sufficient (was exhausted)' });
  });

  it('counts visits over the whole run, leaving out a node a guard stopped before it ran', () => {
    expect(visitCounts(steps)).toEqual({ nodeVisits: { evaluate: 2, recover: 1 }, edgeVisits: { e4: 2, e6: 1 } });
    expect(overlayFor(steps, null).currentNode).toBeNull();
  });

  it('counts the visits of a run once: selecting another step reads no other step', () => {
    let read = 0;
    // Counts each step read out of the run.
    const run = new Proxy([...steps], {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) read += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const first = overlayFor(run, 1);
    expect(read).toBe(run.length + 1);
    const second = overlayFor(run, 3);
    expect(read).toBe(run.length + 2);
    expect(second.currentNode).toBe('evaluate');
    expect(second.nodeVisits).toBe(first.nodeVisits);
    // The first steps of the run (as shown while it goes on) are counted apart.
    expect(overlayFor(run, 2, 2).nodeVisits).toEqual({ evaluate: 1, recover: 1 });
    expect(overlayFor(run, 3, 2).currentNode).toBeNull();
  });
});

describe('redraws of an Instant run', () => {
  /** How many times a run of `steps`, one every `msPerStep`, is drawn with the redraws spaced by liveRedrawSpacing. */
  const redraws = (steps: number, msPerStep: number) => {
    let shown = 0;
    let count = 0;
    let due = liveRedrawSpacing(0);
    for (let made = 1; made <= steps; made += 1) {
      const now = made * msPerStep;
      if (now < due) continue;
      count += 1;
      shown = made;
      due = now + liveRedrawSpacing(shown);
    }
    return count;
  };

  it('come further apart as the run grows: ten times the steps, a few more redraws, not ten times as many', () => {
    const racing = 0.7;
    expect(redraws(10_000, racing)).toBeLessThanOrEqual(12);
    expect(redraws(100_000, racing) - redraws(10_000, racing)).toBeLessThanOrEqual(8);
  });

  it('draw every step of a slow run (a real call a step)', () => {
    expect(redraws(40, 300)).toBe(40);
  });
});

describe('breakpoints', () => {
  const graph = securityclaw();

  it('pauses before a node with a breakpoint and before the entry starts round N', () => {
    expect(pauseBeforeReason({ ...none, nodes: ['recover'] }, graph, 'recover', {})).toMatch(/node recover/);
    expect(pauseBeforeReason({ ...none, nodes: ['recover'] }, graph, 'evaluate', {})).toBeNull();
    const round3 = { ...none, conditions: [{ type: 'round' as const, round: 3 }] };
    expect(pauseBeforeReason(round3, graph, 'decide', { round: 2, steps: 9 })).toMatch(/round 3/);
    expect(pauseBeforeReason(round3, graph, 'decide', { round: 1, steps: 4 })).toBeNull();
    expect(pauseBeforeReason(round3, graph, 'execute', { round: 3, steps: 10 })).toBeNull();
  });

  it('pauses after an edge fires, an attempt fails, or tokens cross a share of the budget once', () => {
    const fired = step({ fired: { id: 'e4', target: 'recover', reason: 'why' } });
    expect(pauseAfterReason({ ...none, edges: ['e4'] }, graph, fired, undefined)).toMatch(/edge e4/);
    expect(pauseAfterReason({ ...none, edges: ['e3'] }, graph, fired, undefined)).toBeNull();

    const failing = step({ attempts: [{ n: 1, skill: 'search_events', outcome: 'timeout', tokens: 100 }, { n: 2, skill: 'search_events', outcome: 'empty', tokens: 100 }] });
    expect(pauseAfterReason({ ...none, conditions: [{ type: 'attempt_failed' }] }, graph, failing, undefined)).toMatch(/attempt 1 of search_events was timeout/);
    expect(pauseAfterReason({ ...none, conditions: [{ type: 'attempt_failed' }] }, graph, step({ attempts: [{ n: 1, skill: 's', outcome: 'empty', tokens: 0 }] }), undefined)).toBeNull();

    // The budget is 2000: 80% is 1600.
    const tokens = { ...none, conditions: [{ type: 'tokens_percent' as const, percent: 80 }] };
    expect(pauseAfterReason(tokens, graph, step({ tokensUsed: 1700 }), step({ tokensUsed: 1500 }))).toMatch(/1700\/2000/);
    expect(pauseAfterReason(tokens, graph, step({ tokensUsed: 1800 }), step({ tokensUsed: 1700 }))).toBeNull();
  });
});

describe('driving the runtime from the store', () => {
  it('Step runs one node at a time and the overlay follows the latest step', async () => {
    freshStore();
    await useApp.getState().step();
    await useApp.getState().step();
    const state = useApp.getState();
    expect(state.runs).toHaveLength(1);
    expect(state.runs[0].stepCount).toBe(2);
    expect(state.selectedStep).toBe(2);
    expect(state.overlay?.currentNode).toBe('execute');
    expect(state.overlay?.firedEdge).toBe('e2');
    expect(state.runStatus).toBe('paused');
  });

  it('a Step shows the states around its step as the run told them: the store reads nothing back from the run after the paint', async () => {
    freshStore();
    await useApp.getState().step();
    const live = runRegistry.live!;
    const stateAt = vi.spyOn(live, 'stateAt');
    await useApp.getState().step();
    // The read after the paint would come a frame later: wait past it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stateAt).not.toHaveBeenCalled();
    const { stateAfterSelected, stateBeforeSelected, selectedStep } = useApp.getState();
    expect(selectedStep).toBe(2);
    expect(stateAfterSelected).toEqual(await live.stateAt(2));
    expect(stateBeforeSelected).toEqual(await live.stateAt(1));
    expect(stateAfterSelected).toHaveProperty('plan');
  });

  it('a Step calls the run once and is told the rest: the store reads neither its trace nor its status, next node or approval', async () => {
    freshStore();
    await useApp.getState().step();
    const id = useApp.getState().liveRunId!;
    const live = runRegistry.live!;
    // The run as the store sees it: what the store reads or calls of it is counted (the run's own reads of itself are not).
    const used: string[] = [];
    const watched = new Proxy(live, {
      get: (target, name) => {
        used.push(String(name));
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    runRegistry.register(id, watched);
    useApp.getState().selectRun(id);
    expect(runRegistry.live).toBe(watched);
    // Once it told a step of its own as the live run.
    await useApp.getState().step();
    await new Promise((resolve) => setTimeout(resolve, 20));
    used.length = 0;
    await useApp.getState().step();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // 'then': the run handed on by an async function is looked at as a promise might be.
    expect(used.filter((name) => name !== 'then')).toEqual(['step']);
    // What the store shows is the run as it stands.
    const state = useApp.getState();
    expect(state.runs.find((run) => run.id === id)?.trace).toEqual(live.trace);
    expect(state).toMatchObject({ runStatus: live.session.status, pendingApproval: live.session.pending, selectedStep: 3 });
    expect(state.nodeStatus[live.next!]?.[0]).toMatchObject({ tone: 'next' });
  });

  it('Step after an edit of what a run reads starts a new run on it; after a move or a new name it goes on', async () => {
    freshStore();
    await useApp.getState().step();
    useApp.getState().edit((graph) => ({ ...graph, name: 'Renamed', nodes: graph.nodes.map((node) => ({ ...node, position: { x: node.position.x + 40, y: node.position.y } })) }));
    await useApp.getState().step();
    expect(useApp.getState().runs.map((run) => run.stepCount)).toEqual([2]);
    useApp.getState().edit((graph) => ({ ...graph, name: 'Edited', limits: { ...graph.limits, maxRounds: 2 } }));
    await useApp.getState().step();
    const state = useApp.getState();
    expect(state.runs.map((run) => run.stepCount)).toEqual([2, 1]);
    expect(state.runs[1].trace.graph).toBe('Edited');
  });

  it('Run goes to the end; selecting a past step travels back', async () => {
    freshStore();
    await useApp.getState().run();
    let state = useApp.getState();
    expect(state.runStatus).toBe('stopped');
    expect(state.runs[0].trace.stopReason).toBe('completed');
    expect(state.runs[0].trace.steps.map((item) => item.node)).toEqual(['decide', 'execute', 'evaluate', 'recover', 'decide', 'execute', 'evaluate', 'answer']);
    expect(state.overlay?.nodeVisits).toMatchObject({ decide: 2, execute: 2, recover: 1, answer: 1 });
    state.selectStep(2);
    state = useApp.getState();
    expect(state.overlay?.currentNode).toBe('execute');
    // Read from step 2's checkpoint.
    await expect.poll(() => useApp.getState().stateAfterSelected).toMatchObject({ steps: 2, tokensUsed: 200, results: [{ skill: 'search_events', outcome: 'empty' }] });
    expect(useApp.getState().stateBeforeSelected).toMatchObject({ steps: 1, tokensUsed: 0 });
    expect(await useApp.getState().readRunState(state.runs[0].id, 4)).toMatchObject({ steps: 4, recovery: { skill: 'query_alternative_source' } });
  });

  it('an Instant run is drawn still while it goes on (no moving fired edge), and moves again once stopped', async () => {
    freshStore();
    const seen: { status: string; still: boolean }[] = [];
    const stop = useApp.subscribe((state) => {
      if (state.overlay) seen.push({ status: state.runStatus, still: state.overlay.still === true });
    });
    onTestFinished(stop);
    await useApp.getState().run();
    expect(seen.some((one) => one.status === 'running' && one.still)).toBe(true);
    expect(useApp.getState().overlay?.still).toBeUndefined();
    // An animated run is drawn as it goes, fired edge moving.
    seen.length = 0;
    useApp.setState({ speedMs: 1 });
    await useApp.getState().run();
    expect(seen.filter((one) => one.still)).toEqual([]);
  });

  it('a breakpoint on recover pauses before it and says so; Continue goes on', async () => {
    freshStore();
    useApp.getState().toggleNodeBreakpoint('recover');
    await useApp.getState().run();
    let state = useApp.getState();
    expect(state.runStatus).toBe('paused');
    expect(state.runs[0].stepCount).toBe(3);
    expect(state.pausedBy).toMatch(/node recover/);
    await state.continueRun();
    state = useApp.getState();
    expect(state.runs[0].trace.stopReason).toBe('completed');
  });

  it('Step round stops before the next round starts', async () => {
    freshStore();
    await useApp.getState().stepRound();
    const state = useApp.getState();
    expect(state.runs[0].stepCount).toBe(4);
    expect(state.pausedBy).toMatch(/round 2/);
  });

  it('a fork with an edited skill result takes another edge, and both runs are kept', async () => {
    freshStore();
    await useApp.getState().run();
    await useApp.getState().fork(1, { nextResults: { search_events: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }] } });
    const state = useApp.getState();
    expect(state.runs.map((run) => run.label)).toEqual(['Run 1', 'Run 2 (fork of run 1 at step 1)']);
    const forked = state.runs[1].trace;
    expect(forked.stopReason).toBe('completed');
    expect(forked.steps.map((item) => item.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    expect(forked.steps[2].fired?.id).toBe('e3');
    expect(state.activeRunId).toBe(2);
  });

  it('a fork with an edited state re-runs the step on it', async () => {
    freshStore();
    await useApp.getState().run();
    const records = [{ ip: '10.0.0.5', event: 'login_failed' }, { ip: '10.0.0.5', event: 'login_failed', user: 'root' }];
    await useApp.getState().fork(2, { state: { results: [{ skill: 'search_events', args: {}, outcome: 'ok', records, attempts: 1 }] } });
    const forked = useApp.getState().runs[1].trace;
    expect(forked.forkedFrom).toEqual({ step: 2, edited: ['results'], overridden: [] });
    expect(forked.steps[2]).toMatchObject({ node: 'evaluate', outcome: 'sufficient', fired: { id: 'e3' } });
    expect(forked.stopReason).toBe('completed');
  });

  it('Pause stops a slow run between steps; Continue finishes it', async () => {
    freshStore();
    useApp.getState().setSpeed(30);
    const running = useApp.getState().run();
    await vi.waitFor(() => expect(useApp.getState().runs[0]?.stepCount ?? 0).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 5 });
    useApp.getState().pause();
    // The page answers at once; the run stops when the node in flight is done.
    expect(useApp.getState().pauseAsked).toBe(true);
    await running;
    let state = useApp.getState();
    expect(state.runStatus).toBe('paused');
    expect(state.pauseAsked).toBe(false);
    expect(state.runs[0].stepCount).toBeGreaterThan(0);
    expect(state.runs[0].stepCount).toBeLessThan(8);
    await state.continueRun();
    state = useApp.getState();
    expect(state.runs[0].trace.stopReason).toBe('completed');
  });

  it('the attempts of a node in flight show before its step is done', async () => {
    freshStore();
    const graph = securityclaw();
    graph.skills.search_events = { type: 'http', access: 'read', method: 'GET', timeoutMs: 60_000, url: 'http://siem.test/' };
    graph.nodes = graph.nodes.map((node) => (node.id === 'execute' && node.kind === 'act' ? { ...node, config: { ...node.config, retry: { maxAttempts: 3, retryOn: ['error'] } } } : node));
    useApp.getState().load(graph);
    let answer: (response: Response) => void = () => {};
    let calls = 0;
    const realFetch = globalThis.fetch;
    onTestFinished(() => {
      globalThis.fetch = realFetch;
    });
    // The run contacts siem.test: the person allows it when asked.
    onTestFinished(useHostRequest.subscribe(({ request }) => request?.answer(request.mode)));
    globalThis.fetch = (async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection refused');
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    }) as typeof fetch;
    const running = useApp.getState().run();
    // Polled past the default second: the attempt is drawn at the next redraw (a quarter second at least), later on a loaded machine.
    await expect.poll(() => useApp.getState().inFlight, { timeout: 10_000 }).toMatchObject({ step: 2, node: 'execute', attempts: [{ n: 1, outcome: 'error' }] });
    // The canvas says so on the node: it runs, on its second attempt of three; decide before it wrote its plan.
    expect(useApp.getState().nodeStatus.execute.map((chip) => chip.text)).toEqual(['running', 'attempt 2 of 3']);
    expect(useApp.getState().nodeStatus.decide.map((chip) => chip.text)).toEqual(['wrote plan']);
    answer(new Response('[{"ip": "10.0.0.5"}, {"ip": "10.0.0.6"}]'));
    await running;
    expect(useApp.getState().inFlight).toBeNull();
    expect(useApp.getState().nodeStatus.execute.map((chip) => chip.text)).toEqual(['attempt 2 of 3', 'wrote 2 fields']);
    expect(useApp.getState().runs[0].trace.steps[1].attempts.map((attempt) => attempt.outcome)).toEqual(['error', 'ok']);
  });

  it("the store's runs are plain values; their controllers are the registry's, the live one too, and Reset forgets them", async () => {
    freshStore();
    await useApp.getState().step();
    const { runs, liveRunId } = useApp.getState();
    const live = runRegistry.get(runs[0].id);
    expect(live?.trace.steps).toHaveLength(1);
    expect(runRegistry.live).toBe(live);
    expect(liveRunId).toBe(runs[0].id);
    useApp.getState().reset();
    expect([runRegistry.get(runs[0].id), runRegistry.live]).toEqual([undefined, null]);
  });

  it('Reset forgets the runs and the overlay', async () => {
    freshStore();
    await useApp.getState().run();
    useApp.getState().reset();
    const state = useApp.getState();
    expect(state.runs).toEqual([]);
    expect(state.overlay).toBeNull();
    expect(state.nodeStatus).toEqual({});
    expect(state.runStatus).toBe('idle');
  });

  it('Step: the nodes stepped say what they wrote and the node the run goes on with says it runs next; picking an earlier step shows them as it left them', async () => {
    freshStore();
    await useApp.getState().step();
    await useApp.getState().step();
    const texts = (id: string) => useApp.getState().nodeStatus[id]?.map((chip) => chip.text);
    expect(texts('decide')).toEqual(['wrote plan']);
    expect(texts('execute')).toEqual(['attempt 2 of 3', 'wrote 2 fields']);
    expect(texts('evaluate')).toEqual(['runs next']);
    const decide = useApp.getState().nodeStatus.decide;
    useApp.getState().selectStep(1);
    await expect.poll(() => texts('execute')).toBeUndefined();
    expect(useApp.getState().nodeStatus.decide).toBe(decide);
  });

  it('a Step paints the canvas twice: as its node starts, and once when it is done (not again for what the run told during it)', async () => {
    freshStore();
    await useApp.getState().step();
    // Each paint of the run shows a new overlay.
    let paints = 0;
    const unsubscribe = useApp.subscribe((state, before) => {
      if (state.overlay !== before.overlay) paints += 1;
    });
    onTestFinished(unsubscribe);
    await useApp.getState().step();
    expect(paints).toBe(2);
    expect(useApp.getState()).toMatchObject({ selectedStep: 2, overlay: { currentNode: 'execute' } });
    expect(useApp.getState().nodeStatus.evaluate?.map((chip) => chip.text)).toEqual(['runs next']);
  });

  it('a scenario runs its overrides: max rounds stops the loop', async () => {
    freshStore();
    useApp.getState().setScenario('max rounds forces stop');
    await useApp.getState().run();
    expect(useApp.getState().runs[0].trace.stopReason).toBe('max_rounds');
  });

  it('the scenario chosen belongs to its graph: another graph opened runs as drawn, and its own choice comes back with it', async () => {
    freshStore();
    const first = useApp.getState().documentId;
    const firstGraph = useApp.getState().graph;
    useApp.getState().setScenario('max rounds forces stop');
    expect(chosenScenario(useApp.getState())).toBe('max rounds forces stop');
    // Another graph with a scenario of the same name: the choice made on the first is not its own.
    useApp.getState().load(securityclaw());
    expect(chosenScenario(useApp.getState())).toBeNull();
    await useApp.getState().run();
    expect(useApp.getState().runs.at(-1)?.trace.stopReason).toBe('completed');
    expect(useApp.getState().runs.at(-1)?.scenario).toBeUndefined();
    useApp.getState().openDocument(firstGraph, first);
    expect(chosenScenario(useApp.getState())).toBe('max rounds forces stop');
    // A scenario removed since is no choice at all: the graph runs as drawn, as the picker then shows.
    useApp.getState().edit((graph) => ({ ...graph, scenarios: graph.scenarios.filter((scenario) => scenario.name !== 'max rounds forces stop') }));
    expect(chosenScenario(useApp.getState())).toBeNull();
  });

  it('a refused Run says why and leaves no earlier run on screen as if it were its result', async () => {
    freshStore();
    await useApp.getState().step();
    await useApp.getState().step();
    const graph = securityclaw();
    graph.skills.search_events = { type: 'http', access: 'read', method: 'GET', timeoutMs: 1000, url: 'http://siem.test/' };
    useApp.getState().edit(() => graph);
    // The person declines the hosts the run would contact.
    onTestFinished(useHostRequest.subscribe(({ request }) => request?.answer(null)));
    await useApp.getState().run();
    let state = useApp.getState();
    expect(state.runRefused).toBe('it would contact hosts that were not allowed.');
    expect(state.activeRunId).toBeNull();
    expect(state.overlay).toBeNull();
    expect(state.nodeStatus).toEqual({});
    expect(state.runs).toHaveLength(1);
    // The earlier run is still there to pick, and picked, it is shown again and the refusal is gone.
    state.selectRun(state.runs[0].id);
    state = useApp.getState();
    expect(state.runRefused).toBeNull();
    expect(state.overlay?.currentNode).toBe('execute');
  });

  it('an approval waits for a person, and Approve lets the run finish', async () => {
    freshStore();
    useApp.getState().load(findTemplate('approval-gate')!.graph());
    await useApp.getState().run();
    let state = useApp.getState();
    expect(state.runStatus).toBe('awaiting_approval');
    expect(state.pendingApproval?.skill).toBe('open_ticket');
    await state.decide('approved');
    state = useApp.getState();
    expect(state.runs[0].trace.stopReason).toBe('completed');
  });

  it('an imported trace of another graph is shown with a warning, also when kept as its file', async () => {
    freshStore();
    const trace = { format: 'loopscope/trace', version: 1, graph: 'Other', seed: 1, stopReason: 'completed', rounds: 1, tokensUsed: 0, finalState: {}, steps: [step({})] } satisfies Trace;
    useApp.getState().loadTrace(trace, { file: new Blob([JSON.stringify(trace)]) });
    const state = useApp.getState();
    expect(state.runs[0].imported).toBe(true);
    expect(state.traceWarning).toMatch(/"Other"/);
    await expect.poll(() => useApp.getState().overlay?.currentNode).toBe('decide');
  });
});

describe('a run that goes on elsewhere (a LangGraph server\'s thread), driven by the same actions', () => {
  /** A thread running on a server, as its controller tells it: it cannot be paused from here, and records what it is asked. */
  const runningElsewhere = (trace: Trace) => {
    const asked: string[] = [];
    const controller: RunController = {
      session: startSession('running'),
      trace,
      next: 'execute',
      subscribe: () => () => {},
      step: async () => {
        asked.push('step');
        return null;
      },
      run: async () => void asked.push('run'),
      pause: () => ({ unsupported: 'it goes on to its next interrupt' }),
      stop: () => ({ unsupported: 'it goes on to its next interrupt' }),
      decide: (decision) => void asked.push(decision),
      stateAt: async () => null,
      fork: async () => ({ unsupported: 'state edits only' }),
    };
    return { controller, asked };
  };
  const trace = (steps: TraceStep[]): Trace => ({ format: 'loopscope/trace', version: 1, graph: 'SecurityClaw triage', seed: 1, stopReason: null, rounds: 1, tokensUsed: 0, finalState: {}, steps });

  it('is the live run: Continue and the approval go to its controller; Pause and an unsupported fork say why, in words', async () => {
    freshStore();
    const { controller, asked } = runningElsewhere(trace([step({ step: 1 })]));
    const id = await useApp.getState().followRun(controller, { key: 'http://server 1', label: 'thread 1', graph: useApp.getState().graph });
    expect(useApp.getState()).toMatchObject({ liveRunId: id, activeRunId: id, runStatus: 'running', selectedStep: 1 });
    useApp.getState().pause();
    expect(useApp.getState().runError).toBe('it goes on to its next interrupt');
    expect(useApp.getState().pauseAsked).toBe(false);
    await useApp.getState().continueRun();
    await useApp.getState().decide('approved');
    expect(asked).toEqual(['run', 'approved', 'run']);
    await useApp.getState().fork(1, { outcome: 'error' });
    expect(useApp.getState().runError).toBe('state edits only');
    expect(useApp.getState().runs).toHaveLength(1);
  });

  it('read again, it is updated in place; with nothing new, the step the person picked stays', async () => {
    freshStore();
    const first = runningElsewhere(trace([step({ step: 1 }), step({ step: 2 })]));
    const shown = { key: 'http://server 2', label: 'thread 2', graph: useApp.getState().graph };
    const id = await useApp.getState().followRun(first.controller, shown);
    useApp.getState().selectStep(1);
    expect(await useApp.getState().followRun(first.controller, shown)).toBe(id);
    expect(useApp.getState().selectedStep).toBe(1);
    const longer = runningElsewhere(trace([step({ step: 1 }), step({ step: 2 }), step({ step: 3 })]));
    expect(await useApp.getState().followRun(longer.controller, shown)).toBe(id);
    expect(useApp.getState().runs).toHaveLength(1);
    expect(useApp.getState().runs[0].stepCount).toBe(3);
    expect(useApp.getState().selectedStep).toBe(3);
  });
});
