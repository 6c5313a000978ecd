/**
 * The run session on screen, kept in IndexedDB so that a reload shows the same runs and Step
 * continues from the last checkpoint. What is stored is each run's record and its journal (the
 * changes of its channels, in order): the journal grows by appending, so a step costs one small
 * write, and a run comes back by folding it. Its own database, apart from the graph library, with
 * one session per graph of the library (keyed by its id): opening a graph shows its own runs.
 */
// A session is read back against the schemas (its graphs, traces and journals).
import { z } from '../graph/zod.ts';
import { describeProblems, type ParseProblem } from '../graph/index.ts';
import { parseGraph, parseWith } from '../graph/parse.ts';
import { Trace } from '../runtime/trace.ts';
import { RunValuesSchema } from '../runtime/state.ts';
import type { JournalEntry } from '../runtime/controller.ts';
import { stopsAsData } from '../runtime/journal.ts';
import { afterDrawing } from '../store/afterDrawing.ts';
import { useApp } from '../store/index.ts';
import { journalLength, savedRuns } from '../store/runActions.ts';
import type { Breakpoints, SavedRun, SavedRuns } from '../store/runSlice.ts';
import { parseOffThread } from './offThread.ts';
import { useRunSessions } from './runSessionStatus.ts';
import { completion } from './idbTransaction.ts';
import { request } from './libraryDb.ts';

export const RUNS_DB_NAME = 'loopscope-runs';
const SAVE_DELAY_MS = 50;
/** How long a save waits at most for the page to be idle once its delay is over. */
const SAVE_WAITS_AT_MOST_MS = 500;

const Id = z.int().check(z.gte(1));
const NO_BREAKPOINTS: Breakpoints = { nodes: [], edges: [], conditions: [] };

/**
 * What of a run never changes once it is on screen, stored once: its graph, and an imported trace,
 * as the file it was read from when there is one (storing a file copies none of its steps on the
 * page; it is read again off the main thread when the session comes back).
 */
const RunBody = z.strictObject({ graph: z.unknown(), trace: z.optional(Trace), file: z.optional(z.instanceof(Blob)) });
type RunBody = z.infer<typeof RunBody>;

const SavedRunHeader = z.strictObject({
  id: Id,
  label: z.string(),
  forkOf: z.optional(z.strictObject({ run: Id, step: z.int().check(z.gte(0)) })),
  imported: z.optional(z.boolean()),
  /** The LangGraph server thread an imported run shows (its URL stays on this machine, like the rest of the session). */
  server: z.optional(z.string()),
  foreign: z.optional(z.boolean()),
  seed: z.optional(z.int()),
  scenario: z.optional(z.string()),
  forkedFrom: z.optional(z.strictObject({ step: z.int().check(z.gte(0)), edited: z.array(z.string()), overridden: z.array(z.string()) })),
  /** How many journal entries the run has in the journal store. */
  journalLength: z.int().check(z.gte(0)),
});

/** The breakpoints set on the graph: they belong to its session, and come back with its runs. */
const SavedBreakpoints = z.strictObject({
  nodes: z.array(z.string()),
  edges: z.array(z.string()),
  conditions: z.array(z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('tokens_percent'), percent: z.number().check(z.gte(0)) }),
    z.strictObject({ type: z.literal('round'), round: z.int().check(z.gte(1)) }),
    z.strictObject({ type: z.literal('attempt_failed') }),
  ])),
});

const SessionHeader = z.strictObject({
  version: z.literal(1),
  runs: z.array(SavedRunHeader),
  activeRunId: z.nullable(Id),
  liveRunId: z.nullable(Id),
  selectedStep: z.nullable(z.int().check(z.gte(0))),
  breakpoints: z.optional(SavedBreakpoints),
});
type SessionHeader = z.infer<typeof SessionHeader>;

const JournalEntrySchema = z.strictObject({ step: z.int().check(z.gte(0)), update: z.record(z.string(), z.unknown()) });
const Journal = z.array(JournalEntrySchema);

