import { readFileSync } from 'node:fs';
import { MemorySaver } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { ask, buildStateGraph, createController, isUnsupported, type ForkEdits, type RunController, type RunEvent } from '../runtime/index.ts';
import { FIXTURES } from '../runtime/fixtures/index.ts';
import { useApp } from '../store/index.ts';
import { inProcessServer } from './inProcessServer.testing.ts';
import { disconnect } from './langgraphServer.ts';
import { connect } from './serverRun.ts';

/** Each implementation of the contract, on a graph of its own, with what tells one of its steps' states from another. */
interface Implementation {
  name: string;
  start(): Promise<RunController>;
  /** Which step a state is the state after. */
  stepOf(state: Record<string, unknown>): number;
  /** A state edit its fork takes, and how it shows in the state after the forked step. */
  edit: ForkEdits['state'];
  edited(state: Record<string, unknown>): boolean;
}

const implementations: Implementation[] = [
  {
    name: 'a run in the page (createController)',
    start: async () => createController(FIXTURES.twoActions()),
    stepOf: (state) => Number(state.steps),
    edit: { tokensUsed: 42 },
    edited: (state) => state.tokensUsed === 42,
  },
  {
    name: 'a thread of a LangGraph server (ServerRun over the SDK)',
    start: async () => {
      const controller = await connect('http://server.test', inProcessServer().client);
      if (!controller) throw new Error('not connected');
      return controller;
    },
    stepOf: (state) => Number(state.count),
    edit: { count: 10 },
    edited: (state) => state.count === 10,
  },
];

afterEach(() => {
  disconnect();
  useApp.getState().reset();
});

/** Runs to the end, approving whatever asks. */
const toTheEnd = async (controller: RunController) => {
  await controller.run();
  while (controller.session.status === 'awaiting_approval') await ask(controller, { type: 'decide', decision: 'approved' });
};

describe.each(implementations)('the RunController contract: $name', (implementation) => {
  it('is idle before its first step, with no steps', async () => {
    const controller = await implementation.start();
    expect(controller.session.status).toBe('idle');
    expect(controller.trace.steps).toEqual([]);
  });

  it('step() runs one node and pauses before the next, which it names', async () => {
    const controller = await implementation.start();
    const first = await controller.step();
    expect(first?.step).toBe(1);
    expect(controller.session.status).toBe('paused');
    expect(controller.trace.steps.map((step) => step.node)).toEqual([first?.node]);
    expect(controller.next).not.toBeNull();
    const next = controller.next;
    const second = await controller.step();
    expect(second?.node).toBe(next);
  });

  it('run() goes on to the end: stopped, nothing next, its steps numbered in order', async () => {
    const controller = await implementation.start();
    await controller.step();
    await toTheEnd(controller);
    expect(controller.session.status).toBe('stopped');
    expect(controller.next).toBeNull();
    expect(controller.trace.steps.length).toBeGreaterThan(1);
    expect(controller.trace.steps.map((step) => step.step)).toEqual(controller.trace.steps.map((_, index) => index + 1));
  });

  it('stateAt(n) is the state after step n', async () => {
    const controller = await implementation.start();
    await controller.step();
    await controller.step();
    const [after1, after2] = await Promise.all([controller.stateAt(1), controller.stateAt(2)]);
    expect(implementation.stepOf(after1 ?? {})).toBe(1);
    expect(implementation.stepOf(after2 ?? {})).toBe(2);
  });

  it('fork(n, edits) keeps steps 1..n as they ran, takes the edits after step n and goes on with run()', async () => {
    const controller = await implementation.start();
    await toTheEnd(controller);
    const ran = controller.trace.steps.map((step) => step.node);
    const forked = await controller.fork(1, { state: implementation.edit });
    if (isUnsupported(forked)) throw new Error(forked.unsupported);
    expect(implementation.edited((await forked.stateAt(1)) ?? {}) || implementation.edited((await forked.stateAt(2)) ?? {})).toBe(true);
    await toTheEnd(forked);
    expect(forked.session.status).toBe('stopped');
    expect(forked.trace.steps[0].node).toBe(ran[0]);
  });

  it('pause() and stop() are done or say, as a value, why they cannot be', async () => {
    const controller = await implementation.start();
    await controller.step();
    for (const result of [controller.pause(), controller.stop()]) expect(result === undefined || isUnsupported(result)).toBe(true);
  });

  it('where it stands is its session alone, and the screen shows that session: the status and the approval', async () => {
    const controller = await implementation.start();
    // One place: no status or approval of its own beside the session (derivable, they were kept twice).
    expect('status' in controller || 'pendingApproval' in controller).toBe(false);
    await useApp.getState().followRun(controller, { key: 'under test', label: 'under test', graph: useApp.getState().graph });
    for (const drive of [() => useApp.getState().step(), () => useApp.getState().step(), () => toTheEnd(controller)]) {
      await drive();
      expect({ status: useApp.getState().runStatus, pending: useApp.getState().pendingApproval }).toEqual({ status: controller.session.status, pending: controller.session.pending });
    }
    expect(controller.session.status).toBe('stopped');
  });

  it('subscribe() tells each new step and the status as it changes, until unsubscribed', async () => {
    const controller = await implementation.start();
    const told: RunEvent[] = [];
    const unsubscribe = controller.subscribe((event) => told.push(event));
    await controller.step();
    expect(told.filter((event) => event.type === 'step').map((event) => event.type === 'step' && event.step.step)).toEqual([1]);
    expect(told.some((event) => event.type === 'status')).toBe(true);
    unsubscribe();
    const before = told.length;
    await controller.step();
    expect(told).toHaveLength(before);
  });
});

