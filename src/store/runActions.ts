/**
 * What drives and shows runs: Run, Step, Continue, forks, imported traces, the step shown and its
 * state. It loads with the debugger's panels and the session store (runSlice.ts keeps the stand-ins
 * until then) and, once loaded, puts these actions in the store.
 */
import { sameBehaviour } from '../graph/behaviour.ts';
import type { GraphFile } from '../graph/schema.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { isLocalRun, isUnsupported, type PendingApproval, type RunController, type RunEvent, type RunOptions, type RunStatus, type StepStates } from '../runtime/controller.ts';
import { putStep } from '../runtime/journal.ts';
import { pauseBeforeReason, type PauseRules } from '../runtime/pauseRules.ts';
import { ask, callsOf } from '../runtime/session.ts';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { traceIndex, visitCounts } from '../runtime/traceIndex.ts';
import { afterDrawing } from './afterDrawing.ts';
import type { RunNetwork } from '../network/hosts.ts';
import { keepUnchanged, NO_ACTIVITY, nodeStatusesFor, type LiveActivity } from './nodeStatus.ts';
import { runRegistry, type RunRegistry } from './runRegistry.ts';
import { loadRuntime, runtimeIfLoaded } from './runtimeLoader.ts';
import type { CanvasOverlay, RunActionName, RunRecord, RunSlice, SavedRuns } from './runSlice.ts';
import type { AppState, GetApp, SetApp } from './types.ts';

/**
 * A run in the page as it told the store: read once when it becomes the live run, then moved by its
 * events alone (a step event carries where the run stands after it), so a Step reads nothing back
 * from the run.
 */
interface HeardRun {
  trace: Omit<Trace, 'steps'>;
  /** The store's own copy of the run's steps, each step event put in it. */
  steps: TraceStep[];
  status: RunStatus;
  next: string | null;
  pendingApproval: PendingApproval | null;
}

/** Where `run` stands, read from it: what the store keeps of a run it hears, and all it knows of a server's thread. */
const standingOf = (run: RunController): Pick<HeardRun, 'status' | 'next' | 'pendingApproval'> => ({ status: run.session.status, next: run.next, pendingApproval: run.session.pending });

const heardOf = (run: RunController): HeardRun => {
  const { steps, ...trace } = run.trace;
  return { trace, steps, ...standingOf(run) };
};

/** What `event` changes of a run as heard. */
const hear = (heard: HeardRun, event: RunEvent) => {
  if (event.type === 'step') {
    putStep(heard.steps, event.step);
    if (event.run) {
      heard.trace = event.run.trace;
      heard.next = event.run.next;
    }
  } else if (event.type === 'status') {
    heard.status = event.status;
    if (event.status !== 'awaiting_approval') heard.pendingApproval = null;
  } else if (event.type === 'approval') heard.pendingApproval = event.pending;
  else if (event.type === 'stopped') {
    const { steps, ...trace } = event.trace;
    Object.assign(heard, { trace, steps: [...steps], next: null });
  }
};

/** The page's registry, for the store to hand to its run actions. */
export { runRegistry };

type Runtime = typeof import('../runtime/index.ts');

/** Resolves once the page has drawn a frame (at once where nothing draws frames: tests, workers). */
const afterPaint = () => new Promise<void>((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(resolve)) : resolve()));

/** Runs `then` in the frame after the next one (at once where nothing draws frames: tests, workers). */
const afterNextFrame = (then: () => void) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => requestAnimationFrame(then)) : then());

type Visits = ReturnType<typeof visitCounts>;
/** The visit counts of a run's first steps (as shown while it goes on), counted once for each count. */
const countedVisits = new WeakMap<readonly TraceStep[], { count: number; visits: Visits }>();

/**
 * The visits of the first `count` steps: of all of them from the run's index, made once (an imported
 * trace's by the worker that read it); selecting a step does no pass over the run.
 */
