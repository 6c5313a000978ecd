import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import { withoutTimings } from '../runtime/testing.ts';
import { useApp } from '../store/index.ts';
import { restoreRunSession, startRunSessionSaving, type RunSessionStorage } from './runSessions.ts';
import { useRunSessions } from './runSessionStatus.ts';

/** An in-memory store that copies what it keeps, as IndexedDB's structured clone does. */
const fakeStorage = () => {
  const headers = new Map<string, unknown>();
  /** By `session/run/seq`, the body at seq -1. */
  const journals = new Map<string, unknown>();
  const copy = <T,>(value: T): T => structuredClone(value);
  const seqOf = (id: string) => Number(id.split('/')[2]);
  const written = { bodies: 0 };
  const storage: RunSessionStorage = {
    read: async (key) => {
      const header = headers.get(key) as { runs: { id: number }[] } | undefined;
      if (!header) return undefined;
      const bodies = new Map<number, unknown>();
      const byRun = new Map<number, unknown[]>();
      for (const run of header.runs) {
        const entries = [...journals.entries()].filter(([id]) => id.startsWith(`${key}/${run.id}/`)).sort(([a], [b]) => seqOf(a) - seqOf(b));
        bodies.set(run.id, copy(entries.find(([id]) => seqOf(id) === -1)?.[1]));
        byRun.set(run.id, entries.filter(([id]) => seqOf(id) >= 0).map(([, entry]) => copy(entry)));
      }
      return { header: copy(header), bodies, journals: byRun };
    },
    write: async (key, { header, bodies, appends, dropped }) => {
      for (const run of dropped) for (const id of journals.keys()) if (id.startsWith(`${key}/${run}/`)) journals.delete(id);
      for (const { run, body } of bodies) {
        written.bodies += 1;
        journals.set(`${key}/${run}/-1`, copy(body));
      }
      for (const { run, from, entries } of appends) entries.forEach((entry, index) => journals.set(`${key}/${run}/${from + index}`, copy(entry)));
      headers.set(key, copy(header));
    },
  };
  return { storage, headers, journals, written };
};

const securityclaw = () => findTemplate('securityclaw')!.graph();
const target = new EventTarget() as unknown as Window;
let stopSaving: () => void = () => {};

beforeEach(() => {
  useApp.getState().reset();
  useApp.setState({ breakpoints: { nodes: [], edges: [], conditions: [] }, seed: 1, scenarioChoices: new Map(), speedMs: 0 });
  useApp.getState().load(securityclaw());
  useRunSessions.setState({ error: null });
});
afterEach(() => stopSaving());

