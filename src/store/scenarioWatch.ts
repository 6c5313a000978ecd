/**
 * The page's side of the scenarios re-run on each edit (issue 56): every change of the graph the
 * store's one edit path makes (an edit, Undo, Redo, another document) that can change a run is
 * numbered, and after a short pause (never while a pointer holds the canvas: a drag, a connection
 * drawn) the graph goes to the worker (runtime/scenarioWatch.worker.ts). Only the result for the
 * newest number is taken (scenarioWatchState.ts). Loaded after the first screen, with the panels.
 */
import { sameBehaviour } from '../graph/behaviour.ts';
import type { GraphFile } from '../graph/index.ts';
import type { WatchRequest, WatchResult } from '../runtime/scenarioWatch.ts';
import { useApp } from './index.ts';
import { editWords, emptyMemory, isCurrent, takeResult, type ScenarioWatch } from './scenarioWatchState.ts';

/**
 * A light debounce: a lone edit (a choice, a drop) is sent at once, but edits that follow one sent
 * less than this ago (typing "12" in a field) are sent once they pause.
 */
const QUIET_MS = 150;
export const DEFAULT_BUDGET_MS = 5000;
const SETTINGS_KEY = 'loopscope:scenario-watch';
/** A test hook (e2e/scenario-watch.spec.ts): the worker waits this long before each run, so a newer edit can overtake it. */
const DELAY_KEY = 'loopscope:scenario-watch-delay-ms';

const readSettings = (): Pick<ScenarioWatch, 'paused' | 'budgetMs'> => {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as { paused?: unknown; budgetMs?: unknown };
    return { paused: saved.paused === true, budgetMs: typeof saved.budgetMs === 'number' && saved.budgetMs > 0 ? saved.budgetMs : DEFAULT_BUDGET_MS };
  } catch {
    return { paused: false, budgetMs: DEFAULT_BUDGET_MS };
  }
};

const setWatch = (patch: Partial<ScenarioWatch>) => useApp.setState((state) => ({ scenarioWatch: { ...(state.scenarioWatch as ScenarioWatch), ...patch } }));

let started = false;

/** Starts watching (once): the open graph's scenarios run now, then after each edit. */
export const startScenarioWatch = () => {
  if (started || typeof Worker === 'undefined') return;
  started = true;
  // Made for the first graph with scenarios: the runtime it loads is a megabyte of script.
  let worker: Worker | null = null;
  const workerOf = () => {
    if (worker) return worker;
    worker = new Worker(new URL('../runtime/scenarioWatch.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<WatchResult>) => take(event.data);
    worker.onerror = () => setWatch({ running: false });
    return worker;
  };
  let memory = emptyMemory();
  let version = 0;
  /** The graph each version sent, and the one the shown results are for (what an edit is worded against). */
  const sent = new Map<number, GraphFile>();
  let ranGraph: GraphFile | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSent = -Infinity;
  let holding = false;
  let waiting = false;

  const send = () => {
    waiting = false;
    lastSent = performance.now();
    const { graph, scenarioWatch } = useApp.getState();
    if (!scenarioWatch || scenarioWatch.paused) return;
    if (holding) {
      waiting = true;
      return;
    }
    sent.clear();
    sent.set(version, graph);
    // Nothing to run: the graph (it may be big) is not copied to the worker.
    if (graph.scenarios.length === 0) return take({ version, results: [], leftOut: [], stoppedAt: null, notRun: 0, elapsedMs: 0 });
    setWatch({ running: true });
    const delayMs = Number(sessionStorage.getItem(DELAY_KEY)) || 0;
    workerOf().postMessage({ version, graph, budgetMs: scenarioWatch.budgetMs, ...(delayMs > 0 ? { delayMs } : {}) } satisfies WatchRequest);
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(send, performance.now() - lastSent < QUIET_MS ? QUIET_MS : 0);
  };

  const take = (result: WatchResult) => {
    const graph = sent.get(result.version);
    if (!isCurrent(result, version) || !graph) return;
    const { documentVersion } = useApp.getState();
    const taken = takeResult(result, graph, documentVersion, memory, ranGraph && ranGraph !== graph ? editWords(ranGraph, graph) : null);
    memory = taken.memory;
    ranGraph = graph;
    useApp.setState((state) => ({ scenarioResults: new Map([...state.scenarioResults, ...taken.results]), scenarioWatch: { ...(state.scenarioWatch as ScenarioWatch), ...taken.shown, running: false } }));
  };

  useApp.setState({ scenarioWatch: { ...readSettings(), version, shownVersion: null, running: false, passed: 0, ran: 0, leftOut: [], stoppedAt: null, notRun: 0, marks: [], brokeAfter: new Map(), changed: null, expected: new Map() } });
  useApp.subscribe((state, previous) => {
    const watch = state.scenarioWatch;
    if (watch && previous.scenarioWatch && (watch.paused !== previous.scenarioWatch.paused || watch.budgetMs !== previous.scenarioWatch.budgetMs)) {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify({ paused: watch.paused, budgetMs: watch.budgetMs }));
      if (!watch.paused) schedule();
    }
    if (state.documentVersion !== previous.documentVersion) {
      // Another document: nothing of the last one's runs is expected of it.
      memory = emptyMemory();
      ranGraph = null;
    } else if (state.graph === previous.graph || (state.graph.scenarios === previous.graph.scenarios && sameBehaviour(state.graph, previous.graph))) return;
    version += 1;
    // The marks of an older version are not left on a graph they no longer describe.
    setWatch({ version, marks: [], running: false });
    schedule();
  });

  // A drag or a connection being drawn: the run waits until the pointer lets go.
  document.addEventListener('pointerdown', (event) => void (holding = event.target instanceof Element && event.target.closest('.react-flow') !== null), true);
  const letGo = () => {
    holding = false;
    if (waiting) schedule();
  };
  window.addEventListener('pointerup', letGo, true);
  window.addEventListener('pointercancel', letGo, true);
  send();
};
