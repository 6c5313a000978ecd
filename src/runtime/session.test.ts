import { describe, expect, it, vi } from 'vitest';
import { blankGraph, type GraphFile } from '../graph/index.ts';
import type { PendingApproval, RunEvent, RunStatus } from './controller.ts';
import { FIXTURES } from './fixtures/index.ts';
import type { PauseRules } from './pauseRules.ts';
import { createController } from './run.ts';
import { approvalAt, approvalNodes, ask, callsOf, nextStatus, startingStatus, startSession, stopsBefore, type RunStatusEvent, goPastFreshThread, STEP_CALLS, tellEach, toldBy, transition, withDecision, type Command, type RunSession, type SessionEvent, type StreamCall } from './session.ts';

const ASKED: PendingApproval = { node: 'gate', prompt: 'Allow delete to run?' };
const at = (status: RunStatus, more: Partial<RunSession> = {}): RunSession => ({ status, pending: status === 'awaiting_approval' ? ASKED : null, pausedBy: null, ...more });
const told = (event: SessionEvent, from: RunSession) => toldBy(transition(from, event).effects);

describe('transition(session, event): the run session as a value', () => {
  it('a Run starts from idle or paused: running, told, and the last pause reason forgotten', () => {
    for (const status of ['idle', 'paused'] as const) {
      const { session, effects } = transition(at(status, { pausedBy: 'breakpoint on node b' }), { type: 'run_started' });
      expect(session).toEqual({ status: 'running', pending: null, pausedBy: null });
      expect(effects).toEqual([{ type: 'tell', event: { type: 'status', status: 'running' } }]);
    }
  });

  it('a pause from running tells the status, and the reason a pause rule gave as its own event', () => {
    const { session, effects } = transition(at('running'), { type: 'paused', by: 'breakpoint on edge e1: it fired' });
    expect(session).toEqual({ status: 'paused', pending: null, pausedBy: 'breakpoint on edge e1: it fired' });
    expect(toldBy(effects)).toEqual([{ type: 'status', status: 'paused' }, { type: 'paused', reason: 'breakpoint on edge e1: it fired' }]);
  });

  it('a pause with the status unchanged (a fork held at once) still tells its reason, and a Step that pauses again tells nothing', () => {
    expect(told({ type: 'paused', by: 'round 2' }, at('paused'))).toEqual([{ type: 'paused', reason: 'round 2' }]);
    expect(told({ type: 'paused' }, at('paused'))).toEqual([]);
  });

  it('an approval asked holds the question and tells it, each time it is asked', () => {
    const { session, effects } = transition(at('running'), { type: 'approval_asked', pending: ASKED });
    expect(session).toEqual({ status: 'awaiting_approval', pending: ASKED, pausedBy: null });
    expect(toldBy(effects)).toEqual([{ type: 'status', status: 'awaiting_approval' }, { type: 'approval', pending: ASKED }]);
    expect(told({ type: 'approval_asked', pending: ASKED }, session)).toEqual([{ type: 'approval', pending: ASKED }]);
  });

  it('a decision answers a pending approval: paused, the question gone; with none pending it changes nothing', () => {
    expect(transition(at('awaiting_approval'), { type: 'decided' })).toEqual({ session: at('paused'), effects: [{ type: 'tell', event: { type: 'status', status: 'paused' } }] });
    expect(transition(at('paused'), { type: 'decided' })).toEqual({ session: at('paused'), effects: [] });
  });

  it('a stop ends the run from any status, dropping the question; a stopped run stays stopped', () => {
    for (const status of ['idle', 'running', 'paused', 'awaiting_approval'] as const) expect(transition(at(status), { type: 'stopped' }).session).toEqual(at('stopped'));
    for (const event of [{ type: 'run_started' }, { type: 'paused', by: 'x' }, { type: 'approval_asked', pending: ASKED }, { type: 'decided' }, { type: 'stopped' }] satisfies SessionEvent[])
      expect(transition(at('stopped'), event)).toEqual({ session: at('stopped'), effects: [] });
  });

  it("a server thread read stands where the thread does, after an end too (a fork or a new thread goes on)", () => {
    const read = (thread: Extract<SessionEvent, { type: 'thread_read' }>['thread']) => transition(at('stopped'), { type: 'thread_read', thread }).session.status;
    expect(read(null)).toBe('idle');
    expect(read({ busy: true, ended: false, pending: null })).toBe('running');
    expect(read({ busy: false, ended: true, pending: ASKED })).toBe('stopped');
    expect(read({ busy: false, ended: false, pending: null })).toBe('paused');
    expect(told({ type: 'thread_read', thread: { busy: false, ended: false, pending: ASKED } }, at('running'))).toEqual([{ type: 'status', status: 'awaiting_approval' }, { type: 'approval', pending: ASKED }]);
    expect(told({ type: 'thread_read', thread: { busy: false, ended: false, pending: ASKED } }, at('awaiting_approval'))).toEqual([]);
  });

  it('a closed connection stops its run once', () => {
    expect(told({ type: 'disconnected' }, at('paused'))).toEqual([{ type: 'status', status: 'stopped' }]);
    expect(told({ type: 'disconnected' }, at('stopped'))).toEqual([]);
  });

  it("a person's command names the executor's calls as effects: an answer goes on at once, a Pause only stops a running run", () => {
    const calls = (status: RunStatus, command: Command) => transition(at(status, { pausedBy: 'why' }), { type: 'asked', command });
    expect(calls('awaiting_approval', { type: 'decide', decision: 'denied' })).toEqual({
      session: at('awaiting_approval', { pausedBy: 'why' }),
      effects: [{ type: 'call', command: { type: 'decide', decision: 'denied' } }, { type: 'call', command: { type: 'run' } }],
    });
    // The command leaves the session as it is: the run moves it as it does the calls.
    expect(calls('paused', { type: 'run' }).session).toEqual(at('paused', { pausedBy: 'why' }));
    expect(calls('running', { type: 'pause' }).effects).toEqual([{ type: 'call', command: { type: 'pause' } }]);
    expect(calls('paused', { type: 'pause' })).toEqual({ session: at('paused', { pausedBy: 'why' }), effects: [] });
  });

  it('a command carries its pause rules as data, through an answer to the Run it goes on with', () => {
    const rules: PauseRules = { breakpoints: { nodes: ['gate'], edges: ['e2'], conditions: [{ type: 'round', round: 3 }] }, stepDelayMs: 150 };
    expect(transition(at('paused'), { type: 'asked', command: { type: 'run', rules } }).effects).toEqual([{ type: 'call', command: { type: 'run', rules } }]);
    expect(transition(at('awaiting_approval'), { type: 'asked', command: { type: 'decide', decision: 'approved', rules } }).effects).toEqual([
      { type: 'call', command: { type: 'decide', decision: 'approved' } },
      { type: 'call', command: { type: 'run', rules } },
    ]);
  });

  it('a Run started, a Step come back, the run stopped: each moves the status once and tells it once', () => {
    let session = at('idle');
    const statuses: RunEvent[] = [];
    for (const event of [{ type: 'run_started' }, { type: 'run_started' }, { type: 'paused', by: 'round 2' }, { type: 'paused' }, { type: 'stopped' }, { type: 'run_started' }] satisfies SessionEvent[]) {
      const next = transition(session, event);
      session = next.session;
      statuses.push(...toldBy(next.effects));
    }
    expect(statuses).toEqual([{ type: 'status', status: 'running' }, { type: 'status', status: 'paused' }, { type: 'paused', reason: 'round 2' }, { type: 'status', status: 'stopped' }]);
    expect(session).toEqual(at('stopped'));
  });

  it('a session starts holding a question only when it awaits one', () => {
    expect(startSession('paused', ASKED)).toEqual(at('paused'));
    expect(startSession('awaiting_approval', ASKED)).toEqual(at('awaiting_approval'));
  });
});