describe('the run session in storage', () => {
  it('a reload shows the same runs and Step continues from the last checkpoint to the same end', async () => {
    const { storage, written } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    for (let step = 0; step < 3; step += 1) {
      await useApp.getState().step();
      await saving.flush();
    }
    // The graph is stored once with its run; each step appends to the journal.
    expect(written.bodies).toBe(1);
    const before = useApp.getState().runs[0];
    saving.stop();

    // The reload: a fresh screen with the same graph of the library, then its stored session.
    const graphId = useApp.getState().documentId;
    useApp.getState().reset();
    useApp.getState().openDocument(securityclaw(), graphId);
    expect(await restoreRunSession(storage)).toBe(true);
    let state = useApp.getState();
    expect(state.runs.map((run) => [run.label, run.stepCount])).toEqual([['Run 1', 3]]);
    expect(state.runs[0].trace.steps).toEqual(before.trace.steps);
    expect(state.runStatus).toBe('paused');
    await expect.poll(() => useApp.getState().stateAfterSelected).toMatchObject({ steps: 3, evaluation: { reason: 'empty_result' } });

    await useApp.getState().step();
    expect(useApp.getState().runs[0].trace.steps.at(-1)).toMatchObject({ step: 4, node: 'recover' });
    await useApp.getState().continueRun();
    state = useApp.getState();
    expect(state.runs).toHaveLength(1);
    const expected = await runGraph(securityclaw(), { compact: true });
    expect(withoutTimings(state.runs[0].trace)).toEqual(withoutTimings(expected));
  });

  it('a save waits, after its delay, for the page to have drawn what changed and to be idle', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
    try {
      const { storage, written } = fakeStorage();
      const saving = startRunSessionSaving(storage, { delayMs: 1, target });
      stopSaving = saving.stop;
      await useApp.getState().step();
      await expect.poll(() => idle.length).toBe(1);
      expect(written.bodies).toBe(0);
      idle.shift()!();
      await expect.poll(() => written.bodies).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('while an Instant run runs its changes wait: stored when it stops, or at once when the page goes', async () => {
    const { storage } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    await useApp.getState().step();
    await saving.flush();
    const writes = vi.spyOn(storage, 'write');
    // Nothing to wait for but time: the clock is moved past when a save would have been written.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'requestIdleCallback'] });
    try {
      useApp.setState({ runStatus: 'running', speedMs: 0 });
      useApp.setState({ selectedStep: 0 });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(writes).not.toHaveBeenCalled();
      target.dispatchEvent(new Event('pagehide'));
      await vi.advanceTimersByTimeAsync(0);
      await expect.poll(() => writes.mock.calls.length).toBe(1);
      useApp.setState({ selectedStep: 1 });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(writes).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
    useApp.setState({ runStatus: 'stopped' });
    await expect.poll(() => writes.mock.calls.length).toBe(2);
    expect(writes.mock.calls[1][1].header.selectedStep).toBe(1);
  });

  it('a fork comes back with its parent, and the journals of runs no longer shown are forgotten', async () => {
    const { storage, journals } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    await useApp.getState().run();
    await useApp.getState().fork(1, { nextResults: { search_events: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }] } });
    await saving.flush();
    saving.stop();
    const graphId = useApp.getState().documentId;
    useApp.getState().reset();
    useApp.getState().openDocument(securityclaw(), graphId);
    await restoreRunSession(storage);
    const state = useApp.getState();
    expect(state.runs.map((run) => run.label)).toEqual(['Run 1', 'Run 2 (fork of run 1 at step 1)']);
    expect(state.runs[1].trace.forkedFrom).toEqual({ step: 1, edited: [], overridden: ['search_events'] });
    expect(state.runs[1].trace.steps.map((step) => step.fired?.id ?? null)).toEqual(['e1', 'e2', 'e3', null]);

    const again = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = again.stop;
    useApp.getState().reset();
    await again.flush();
    expect(journals.size).toBe(0);
  });

  it('a run shown from its trace (a scenario\'s) comes back after a reload as it was, and cannot be forked', async () => {
    const { storage } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    const trace = await runGraph(securityclaw(), { compact: true });
    useApp.getState().loadTrace(trace, { label: 'scenario "happy path" (passed)', graph: securityclaw() });
    await saving.flush();
    saving.stop();
    const graphId = useApp.getState().documentId;
    useApp.getState().reset();
    useApp.getState().openDocument(securityclaw(), graphId);
    expect(await restoreRunSession(storage)).toBe(true);
    const [run] = useApp.getState().runs;
    expect(run).toMatchObject({ label: 'Run 1: scenario "happy path" (passed)', imported: true });
    expect(run.trace.steps).toEqual(trace.steps);
  });

  it('an imported trace file is stored as the file, with no copy of its steps, and read again after a reload', async () => {
    const { storage, journals } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    const trace = await runGraph(securityclaw(), { compact: true });
    const file = new Blob([JSON.stringify(trace)]);
    useApp.getState().loadTrace(trace, { graph: securityclaw(), file });
    await saving.flush();
    saving.stop();
    const graphId = useApp.getState().documentId;
    expect(Object.keys(journals.get(`${graphId}/1/-1`) as object)).toEqual(['graph', 'file']);
    useApp.getState().reset();
    useApp.getState().openDocument(securityclaw(), graphId);
    expect(await restoreRunSession(storage)).toBe(true);
    expect(useApp.getState().runs[0].trace.steps).toEqual(JSON.parse(JSON.stringify(trace.steps)));
    // A file that no longer reads as a trace is named.
    journals.set(`${graphId}/1/-1`, { graph: securityclaw(), file: new Blob(['{"format": "loopscope/trace"']) });
    useApp.getState().reset();
    useApp.getState().openDocument(securityclaw(), graphId);
    expect(await restoreRunSession(storage)).toBe(false);
    expect(useRunSessions.getState().error).toMatch(/damaged.*runs\[0\]\.file: not JSON/);
  });

  it('a trace imported with its own graph is stored under that graph, though it came while the runs switched to it', async () => {
    const { storage } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    const graph = findTemplate('approval-gate')!.graph();
    const trace = await runGraph(graph, { compact: true });
    // As Import trace does: the graph opens, and the run comes in the same task.
    useApp.getState().load(graph);
    useApp.getState().loadTrace(trace, { graph, file: new Blob([JSON.stringify(trace)]) });
    const graphId = useApp.getState().documentId;
    await expect.poll(async () => ((await storage.read(graphId))?.header as { runs: unknown[] } | undefined)?.runs.length).toBe(1);
    saving.stop();
    useApp.getState().reset();
    useApp.getState().openDocument(graph, graphId);
    expect(await restoreRunSession(storage)).toBe(true);
    expect(useApp.getState().runs[0].trace.steps).toEqual(JSON.parse(JSON.stringify(trace.steps)));
  });

  it('a damaged session is not shown, and says why', async () => {
    const { storage, headers, journals } = fakeStorage();
    const graphId = useApp.getState().documentId;
    headers.set(graphId, { version: 1, runs: [{ id: 1, label: 'Run 1', journalLength: 0 }], activeRunId: 1, liveRunId: 1, selectedStep: null });
    journals.set(`${graphId}/1/-1`, { graph: {} });
    expect(await restoreRunSession(storage)).toBe(false);
    expect(useRunSessions.getState().error).toMatch(/damaged.*runs\[0\]\.graph/);
    expect(useApp.getState().runs).toEqual([]);
  });

  it('each graph of the library has its own runs: opening another shows its runs, coming back shows the first one\'s', async () => {
    const { storage } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    const first = { id: useApp.getState().documentId, graph: useApp.getState().graph };
    await useApp.getState().step();
    await saving.flush();

    useApp.getState().load(findTemplate('approval-gate')!.graph());
    await expect.poll(() => useApp.getState().runs.length).toBe(0);
    await useApp.getState().run();
    await saving.flush();
    expect(useApp.getState().runs).toHaveLength(1);

    useApp.getState().openDocument(first.graph, first.id);
    await expect.poll(() => useApp.getState().runs.map((run) => run.stepCount)).toEqual([1]);
    expect(useApp.getState().runs[0].graph.name).toBe(first.graph.name);
  });

  it('breakpoints come back with the run session after a reload, and each graph keeps its own', async () => {
    const { storage } = fakeStorage();
    const saving = startRunSessionSaving(storage, { delayMs: 1, target });
    stopSaving = saving.stop;
    const first = { id: useApp.getState().documentId, graph: useApp.getState().graph };
    useApp.getState().toggleNodeBreakpoint('recover');
    useApp.getState().toggleEdgeBreakpoint('e4');
    useApp.getState().addCondition({ type: 'round', round: 2 });
    await useApp.getState().step();
    await saving.flush();

    // Another graph has none of them; coming back brings them back.
    useApp.getState().load(findTemplate('approval-gate')!.graph());
    await expect.poll(() => useApp.getState().breakpoints).toEqual({ nodes: [], edges: [], conditions: [] });
    useApp.getState().toggleNodeBreakpoint('approve');
    await saving.flush();
    useApp.getState().openDocument(first.graph, first.id);
    await expect.poll(() => useApp.getState().breakpoints).toEqual({ nodes: ['recover'], edges: ['e4'], conditions: [{ type: 'round', round: 2 }] });
    saving.stop();

    // The reload: a fresh screen, with none set, then the stored session.
    useApp.getState().reset();
    useApp.setState({ breakpoints: { nodes: [], edges: [], conditions: [] } });
    useApp.getState().openDocument(securityclaw(), first.id);
    expect(await restoreRunSession(storage)).toBe(true);
    expect(useApp.getState().breakpoints).toEqual({ nodes: ['recover'], edges: ['e4'], conditions: [{ type: 'round', round: 2 }] });
    // And the restored run pauses at them: before recover.
    await useApp.getState().continueRun();
    expect(useApp.getState().pausedBy).toBe('breakpoint on node recover: paused before it runs');
  });
});