describe('what a run on a LangGraph server cannot do from here', () => {
  it('forks take state edits only, and pause is not for a run on the server: each says why as a typed result', async () => {
    const server = inProcessServer();
    const controller = (await connect('http://server.test', server.client)) as RunController;
    await toTheEnd(controller);
    const forked = await controller.fork(1, { nextResults: { search: [{ outcome: 'ok', value: 1 }] } as unknown as ForkEdits['nextResults'] });
    expect(forked).toEqual({ unsupported: expect.stringContaining('state edits only') });
    expect(controller.pause()).toEqual({ unsupported: expect.stringContaining('cannot be paused') });
    expect(server.requests.filter((request) => request.startsWith('update'))).toEqual([]);
  });
});

describe('a thread of a server, once disconnected', () => {
  it('has stopped, and says so to whoever follows it, so that Step starts a run in the page again', async () => {
    const controller = (await connect('http://server.test', inProcessServer().client)) as RunController;
    await controller.step();
    const told: RunEvent[] = [];
    controller.subscribe((event) => told.push(event));
    disconnect();
    expect(controller.session.status).toBe('stopped');
    expect(told).toEqual([{ type: 'status', status: 'stopped' }]);
  });
});

/** A graph that asks a person before a node, run in the page and as a Loopscope export on a server. */
const bothExecutors = async (graph: GraphFile) => {
  const served = buildStateGraph(graph, {}, { describe: true, served: true }).compile({ checkpointer: new MemorySaver() });
  const server = await connect('http://server.test', inProcessServer(served as never, 'approval').client);
  if (!server) throw new Error('not connected');
  return { local: createController(graph), server };
};