export const visitsOf = (steps: readonly TraceStep[], count: number): Visits => {
  if (count === steps.length) {
    const { nodeVisits, edgeVisits } = traceIndex(steps);
    return { nodeVisits, edgeVisits };
  }
  const counted = countedVisits.get(steps);
  if (counted?.count === count) return counted.visits;
  const visits = visitCounts(steps.slice(0, count));
  countedVisits.set(steps, { count, visits });
  return visits;
};

/** What the canvas shows of the run's first `count` steps with step `stepNumber` selected. */
export const overlayFor = (steps: readonly TraceStep[], stepNumber: number | null, count = steps.length): CanvasOverlay => {
  const step = stepNumber === null || stepNumber > count ? undefined : steps[stepNumber - 1];
  const triedEdges: Record<string, string> = Object.create(null);
  for (const edge of step?.edges ?? []) if (!edge.matched && !edge.skipped) triedEdges[edge.id] = storedWords(edge);
  return {
    currentNode: step?.node ?? null,
    firedEdge: step?.fired?.id ?? null,
    firedReason: step?.fired ? storedWords(step.fired) : null,
    triedEdges,
    ...visitsOf(steps, count),
  };
};

/** The longest the runtime's first load waits for the page to be idle (an imported trace's step state waits for it). */
const RUNTIME_WAITS_AT_MOST_MS = 300;

/**
 * The runtime's first load for a step's state (an imported trace's first screen comes before it has
 * loaded) waits for the page's first idle time: fetching and compiling LangGraph are tasks of their
 * own, and they held back the frames just after the trace's timeline by some 20 ms (harness).
 */
const idleThenLoadRuntime = () => new Promise<void>((resolve) => afterDrawing(resolve, RUNTIME_WAITS_AT_MOST_MS)).then(loadRuntime);

const MAX_RUNS = 12;
const LIVE_REDRAW_MS = 250;
/**
 * An Instant run makes steps faster than the page can draw them. Drawing its timeline, visit counts
 * and rounds costs time in proportion to its steps, so the redraws are spaced in proportion too
 * (this many ms per step shown, LIVE_REDRAW_MS at least): their share of the run stays bounded
 * however long it goes, and a slow run (a real call a step) is still drawn as it goes.
 */
const REDRAW_MS_PER_STEP = 1;
export const liveRedrawSpacing = (stepsShown: number) => Math.max(LIVE_REDRAW_MS, stepsShown * REDRAW_MS_PER_STEP);

/** The open graph's scenario for its next run: its own choice, while the graph still has a scenario of that name. */
export const chosenScenario = (state: Pick<AppState, 'scenarioChoices' | 'documentId' | 'graph'>): string | null => {
  const name = state.scenarioChoices.get(state.documentId);
  return name !== undefined && state.graph.scenarios.some((scenario) => scenario.name === name) ? name : null;
};

/** The runs on screen with their journals, for the session store. */
export const savedRuns = (state: Pick<RunSlice, 'runs' | 'activeRunId' | 'liveRunId' | 'selectedStep'>, registry: RunRegistry = runRegistry): SavedRuns => ({
  runs: state.runs.map(({ trace, stepCount: _shown, ...record }) => {
    const controller = registry.get(record.id);
    return controller && isLocalRun(controller) ? { ...record, journal: [...controller.journal], ...(trace.forkedFrom ? { forkedFrom: trace.forkedFrom } : {}) } : { ...record, trace };
  }),
  activeRunId: state.activeRunId,
  liveRunId: state.liveRunId,
  selectedStep: state.selectedStep,
});

/** How long a run's journal is, to store only what is new. */
export const journalLength = (runId: number, registry: RunRegistry = runRegistry) => {
  const controller = registry.get(runId);
  return controller && isLocalRun(controller) ? controller.journal.length : 0;
};