export interface StoredSession {
  header: unknown;
  bodies: Map<number, unknown>;
  journals: Map<number, unknown[]>;
}

/** What one write stores: the header, the bodies of runs new on screen, journal entries appended, the runs gone. */
export interface SessionChanges {
  header: SessionHeader;
  bodies: { run: number; body: RunBody }[];
  appends: { run: number; from: number; entries: readonly JournalEntry[] }[];
  dropped: number[];
}

/** Where sessions live: IndexedDB in the browser, a fake in tests (happy-dom has no IndexedDB). */
export interface RunSessionStorage {
  read: (key: string) => Promise<StoredSession | undefined>;
  write: (key: string, changes: SessionChanges) => Promise<void>;
}

const HEADERS = 'sessions';
const JOURNALS = 'journal';
/** A run's body sits before its journal entries, in the same key range. */
const BODY = -1;

export const indexedDbRunStorage = (factory: IDBFactory | undefined = globalThis.indexedDB): RunSessionStorage => {
  let opening: Promise<IDBDatabase> | null = null;
  const open = () => {
    if (!factory) return Promise.reject(new Error('IndexedDB is not available in this browser'));
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(RUNS_DB_NAME, 1);
      req.onupgradeneeded = () => {
        req.result.createObjectStore(HEADERS);
        // Keyed [session, run, entry]: a run's journal is one key range, read and deleted at once.
        req.result.createObjectStore(JOURNALS);
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('could not open IndexedDB'));
      req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    opening.catch(() => (opening = null));
    return opening;
  };
  const runRange = (key: string, run: number, from = BODY) => IDBKeyRange.bound([key, run, from], [key, run, Number.MAX_SAFE_INTEGER]);
  return {
    read: async (key) => {
      const db = await open();
      const tx = db.transaction([HEADERS, JOURNALS], 'readonly');
      const header = await request(tx.objectStore(HEADERS).get(key));
      if (header === undefined) return undefined;
      const journals = new Map<number, unknown[]>();
      const bodies = new Map<number, unknown>();
      const runs = (header as { runs?: { id?: unknown }[] }).runs ?? [];
      for (const run of Array.isArray(runs) ? runs : []) {
        if (typeof run?.id !== 'number') continue;
        bodies.set(run.id, await request(tx.objectStore(JOURNALS).get([key, run.id, BODY])));
        journals.set(run.id, await request(tx.objectStore(JOURNALS).getAll(runRange(key, run.id, 0))));
      }
      return { header, bodies, journals };
    },
    write: async (key, { header, bodies, appends, dropped }) => {
      const db = await open();
      const tx = db.transaction([HEADERS, JOURNALS], 'readwrite');
      const journals = tx.objectStore(JOURNALS);
      for (const run of dropped) journals.delete(runRange(key, run));
      for (const { run, body } of bodies) journals.put(body, [key, run, BODY]);
      for (const { run, from, entries } of appends) entries.forEach((entry, index) => journals.put(entry, [key, run, from + index]));
      tx.objectStore(HEADERS).put(header, key);
      const written = completion(tx);
      tx.commit?.();
      await written;
    },
  };
};