describe('an approval, asked by either executor', () => {
  const gate = () => findTemplate('approval-gate')!.graph();
  /** The same graph, its approve node left to put the question in the one default wording. */
  const unworded = (): GraphFile => {
    const graph = gate();
    return { ...graph, nodes: graph.nodes.map((node) => (node.kind === 'approve' ? { ...node, config: { ...node.config, prompt: undefined } } : node)) };
  };

  it.each([['its own prompt', gate], ['the default wording', unworded]])('waits on the same approval, in the same words (%s), and goes on past it the same way', async (_, graph) => {
    const { local, server } = await bothExecutors(graph());
    await local.run();
    await server.run();
    expect(server.session).toEqual(local.session);
    expect(local.session).toMatchObject({ status: 'awaiting_approval', pending: { node: 'ask', skill: 'open_ticket' } });
    // What the screen shows of the server's run (it follows the thread it reads) is that session.
    expect(useApp.getState().pendingApproval).toEqual(server.session.pending);
    for (const run of [local, server]) await ask(run, { type: 'decide', decision: 'approved' });
    expect([local.session.status, server.session.status]).toEqual(['stopped', 'stopped']);
    expect(server.trace.steps.map((step) => `${step.node}:${step.outcome}`)).toEqual(local.trace.steps.map((step) => `${step.node}:${step.outcome}`));
  });

  it('waits on an approve node whose LangGraph name is not its id (an id taken by a state field), as the run in the page does', async () => {
    // `approval` is a state field, so the node compiles as `n_approval` (compile.ts nodeNames): the thread's `next` names that.
    const renamed = (id: string) => (id === 'ask' ? 'approval' : id);
    const graph = gate();
    const { local, server } = await bothExecutors({ ...graph, nodes: graph.nodes.map((node) => ({ ...node, id: renamed(node.id) })), edges: graph.edges.map((edge) => ({ ...edge, source: renamed(edge.source), target: renamed(edge.target) })) });
    await local.run();
    await server.run();
    expect(local.session).toMatchObject({ status: 'awaiting_approval', pending: { node: 'approval', skill: 'open_ticket' } });
    expect(server.session).toEqual(local.session);
    expect(server.next).toBe(local.next);
    for (const run of [local, server]) await ask(run, { type: 'decide', decision: 'approved' });
    expect([local.session.status, server.session.status]).toEqual(['stopped', 'stopped']);
    expect(server.trace.steps.map((step) => `${step.node}:${step.outcome}`)).toEqual(local.trace.steps.map((step) => `${step.node}:${step.outcome}`));
  });

  it('is not asked when a guard stops the run before the node that asks: each executor pauses there, then stops at the guard', async () => {
    // Two steps (draft, apply) spend maxSteps: the approve node would be stopped by its guard, so its answer would change nothing.
    const graph = gate();
    const { local, server } = await bothExecutors({ ...graph, limits: { ...graph.limits, maxSteps: 2 } });
    for (const run of [local, server]) await run.run();
    expect(local.session).toEqual({ status: 'paused', pending: null, pausedBy: null });
    expect(server.session).toEqual(local.session);
    expect([local.next, server.next]).toEqual(['ask', 'ask']);
    for (const run of [local, server]) await run.run();
    expect([local.session.status, server.session.status]).toEqual(['stopped', 'stopped']);
    expect(server.trace.steps.map((step) => `${step.node}:${step.guard?.reason}`)).toEqual(local.trace.steps.map((step) => `${step.node}:${step.guard?.reason}`));
    expect(local.trace.steps.at(-1)).toMatchObject({ node: 'ask', guard: { reason: 'max_steps' } });
  });
});

describe('a node breakpoint, set in the page', () => {
  it('stops a run of a Loopscope export on a server before the node, as it stops the run in the page', async () => {
    const { local, server } = await bothExecutors(findTemplate('approval-gate')!.graph());
    const rules = { breakpoints: { nodes: ['apply'], edges: [], conditions: [] } };
    for (const run of [local, server]) await ask(run, { type: 'run', rules });
    expect(local.session).toMatchObject({ status: 'paused', pending: null });
    expect(server.session).toEqual(local.session);
    expect([local.next, server.next]).toEqual(['apply', 'apply']);
    expect(server.trace.steps.map((step) => step.node)).toEqual(['draft']);
    // Continue goes past it, to the approval the page's run asks too.
    for (const run of [local, server]) await ask(run, { type: 'run', rules });
    expect(server.session).toEqual(local.session);
    expect(local.session).toMatchObject({ status: 'awaiting_approval', pending: { node: 'ask' } });
  });

  it('stops a new run on the server (New run on server) there too', async () => {
    const { server } = await bothExecutors(findTemplate('approval-gate')!.graph());
    await server.startRun({}, ['apply']);
    expect(server.session).toMatchObject({ status: 'paused', pending: null });
    expect(server.next).toBe('apply');
  });
});

describe('the two executors', () => {
  it('call into no store: the run in the page tells its listeners, the server\'s run its connection and its listeners', () => {
    for (const file of ['../runtime/run.ts', './serverRun.ts']) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/\buse(App|Server)\b|\/store\/|from 'zustand'/);
    }
  });
});
