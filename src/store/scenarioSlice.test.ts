import { beforeEach, describe, expect, it } from 'vitest';
import { updateEdge } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import type { RunController } from '../runtime/controller.ts';
import { startSession } from '../runtime/session.ts';
import type { Trace } from '../runtime/trace.ts';
import { useApp } from './index.ts';
import { unsavableReason } from './scenarioActions.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();
const app = () => useApp.getState();

/** A run that ended elsewhere (a server's thread), as its controller tells it. */
const endedElsewhere = (trace: Trace): RunController => ({
  session: startSession('stopped'),
  trace,
  next: null,
  subscribe: () => () => {},
  step: async () => null,
  run: async () => {},
  pause: () => ({ unsupported: 'ended' }),
  stop: () => ({ unsupported: 'ended' }),
  decide: () => {},
  stateAt: async () => null,
  fork: async () => ({ unsupported: 'ended' }),
});

/** evaluate → recover fires on plan_exhausted = false instead of true. */
const flipRecoveryCondition = () => app().edit((graph) => updateEdge(graph, 'e4', (edge) => ({ ...edge, when: { path: 'evaluation.plan_exhausted', op: 'eq', value: false } })));

beforeEach(() => {
  app().reset();
  useApp.setState({ scenarioResults: new Map(), scenarioSources: new Map(), comparison: null, seed: 1, scenarioChoices: new Map(), speedMs: 0 });
  app().load(securityclaw());
});

// Scenarios are whole runs through LangGraph, loaded on first use: room for a loaded machine.
describe('scenarios in the app', { timeout: 30_000 }, () => {
  it('runs every scenario of the graph, never a real skill, and keeps each result', async () => {
    await app().runScenarios();
    const results = app().scenarioResults;
    expect([...results.keys()]).toEqual(securityclaw().scenarios.map((scenario) => scenario.name));
    expect([...results.values()].map((result) => result.status)).toEqual(securityclaw().scenarios.map(() => 'passed'));
    expect(app().scenariosRunning).toEqual([]);
  });

  it('a failure opens its run in the debugger at the first step where it parts from the scenario', async () => {
    flipRecoveryCondition();
    const name = 'default run: local retry, then recovery changes the source';
    await app().runScenarios([name]);
    const result = app().scenarioResults.get(name);
    expect(result).toMatchObject({ status: 'failed', divergence: 3 });
    const id = await app().openScenarioRun(name);
    expect(app().activeRunId).toBe(id);
    expect(app().selectedStep).toBe(3);
    expect(app().runs.find((run) => run.id === id)?.label).toBe(`Run ${id}: scenario "${name}" (failed)`);
    // Opening it again shows the same run rather than another copy.
    expect(await app().openScenarioRun(name)).toBe(id);
    expect(app().runs).toHaveLength(1);
  });

  it('a LangGraph server thread’s run saves as a scenario and compares; one of a graph Loopscope did not make is refused', async () => {
    await app().run();
    const local = app().activeRunId as number;
    // A thread of the exported graph has the trace a local run has (export.test.ts pins that).
    const { trace } = app().runs.find((run) => run.id === local)!;
    const graph = app().graph;
    const thread = endedElsewhere(trace);
    const server = await app().followRun(thread, { key: 'http://127.0.0.1:2024 0123abcd', label: 'thread 0123abcd', graph });
    expect(app().runs.find((run) => run.id === server)).toMatchObject({ label: `Run ${server}: thread 0123abcd`, imported: true, server: 'http://127.0.0.1:2024 0123abcd' });
    // Read again, the thread replaces its run rather than adding one.
    expect(await app().followRun(thread, { key: 'http://127.0.0.1:2024 0123abcd', label: 'thread 0123abcd', graph })).toBe(server);
    expect(app().runs).toHaveLength(2);
    expect(await app().readRunState(server, 3)).toEqual(await app().readRunState(local, 3));
    const draft = await app().draftScenario(server);
    app().saveScenario({ ...draft!.scenario, name: 'pinned server run' }, server);
    await app().runScenarios(['pinned server run']);
    expect(app().scenarioResults.get('pinned server run')?.status).toBe('passed');

    const foreign = await app().followRun(endedElsewhere(trace), { key: 'http://127.0.0.1:2024 4567efgh', label: 'thread 4567efgh', graph, foreign: true });
    expect(unsavableReason(app().runs.find((run) => run.id === foreign)!)).toContain('did not make');
    expect(await app().draftScenario(foreign)).toBeNull();
  });

  it('saves a run as a scenario through the graph’s edit path: undo takes it back', async () => {
    await app().run();
    const runId = app().activeRunId as number;
    const draft = await app().draftScenario(runId);
    expect(draft?.scenario.expect.path).toEqual(['decide', 'execute', 'evaluate', 'recover', 'decide', 'execute', 'evaluate', 'answer']);
    const before = app().graph.scenarios.length;
    app().saveScenario({ ...draft!.scenario, name: 'pinned run' }, runId);
    expect(app().graph.scenarios.at(-1)?.name).toBe('pinned run');
    expect(app().scenarioSources).toEqual(new Map([['pinned run', runId]]));
    await app().runScenarios(['pinned run']);
    expect(app().scenarioResults.get('pinned run')?.status).toBe('passed');
    app().undo();
    expect(app().graph.scenarios).toHaveLength(before);
    app().redo();
    expect(app().graph.scenarios.at(-1)?.name).toBe('pinned run');
    app().removeScenario('pinned run');
    expect(app().graph.scenarios).toHaveLength(before);
  });

  it('compares two runs: the right one shown at the parting step, the canvas marks both edges', async () => {
    await app().run();
    const left = app().activeRunId as number;
    flipRecoveryCondition();
    await app().run();
    const right = app().activeRunId as number;
    app().compareRuns({ left, right });
    await app().showParting({ left, right }, 3, { nodes: ['evaluate'], leftEdge: 'e4', rightEdge: 'e5' });
    expect(app().selectedStep).toBe(3);
    expect(app().overlay).toMatchObject({ currentNode: 'evaluate', firedEdge: 'e5', parting: { nodes: ['evaluate'], leftEdge: 'e4', rightEdge: 'e5' } });
    // Choosing another step paints it alone.
    app().selectStep(2);
    await Promise.resolve();
    expect(app().overlay?.parting).toBeUndefined();
    app().closeComparison();
    expect(app().comparison).toBeNull();
  });
});