/** The store's run actions, driving the controllers `registry` holds. */
export const createRunActions = (set: SetApp, get: GetApp, registry: RunRegistry): Pick<RunSlice, RunActionName> => {
  let unsubscribe: (() => void) | null = null;
  /** Each selection reads its states asynchronously; only the latest one is shown. */
  let selection = 0;
  /** The attempts of the node in flight, shown with the next redraw. */
  let inFlight: RunSlice['inFlight'] = null;
  /** A Step is in flight (the controller's status stays `paused` through one). */
  let stepping = false;
  /** The states around the last step a live run told of, as it told them: showing that step reads nothing back from the run. */
  let told: { controller: RunController; step: number; states: StepStates } | null = null;
  /** The last step the live run told of, and whether it is yet to be told. */
  let liveStep = 0;
  let stepsToTell = false;
  /** The live run when it is a run in the page, as it told the store; null for a server's thread, which is read again at each read of it (`followRun`). */
  let heard: HeardRun | null = null;
  /** Where the live run stands: as heard, or a server's thread as read last. */
  const liveNow = (): Pick<HeardRun, 'status' | 'next' | 'pendingApproval'> | null => heard ?? (registry.live ? standingOf(registry.live) : null);

  const updateRun = (id: number, change: Partial<RunRecord>) =>
    set((state) => ({ runs: state.runs.map((run) => (run.id === id ? { ...run, ...change } : run)) }));

  /** An imported trace's steps carry no states: they are replayed over the graph's initial state. */
  const stateFromTrace = (runtime: Runtime, run: RunRecord, stepNumber: number) => {
    try {
      return runtime.stateAfterStep(run.trace, stepNumber, runtime.initialState(run.graph));
    } catch {
      return null;
    }
  };

  /**
   * A run's state after a step: from its checkpoints, or replayed from the trace it is kept as (a
   * server's thread too: its checkpoints would cost a history request for each step picked).
   */
  const stateOf = async (runtime: Runtime, run: RunRecord, stepNumber: number) => {
    const source = registry.get(run.id);
    return source && !run.imported ? source.stateAt(stepNumber) : stateFromTrace(runtime, run, stepNumber);
  };

  /** The states around the selected step. */
  const readStates = async (runtime: Runtime, run: RunRecord, stepNumber: number) => {
    const [after, before] = await Promise.all([stateOf(runtime, run, stepNumber), stepNumber > 0 ? stateOf(runtime, run, stepNumber - 1) : null]);
    return { after, before };
  };

  /** What the live run does now, when it is the run shown. */
  const liveActivity = (): LiveActivity => {
    const { activeRunId, liveRunId } = get();
    const live = liveNow();
    if (!live || activeRunId === null || activeRunId !== liveRunId) return NO_ACTIVITY;
    if (live.status === 'running' || stepping) {
      const running = inFlight?.node ?? live.next;
      return { running, attempts: inFlight?.node === running ? inFlight.attempts : [], next: null };
    }
    return { ...NO_ACTIVITY, next: live.status === 'stopped' ? null : live.next };
  };

  const paintStep = async () => {
    const { selectedStep, runs, activeRunId } = get();
    const run = runs.find((candidate) => candidate.id === activeRunId);
    // A step picked in the timeline shows the nodes as that step left them.
    const shown = run ? Math.min(run.stepCount, selectedStep ?? run.stepCount) : 0;
    const still = liveNow()?.status === 'running' && activeRunId === get().liveRunId && get().speedMs === 0;
    const states = run && told?.step === selectedStep && told.controller === registry.get(run.id) ? told.states : null;
    set((state) => ({
      overlay: run ? { ...overlayFor(run.trace.steps, selectedStep, run.stepCount), ...(still ? { still } : {}) } : null,
      nodeStatus: keepUnchanged(state.nodeStatus, run ? nodeStatusesFor(run.graph, run.trace.steps, liveActivity(), shown) : {}),
      ...(states ? { stateAfterSelected: states.after, stateBeforeSelected: states.before } : {}),
    }));
    const asked = (selection += 1);
    if (states) return;
    // The step's state is read after the canvas and the timeline have painted: it needs the runtime
    // (an imported trace's first screen may come before it has loaded), and rebuilding a late
    // step's state can take a while.
    await afterPaint();
    if (asked !== selection) return;
    const read = run && selectedStep !== null ? await readStates(runtimeIfLoaded() ?? (await idleThenLoadRuntime()), run, selectedStep) : { after: null, before: null };
    if (asked === selection) set({ stateAfterSelected: read.after, stateBeforeSelected: read.before });
  };

  const showStep = (stepNumber: number | null) => {
    set({ selectedStep: stepNumber });
    void paintStep();
  };

  /** What the last sync showed of the live run: a sync with nothing new leaves the step the person picked since. */
  let synced: { id: number; steps: number; status: string } | null = null;

  /** Copies the live run's progress, as heard (a server's thread: as read), into its run record and follows the last step. */
  const syncLive = () => {
    const id = get().liveRunId;
    const live = liveNow();
    if (!registry.live || !live || id === null) return;
    const trace = heard ? { ...heard.trace, steps: [...heard.steps] } : registry.live.trace;
    const { status } = live;
    const nothingNew = synced?.id === id && synced.steps === trace.steps.length && synced.status === status && get().activeRunId === id;
    synced = { id, steps: trace.steps.length, status };
    updateRun(id, { trace, stepCount: trace.steps.length });
    const running = status === 'running';
    set({ runStatus: status, pendingApproval: live.pendingApproval, activeRunId: id, inFlight: running ? inFlight : null, ...(running ? {} : { pauseAsked: false }) });
    if (nothingNew) void paintStep();
    else showStep(trace.steps.length > 0 ? trace.steps.length : null);
  };

  /**
   * Tells the live run's step count soon. Not at every frame: any change on screen has the page
   * lay out and paint again, which at 60 a second cost a long run more than its count is worth.
   */
  const tellSteps = (step: number) => {
    liveStep = step;
    if (stepsToTell) return;
    stepsToTell = true;
    setTimeout(() => {
      stepsToTell = false;
      set({ liveSteps: liveStep });
    }, LIVE_REDRAW_MS);
  };

  let pendingSync: ReturnType<typeof setTimeout> | null = null;
  const flushLive = () => {
    if (pendingSync !== null) clearTimeout(pendingSync);
    pendingSync = null;
    syncLive();
  };

  /** Lets go of the live run: it stays on screen, and can be picked up again where it is. */
  const release = () => {
    if (pendingSync !== null) clearTimeout(pendingSync);
    pendingSync = null;
    unsubscribe?.();
    unsubscribe = null;
    registry.live?.pause();
    registry.setLive(null);
    heard = null;
  };

  const addRun = (record: Omit<RunRecord, 'id'>, at?: number) => {
    const id = at ?? (get().runs.at(-1)?.id ?? 0) + 1;
    const runs = [...get().runs, { ...record, id }];
    for (const dropped of runs.slice(0, -MAX_RUNS)) registry.remove(dropped.id);
    set({ runs: runs.slice(-MAX_RUNS), activeRunId: id });
    return id;
  };

  /**
   * A run restored after a reload asks for its network (hosts, MCP servers, the grant) before it
   * goes on: its permission checks read what the person granted, and nothing was granted in this
   * page yet.
   */
  const askedLater = new WeakMap<RunController, () => Promise<void>>();
  const askFirst = async (controller: RunController | null) => {
    if (controller) await askedLater.get(controller)?.();
  };

  /** What every controller of this store is told: the hosts and keys it may use, and the mode the person granted. */
  const controlOptions = (network: RunNetwork, more: RunOptions = {}): RunOptions => ({
    ...network,
    ...more,
    // Read at each Run or Step (so never spread: a spread reads it once): a restored run's grant comes once the person is asked.
    get granted() {
      return network.granted;
    },
    compact: true,
  });

  /** Where a Run, Continue or answer may pause and how fast it goes, handed to the run as data with the command: the run reads nothing of the store. */
  const pauseRules = (untilNextRound = false): PauseRules => ({ breakpoints: get().breakpoints, stepDelayMs: get().speedMs, ...(untilNextRound ? { untilNextRound } : {}) });

  /** Makes `created` the live run: its events redraw the screen. */
  const attach = (id: number, created: RunController) => {
    release();
    registry.setLive(created);
    registry.register(id, created);
    const now = isLocalRun(created) ? heardOf(created) : null;
    heard = now;
    set({ liveRunId: id, runError: null, runRefused: null, pausedBy: null, pendingApproval: created.session.pending, runStatus: created.session.status, liveSteps: created.trace.steps.length });
    inFlight = null;
    unsubscribe = created.subscribe((event) => {
      if (registry.live !== created) return;
      if (now) hear(now, event);
      const instant = (now?.status ?? created.session.status) === 'running' && get().speedMs === 0;
      const shown = () => get().runs.find((run) => run.id === id)?.stepCount ?? 0;
      if (event.type === 'attempt') {
        inFlight = inFlight?.step === event.step ? { ...inFlight, attempts: [...inFlight.attempts, event.attempt] } : { step: event.step, node: event.node, attempts: [event.attempt] };
        pendingSync ??= setTimeout(flushLive, instant ? liveRedrawSpacing(shown()) : LIVE_REDRAW_MS);
        return;
      }
      if (event.type === 'paused') set({ pausedBy: event.reason });
      if (event.type === 'step' && event.states) told = { controller: created, step: event.step.step, states: event.states };
      if (event.type === 'step' && inFlight?.step === event.step.step) inFlight = null;
      // What a Step's run tells during it is drawn once, when the Step is done (`guarded`): drawn here too, it was painted twice, the first time with the next node as running.
      if (stepping) return;
      if (event.type === 'step' && instant) {
        tellSteps(event.step.step);
        pendingSync ??= setTimeout(flushLive, liveRedrawSpacing(shown()));
        return;
      }
      flushLive();
    });
    syncLive();
    return created;
  };

  /**
   * A Run or Step that cannot start says why (beside the Run button), and the run shown before goes
   * off the canvas and the timeline, so that nothing on screen looks like what it did. The runs stay
   * in the run picker, and a live one is let go where it is: picked again, it goes on.
   */
  const refuse = (reason: string) => {
    release();
    set({ runRefused: reason, activeRunId: null, liveRunId: null, runStatus: 'idle', selectedStep: null, stateAfterSelected: null, stateBeforeSelected: null, overlay: null, nodeStatus: {}, pendingApproval: null, pausedBy: null, inFlight: null });
    return null;
  };

  const startFresh = async () => {
    try {
      const { graph, seed } = get();
      const scenario = chosenScenario(get());
      // What a run may contact loads with the first run, as the runtime does.
      const { networkFor } = await import('../network/hosts.ts');
      const network = await networkFor(graph, get().documentVersion, get().documentId, scenario);
      if (!network) return refuse('it would contact hosts that were not allowed.');
      const runtime = await loadRuntime();
      // The runtime applies the named scenario and records it in the trace, as the command line does.
      const created = runtime.createController(graph, controlOptions(network, { seed, ...(scenario === null ? {} : { scenario }) }));
      const id = addRun({ label: '', graph, trace: created.trace, stepCount: 0, seed, ...(scenario === null ? {} : { scenario }) });
      updateRun(id, { label: `Run ${id}` });
      return attach(id, created);
    } catch (error) {
      return refuse(error instanceof Error ? error.message : String(error));
    }
  };

  /** The live run if it can go on; a graph edited in what a run reads starts afresh rather than stepping a stale run. */
  const goOn = async () => {
    const live = get().runs.find((run) => run.id === get().liveRunId);
    if (!registry.live || liveNow()?.status === 'stopped' || !live || !sameBehaviour(live.graph, get().graph)) return startFresh();
    await askFirst(registry.live);
    return registry.live;
  };

  /** Says which node breakpoint a Run stopped at (LangGraph interrupted before the node). */
  const noteBreakpoint = () => {
    if (!heard || heard.status !== 'paused' || get().pausedBy || heard.next === null) return;
    const live = get().runs.find((run) => run.id === get().liveRunId);
    if (!live) return;
    const reason = pauseBeforeReason({ ...get().breakpoints, conditions: [] }, live.graph, heard.next, heard.trace.finalState);
    if (reason) set({ pausedBy: reason });
  };

  const guarded = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      set({ runError: error instanceof Error ? error.message : String(error) });
    }
    flushLive();
    noteBreakpoint();
  };

  const continueLive = async () => {
    set({ pausedBy: null });
    await askFirst(registry.live);
    if (registry.live) await ask(registry.live, { type: 'run', rules: pauseRules() });
  };

  return {
    dismissRunMessages: () => set({ runError: null, runRefused: null, traceWarning: null }),
    setScenario: (name) =>
      set((state) => {
        const scenarioChoices = new Map(state.scenarioChoices);
        if (name === null) scenarioChoices.delete(state.documentId);
        else scenarioChoices.set(state.documentId, name);
        return { scenarioChoices };
      }),
    run: () =>
      guarded(async () => {
        const created = await startFresh();
        set({ pausedBy: null });
        if (created) await ask(created, { type: 'run', rules: pauseRules() });
      }),
    step: () =>
      guarded(async () => {
        const live = await goOn();
        set({ pausedBy: null });
        stepping = live !== null;
        // Drawn before the node runs, so a slow node shows that it is running.
        flushLive();
        try {
          // A Step is one call of the run: no session effect to carry out (session.ts names the calls of the commands that make more, or none).
          if (live) await live.step();
        } finally {
          stepping = false;
        }
      }),
    stepRound: () =>
      guarded(async () => {
        const live = await goOn();
        set({ pausedBy: null });
        if (live) await ask(live, { type: 'run', rules: pauseRules(true) });
      }),
    continueRun: () => guarded(continueLive),
    pause: () => {
      // The session names the call (a Pause is for a run that is running), made here at once.
      if (!registry.live || callsOf(registry.live, { type: 'pause' }).length === 0) return;
      const refused = registry.live.pause();
      set(isUnsupported(refused) ? { runError: refused.unsupported } : { pauseAsked: true });
    },
    reset: () => {
      release();
      registry.clear();
      set({ runs: [], activeRunId: null, liveRunId: null, selectedStep: null, stateAfterSelected: null, stateBeforeSelected: null, overlay: null, nodeStatus: {}, runStatus: 'idle', pendingApproval: null, pausedBy: null, runError: null, runRefused: null, traceWarning: null });
    },
    decide: (decision) =>
      guarded(async () => {
        const live = registry.live;
        if (!live) return;
        set({ pausedBy: null });
        await askFirst(live);
        await ask(live, { type: 'decide', decision, rules: pauseRules() });
      }),
    selectStep: (step) => showStep(step),
    selectRun: (id) => {
      const run = get().runs.find((candidate) => candidate.id === id);
      if (!run) return;
      set({ activeRunId: id, runRefused: null });
      const picked = registry.get(id);
      if (picked && picked !== registry.live && picked.session.status !== 'stopped') attach(id, picked);
      showStep(run.stepCount > 0 ? run.stepCount : null);
    },
    fork: (atStep, edits) =>
      guarded(async () => {
        const from = get().runs.find((candidate) => candidate.id === get().activeRunId);
        const source = from && registry.get(from.id);
        if (!from || !source) return;
        // A fork takes its run's network and grant: asked first when that run was restored.
        await askFirst(source);
        const created = await source.fork(atStep, edits);
        if (isUnsupported(created)) return void set({ runError: created.unsupported });
        // A server's fork is a new branch of the same thread: the run on screen shows it, in place.
        if (created === source) {
          if (registry.live !== source) attach(from.id, source);
          return continueLive();
        }
        const id = addRun({ label: '', graph: from.graph, trace: created.trace, stepCount: created.trace.steps.length, forkOf: { run: from.id, step: atStep }, seed: from.seed, scenario: from.scenario });
        updateRun(id, { label: `Run ${id} (fork of run ${from.id} at step ${atStep})` });
        attach(id, created);
        await continueLive();
      }),
    restoreRuns: async (saved) => {
      const [runtime, { networkAskedLater }] = await Promise.all([loadRuntime(), import('../network/hosts.ts')]);
      release();
      registry.clear();
      const { graph } = get();
      const sameGraph = (other: GraphFile) => JSON.stringify(other) === JSON.stringify(graph);
      const runs: RunRecord[] = [];
      for (const { journal, forkedFrom, trace, ...record } of saved.runs) {
        // The graph on screen is the one the run ran on: keep them one object, so Step goes on with the run.
        const ranOn = sameGraph(record.graph) ? graph : record.graph;
        if (journal) {
          const network = networkAskedLater(ranOn, get().documentVersion, get().documentId, record.scenario ?? null);
          const restored = runtime.createController(ranOn, controlOptions(network, { seed: record.seed, scenario: record.scenario, journal, forkedFrom }));
          askedLater.set(restored, network.ask);
          registry.register(record.id, restored);
          const shown = restored.trace;
          runs.push({ ...record, graph: ranOn, trace: shown, stepCount: shown.steps.length });
        } else if (trace) runs.push({ ...record, graph: ranOn, trace, stepCount: trace.steps.length });
      }
      set({ runs, activeRunId: saved.activeRunId, liveRunId: null, runStatus: 'idle', pendingApproval: null });
      const live = saved.liveRunId === null ? undefined : registry.get(saved.liveRunId);
      if (live && saved.liveRunId !== null) attach(saved.liveRunId, live);
      else set({ runStatus: runs.some((run) => run.id === saved.activeRunId) ? 'stopped' : 'idle' });
      showStep(saved.selectedStep);
    },
    loadTrace: (trace, shown) => {
      release();
      const graph = shown?.graph ?? get().graph;
      const id = addRun({ label: '', graph, trace, stepCount: trace.steps.length, imported: true, ...(shown?.file ? { file: shown.file } : {}) });
      updateRun(id, { label: shown?.label ? `Run ${id}: ${shown.label}` : `Run ${id} (imported)` });
      set({
        liveRunId: null,
        runStatus: 'stopped',
        pendingApproval: null,
        pausedBy: null,
        runError: null,
        // Only a file read without its own graph may not match the canvas: a scenario's run comes with its own.
        traceWarning: shown?.graph || trace.graph === graph.name ? null : `This trace was made on "${trace.graph}", but the open graph is "${graph.name}": the canvas may not match it.`,
      });
      // The timeline is drawn first, alone, with its last step selected: the step's marks on the canvas
      // (and its state in the step view) follow at the next frame. Painted together, the canvas and the
      // timeline made one frame of twice the work, and the whole page laid out and painted (issue 57).
      set({ selectedStep: trace.steps.length > 0 ? trace.steps.length : null });
      afterNextFrame(() => void paintStep());
      return id;
    },
    followRun: (controller, shown) => {
      const { trace } = controller;
      const replaced = get().runs.find((run) => run.server === shown.key);
      let id: number;
      if (replaced) {
        id = replaced.id;
        updateRun(id, { trace, stepCount: trace.steps.length, graph: shown.graph });
        set({ activeRunId: id });
      } else {
        id = addRun({ label: '', graph: shown.graph, trace, stepCount: trace.steps.length, imported: true, server: shown.key, ...(shown.foreign ? { foreign: true } : {}) });
        updateRun(id, { label: `Run ${id}: ${shown.label}` });
      }
      // A controller drives the one run it shows now (a server connection, its open thread).
      for (const run of get().runs) if (run.id !== id && registry.get(run.id) === controller) registry.remove(run.id);
      set({ traceWarning: null });
      if (registry.live === controller && get().liveRunId === id) {
        // Read again with nothing new: the step the person is looking at stays.
        if (replaced?.trace.steps.length !== trace.steps.length) flushLive();
      } else attach(id, controller);
      return id;
    },
    keepServerBranch: (key, kept) => set((state) => ({ runs: state.runs.map((run) => (run.server === key ? { ...run, server: kept.key, label: `${run.label}, ${kept.label}` } : run)) })),
    readRunState: async (runId, step) => {
      const run = get().runs.find((candidate) => candidate.id === runId);
      return run ? stateOf(await loadRuntime(), run, step) : null;
    },
  };
};