describe('what both executors share', () => {
  it('tellEach tells every listener, each once, though one unsubscribes while told', () => {
    const heard: string[] = [];
    const listeners = new Set<(event: RunEvent) => void>();
    const first = () => {
      heard.push('first');
      listeners.delete(second);
    };
    const second = () => heard.push('second');
    listeners.add(first).add(second);
    tellEach(listeners, { type: 'status', status: 'paused' });
    expect(heard).toEqual(['first', 'second']);
  });

  it('withDecision writes the answer into the ledger and keeps the rest of it', () => {
    expect(withDecision({ step: 3, decision: null }, 'denied')).toEqual({ step: 3, decision: 'denied' });
  });

  const graph: GraphFile = {
    ...blankGraph(),
    permissions: { ...blankGraph().permissions, mode: 'read-only' },
    nodes: [
      { id: 'gate', kind: 'approve', config: {} },
      { id: 'asked', kind: 'approve', config: { prompt: 'Ship it?' } },
      { id: 'reply', kind: 'respond', config: {} },
    ] as unknown as GraphFile['nodes'],
  };

  it('the approval list: the nodes that ask a person, of those compiled', () => {
    expect(approvalNodes(graph, new Map([['gate', 'gate'], ['reply', 'reply']]))).toEqual(['gate']);
  });

  it('the nodes a Run stops before, by LangGraph name: breakpoints and the nodes that ask a person, once each, but the one just answered', () => {
    const names = new Map([['gate', 'n_gate'], ['asked', 'asked'], ['reply', 'reply']]);
    expect(stopsBefore(graph, names, { breakpoints: ['reply', 'gate', 'gone'] })).toEqual(['reply', 'n_gate', 'asked']);
    expect(stopsBefore(graph, names, { answered: 'n_gate' })).toEqual(['asked']);
    expect(stopsBefore(graph, names, { breakpoints: ['reply'], asks: false })).toEqual(['reply']);
  });

  it('one wording of the question: the node prompt, else the refused action', () => {
    expect(approvalAt(graph, 'asked', {}).prompt).toBe('Ship it?');
    expect(approvalAt(graph, 'gate', {})).toEqual({ node: 'gate', prompt: 'Allow the action to run?', reason: undefined });
    expect(approvalAt(graph, 'gate', { results: [{ outcome: 'permission_denied', skill: 'delete', args: { id: 1 } }] })).toEqual({
      node: 'gate', prompt: 'Allow delete to run?', skill: 'delete', args: { id: 1 }, reason: 'delete was refused by the permission check (read-only)',
    });
  });

  it('a Step or Run streams again past a fresh thread’s first stop, until done or STEP_CALLS idle calls; a call cut short is not counted', async () => {
    const calls: number[] = [];
    await goPastFreshThread(async (call) => (calls.push(call) === 2 ? 'done' : 'idle'));
    expect(calls).toEqual([0, 1]);
    calls.length = 0;
    await goPastFreshThread(async (call) => (calls.push(call), 'idle'));
    expect(calls).toHaveLength(STEP_CALLS);
    calls.length = 0;
    const came: StreamCall[] = ['more', 'idle', 'more', 'more', 'idle', 'idle', 'done'];
    await goPastFreshThread(async (call) => (calls.push(call), came[calls.length - 1]));
    expect(calls).toEqual([0, 0, 1, 1, 1, 2]);
  });
});