/** A stored session read back: untrusted, so every part is parsed, and a part that fails is named. */
export const parseSession = (stored: StoredSession): { ok: true; value: SavedRuns & { breakpoints: Breakpoints } } | { ok: false; problems: ParseProblem[] } => {
  const header = parseWith(SessionHeader, stored.header);
  if (!header.ok) return header;
  const runs: SavedRun[] = [];
  for (const [index, { journalLength: length, ...record }] of header.value.runs.entries()) {
    const body = parseWith(RunBody, stored.bodies.get(record.id), ['runs', index]);
    if (!body.ok) return body;
    const graph = parseGraph(body.value.graph);
    if (!graph.ok) return { ok: false, problems: graph.problems.map((problem) => ({ ...problem, path: `runs[${index}].graph${problem.path ? `.${problem.path}` : ''}` })) };
    if (record.imported) {
      const { trace, file } = body.value;
      if (!trace && !file) return { ok: false, problems: [{ path: `runs[${index}].trace`, message: 'an imported run has no trace' }] };
      runs.push({ ...record, graph: graph.value, ...(file ? { file } : { trace }) });
      continue;
    }
    const journal = parseWith(Journal, stored.journals.get(record.id) ?? [], ['runs', index, 'journal']);
    if (!journal.ok) return journal;
    if (journal.value.length !== length) return { ok: false, problems: [{ path: `runs[${index}].journal`, message: `expected ${length} entries, found ${journal.value.length}` }] };
    const entries = journal.value.map(stopsAsData);
    const start = parseWith(RunValuesSchema, entries[0]?.update, ['runs', index, 'journal', 0, 'update']);
    if (!start.ok) return start;
    runs.push({ ...record, graph: graph.value, journal: entries });
  }
  return { ok: true, value: { runs, activeRunId: header.value.activeRunId, liveRunId: header.value.liveRunId, selectedStep: header.value.selectedStep, breakpoints: header.value.breakpoints ?? NO_BREAKPOINTS } };
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'unknown error';

/** Puts the stored session of a graph (by default the open one) back on screen. */
export const restoreRunSession = async (storage: RunSessionStorage, key = useApp.getState().documentId): Promise<boolean> => {
  let stored: StoredSession | undefined;
  try {
    stored = await storage.read(key);
  } catch (error) {
    useRunSessions.setState({ error: `The runs of the last session could not be read (${reasonOf(error)}).` });
    return false;
  }
  if (!stored) return false;
  const parsed = parseSession(stored);
  if (!parsed.ok) {
    useRunSessions.setState({ error: `The runs of the last session are damaged and were not shown (${describeProblems(parsed.problems).split('\n')[0]}).` });
    return false;
  }
  useApp.setState({ breakpoints: parsed.value.breakpoints });
  if (parsed.value.runs.length === 0) return false;
  const runs: SavedRun[] = [];
  for (const [index, run] of parsed.value.runs.entries()) {
    const read = run.file ? await parseOffThread({ kind: 'trace', file: run.file }) : null;
    if (read && !read.ok) {
      useRunSessions.setState({ error: `The runs of the last session are damaged and were not shown (runs[${index}].file: ${describeProblems(read.problems).split('\n')[0]}).` });
      return false;
    }
    runs.push(read ? { ...run, trace: read.value } : run);
  }
  await useApp.getState().restoreRuns({ ...parsed.value, runs });
  return true;
};

/**
 * Stores the session as it changes: one write at a time, each taking what changed since the
 * last (the headers, and the journal entries appended). Returns a stop function.
 */
export const startRunSessionSaving = (storage: RunSessionStorage, { delayMs = SAVE_DELAY_MS, target = window as Pick<Window, 'addEventListener' | 'removeEventListener'> } = {}) => {
  /** The session written to: the open graph's. */
  let key = useApp.getState().documentId;
  /** Set while another graph's session replaces the runs on screen: that is not a change to store. */
  let switching = false;
  /** Journal entries stored per run; a run in it has its body stored. */
  const stored = new Map<number, number>();
  for (const run of useApp.getState().runs) stored.set(run.id, journalLength(run.id));
  let writing: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Changes not stored yet and not scheduled: those of a running Instant run. */
  let deferred = false;

  const save = async (): Promise<void> => {
    timer = null;
    if (writing) {
      again = true;
      return;
    }
    const into = key;
    const snapshot = savedRuns(useApp.getState());
    const shown = new Set(snapshot.runs.map((run) => run.id));
    const dropped = [...stored.keys()].filter((id) => !shown.has(id));
    const appends = snapshot.runs.flatMap((run) => {
      const from = stored.get(run.id) ?? 0;
      return run.journal && run.journal.length > from ? [{ run: run.id, from, entries: run.journal.slice(from) }] : [];
    });
    const bodies = snapshot.runs.filter((run) => !stored.has(run.id)).map(({ id, graph, trace, file }) => ({ run: id, body: { graph, ...(file ? { file } : trace ? { trace } : {}) } }));
    const header: SessionHeader = {
      version: 1,
      runs: snapshot.runs.map(({ journal, graph: _graph, trace: _trace, file: _file, ...record }) => ({ ...record, journalLength: journal?.length ?? 0 })),
      activeRunId: snapshot.activeRunId, liveRunId: snapshot.liveRunId, selectedStep: snapshot.selectedStep,
      breakpoints: useApp.getState().breakpoints,
    };
    writing = storage.write(into, { header, bodies, appends, dropped });
    try {
      await writing;
      for (const id of dropped) stored.delete(id);
      for (const run of snapshot.runs) stored.set(run.id, run.journal?.length ?? 0);
      if (useRunSessions.getState().error) useRunSessions.setState({ error: null });
    } catch (error) {
      useRunSessions.setState({ error: `The runs could not be stored (${reasonOf(error)}); they are kept in memory.` });
    } finally {
      writing = null;
    }
    if (again) {
      again = false;
      await save();
    }
  };

  const schedule = () => {
    if (timer !== null) return;
    // After the delay, once the page has drawn: a run imported or stepped to is shown first (the
    // write was ~10 ms of the frame that shows an imported trace).
    const mine = setTimeout(() => {
      afterDrawing(() => {
        // Not when a flush or a switch saved meanwhile.
        if (timer === mine) void save();
      }, SAVE_WAITS_AT_MOST_MS);
    }, delayMs);
    timer = mine;
  };
  /** Saves now what is scheduled or deferred; null when nothing is (no save, not even a turn waited for). */
  const savePending = () => {
    if (timer === null && !deferred) return null;
    if (timer !== null) clearTimeout(timer);
    deferred = false;
    return save();
  };
  const flush = () => void savePending();
  /** Another graph was opened: what is pending goes to the graph it belongs to, then that graph's own runs come on screen. */
  const switchTo = async (documentId: string) => {
    switching = true;
    try {
      const pending = savePending();
      if (pending) await pending;
      while (writing) await writing;
      key = documentId;
      stored.clear();
      useApp.getState().reset();
      // The graph opened has its own breakpoints, if its session kept any.
      useApp.setState({ breakpoints: NO_BREAKPOINTS });
      if (await restoreRunSession(storage, documentId)) for (const run of useApp.getState().runs) stored.set(run.id, journalLength(run.id));
    } finally {
      switching = false;
    }
    // A run that came while the runs were switching is the new graph's (a trace imported with its
    // own graph comes with it): it is stored too, or a reload would have lost it.
    if (useApp.getState().runs.some((run) => !stored.has(run.id))) schedule();
  };
  const unsubscribe = useApp.subscribe((state, previous) => {
    if (state.documentId !== previous.documentId) {
      void switchTo(state.documentId);
      return;
    }
    if (switching) return;
    deferred ||= state.runs !== previous.runs || state.activeRunId !== previous.activeRunId || state.liveRunId !== previous.liveRunId || state.selectedStep !== previous.selectedStep || state.breakpoints !== previous.breakpoints;
    // An Instant run makes thousands of steps a second, and storing them as they came was a few % of
    // its time: they are stored when it stops or pauses (or the page goes), a run at a pace as it goes.
    if (!deferred || (state.runStatus === 'running' && state.speedMs === 0)) return;
    deferred = false;
    schedule();
  });
  target.addEventListener('pagehide', flush);
  return {
    stop: () => {
      unsubscribe();
      target.removeEventListener('pagehide', flush);
      if (timer !== null) clearTimeout(timer);
    },
    /** Resolves when everything changed so far is stored. */
    flush: async () => {
      flush();
      while (writing || timer !== null) await (writing ?? new Promise((resolve) => setTimeout(resolve, delayMs)));
    },
  };
};

/** Startup: the open graph's runs come back, then are kept as they change. */
export const startRunSessions = async (storage: RunSessionStorage = indexedDbRunStorage()) => {
  await restoreRunSession(storage);
  return startRunSessionSaving(storage);
};