describe('a run in the page, driven through its session', () => {
  it('tells why a pause rule held it as a `paused` event, and writes nowhere else (the runtime never calls into its driver to say so)', async () => {
    const controller = createController(FIXTURES.twoActions());
    const told: RunEvent[] = [];
    controller.subscribe((event) => told.push(event));
    await controller.run({ breakpoints: { nodes: [], edges: ['e1'], conditions: [] } });
    expect(controller.session.status).toBe('paused');
    expect(controller.trace.steps).toHaveLength(1);
    expect(told.filter((event) => event.type === 'status' || event.type === 'paused')).toEqual([
      { type: 'status', status: 'running' },
      { type: 'status', status: 'paused' },
      { type: 'paused', reason: expect.stringMatching(/^breakpoint on edge e1: it fired/) },
    ]);
  });
});

describe('ask(run, command): the store carries out the session\'s calls against the executor', () => {
  it('calls pause() only on a running run', async () => {
    const controller = createController(FIXTURES.twoActions());
    const pause = vi.spyOn(controller, 'pause');
    expect(callsOf(controller, { type: 'pause' })).toEqual([]);
    await ask(controller, { type: 'pause' });
    expect(pause).not.toHaveBeenCalled();
  });

  it("reads the run's one session, which the run moves: no session is made for the command", async () => {
    const controller = createController(FIXTURES.twoActions());
    const before = controller.session;
    // A Step is the one call step(), which moves the run's own session.
    await controller.step();
    expect(controller.session).not.toBe(before);
    expect(controller.session).toEqual({ status: 'paused', pending: null, pausedBy: null });
    // A Run's rules are the command's data: the run pauses where they say and tells why.
    await ask(controller, { type: 'run', rules: { breakpoints: { nodes: ['check'], edges: [], conditions: [] }, stepDelayMs: 1 } });
    expect(controller.next).toBe('check');
    expect(controller.session.status).toBe('paused');
  });
});

const ALL: RunStatus[] = ['idle', 'running', 'paused', 'awaiting_approval', 'stopped'];
const after = (status: RunStatus, ...events: RunStatusEvent['type'][]) => events.reduce((current, type) => nextStatus(current, { type } as RunStatusEvent), status);

describe('startingStatus', () => {
  it('is idle for a fresh run, paused for one that ran, and says so first when stopped or awaiting a person', () => {
    expect(startingStatus({ stopped: false, awaitingApproval: false, stepsRan: 0 })).toBe('idle');
    expect(startingStatus({ stopped: false, awaitingApproval: false, stepsRan: 3 })).toBe('paused');
    expect(startingStatus({ stopped: false, awaitingApproval: true, stepsRan: 3 })).toBe('awaiting_approval');
    expect(startingStatus({ stopped: true, awaitingApproval: true, stepsRan: 0 })).toBe('stopped');
  });
});

describe('nextStatus', () => {
  it('follows a Run to a breakpoint, an approval, an answer and the end', () => {
    expect(after('idle', 'run_started')).toBe('running');
    expect(after('idle', 'run_started', 'paused')).toBe('paused');
    expect(after('paused', 'run_started', 'approval_asked')).toBe('awaiting_approval');
    expect(after('paused', 'run_started', 'approval_asked', 'decided')).toBe('paused');
    expect(after('paused', 'run_started', 'stopped')).toBe('stopped');
  });

  it('a Step from idle leaves the run paused', () => {
    expect(after('idle', 'paused')).toBe('paused');
  });

  it('only a pending approval is answered', () => {
    for (const status of ['idle', 'running', 'paused'] as const) expect(nextStatus(status, { type: 'decided' })).toBe(status);
  });

  it('a stopped run stays stopped whatever comes after', () => {
    for (const type of ['run_started', 'paused', 'approval_asked', 'decided', 'stopped'] as const) expect(nextStatus('stopped', { type })).toBe('stopped');
  });

  it('any run that has not stopped can stop', () => {
    for (const status of ALL) expect(nextStatus(status, { type: 'stopped' })).toBe('stopped');
  });
});
