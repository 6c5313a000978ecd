/**
 * The saver: saves the open graph under its id after every change (debounced, and not during a
 * gesture on the canvas), at once when another graph is opened, and on `pagehide`; one tab at a
 * time per graph (graphLocks.ts). It starts once the page's first screen is drawn (persistence.ts
 * reads the save before that), and saves what changed before it started.
 */
import { prepareSerialization, serializeGraph, serializeInSlices, type GraphFile } from '../graph/index.ts';
import { webGraphLocks } from './graphLocks.ts';
import { nextTask } from './saveAside.ts';
import { useApp } from '../store/index.ts';
import { OPEN_KEY, SAVE_STAMP } from './libraryDb.ts';
import { useGraphTab, useLibrary, withSaved } from './libraryActions.ts';
import { newDocumentId } from '../store/graphSlice.ts';
import { changeSource } from '../store/changeSource.ts';
import { fail, failRestore, gesturesUnderWay, JOURNAL_PREFIX, onGesturesOver, parseAside, readJournal, reasonOf, useAutosave, writeJournalEntry, type JournalEntry, type LibrarySummary, type Persistence, type Saver, type SyncStorage } from './persistence.ts';

/** Nodes and edges written ahead of a first save in one slice, and the idle time a slice needs. */
const PREPARE_SLICE = 200;
const PREPARE_MARGIN_MS = 4;
const whenIdle = (work: (deadline?: IdleDeadline) => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(work) : setTimeout(work, 50));
/**
 * Nodes and edges an autosave writes between two checks of the time, and the time it takes before
 * it lets the page draw: a third of a frame, so that a task the machine's load stretches still fits in one.
 */
const SAVE_SLICE = 50;
const SAVE_TASK_MS = 5;

/** Where an autosave began and landed, for the bench (bench/autosave.ts): only the last of each is kept. */
const SAVE_STARTED = 'loopscope:save-started';
const SAVED = 'loopscope:saved';
const mark = (name: string) => {
  performance.clearMarks(name);
  performance.mark(name);
};

/**
 * The graph's text, written over as many tasks as it takes: at 10,000 nodes joining its nodes'
 * texts alone held the page for tens of ms, and a frame is 16.
 */
const serializeAside = async (graph: GraphFile): Promise<string> => {
  const steps = serializeInSlices(graph, SAVE_SLICE);
  let began = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (performance.now() - began > SAVE_TASK_MS) {
      await nextTask();
      began = performance.now();
    }
  }
};

/**
 * In sessionStorage: the edit a page left with in no journal copy (too big for localStorage even
 * unspaced), only its write to IndexedDB started. The next page says so when that write did not land.
 */
const UNKEPT_KEY = 'loopscope.unkept';
type Unkept = { id: string; name: string; savedAt: number };

/** The graphs the journal holds a copy of. */
const journaledIds = (sync: SyncStorage): string[] => {
  const ids: string[] = [];
  try {
    for (let index = 0; index < (sync.length ?? 0); index += 1) {
      const key = sync.key?.(index);
      if (key?.startsWith(JOURNAL_PREFIX)) ids.push(key.slice(JOURNAL_PREFIX.length));
    }
  } catch {
    // Storage refused: there is no journal to read.
  }
  return ids;
};

const isQuotaError = (error: unknown) => error instanceof Error && (error.name === 'QuotaExceededError' || /quota/i.test(error.message));

/** Why a write failed, in words: a full storage says so, whatever the browser calls it. */
const writeFailure = (error: unknown) => (isQuotaError(error) ? "the browser's storage for this site is full" : reasonOf(error));

export const startSaving = (persistence: Persistence): Saver => {
  const { library, session, journal, delayMs, target } = persistence.options;
  const locks = persistence.options.locks ?? webGraphLocks();
  const { lastSaved, openedAsSaved } = persistence;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: { id: string; graph: GraphFile } | null = null;
  let stopped = false;
  /**
   * Saves on their way to IndexedDB. Their journal copy is written only when the page leaves or the
   * write fails before IndexedDB has them: for a big graph that copy (the text escaped once more
   * and written synchronously) held the page for tens of milliseconds on every autosave.
   */
  const unconfirmed = new Map<string, JournalEntry>();
  /** Saves whose text is being written, a slice at a time: the page may go meanwhile. */
  const serializing = new Map<string, GraphFile>();
  /** Saves waiting for this tab's lock on their graph (the first ask): the page may go meanwhile. */
  const claiming = new Map<string, GraphFile>();
  /** Graphs known to have no journal copy (any other may have one, from an earlier page or a failed write). */
  const unjournaled = new Set<string>();
  /** Whether the copy was written: a full localStorage only loses the safety net, IndexedDB is the save. */
  const writeJournal = (id: string, entry: JournalEntry): boolean => {
    const written = writeJournalEntry(journal, id, entry);
    if (written) unjournaled.delete(id);
    return written;
  };
  /** Per graph: whether this tab may save it, once known (the lock is asked for once; another tab may take it). */
  const owned = new Map<string, boolean>();
  const asking = new Map<string, Promise<boolean>>();

  const lost = (id: string) => {
    owned.set(id, false);
    if (id === useApp.getState().documentId) useGraphTab.setState({ conflict: 'taken' });
  };
  const claim = (id: string): Promise<boolean> => {
    const known = owned.get(id);
    if (known !== undefined) return Promise.resolve(known);
    let asked = asking.get(id);
    if (!asked) {
      const answer = locks.claim(id, () => lost(id));
      if (answer === true) {
        owned.set(id, true);
        return Promise.resolve(true);
      }
      asked = answer.then((mine) => {
        asking.delete(id);
        owned.set(id, mine);
        return mine;
      });
      asking.set(id, asked);
    }
    return asked;
  };
  /** Asks for the graph just opened, and says when another tab has it. */
  const claimOpen = (id: string) =>
    void claim(id).then((mine) => {
      if (id === useApp.getState().documentId) useGraphTab.setState({ conflict: mine ? null : 'elsewhere' });
    });
  const letGo = (id: string) => {
    owned.delete(id);
    locks.release(id);
  };
  const takeOver = async (id: string) => {
    // What this tab did while another had the graph is not saved over that tab's work.
    takePending();
    await locks.takeOver(id, () => lost(id));
    owned.set(id, true);
    useGraphTab.setState({ conflict: null });
  };

  const autosave = (id: string, entry: JournalEntry, leaving: boolean) =>
    library.autosave ? library.autosave(id, entry.name, entry.text, leaving, entry.savedAt) : library.write(id, entry.name, entry.text, entry.savedAt);
  /**
   * A save is stamped with the time the page took its graph, and a later save with a later time
   * (Date.now() can give two saves the same millisecond): an older save that lands late, the
   * worker's as the page goes, then loses to the journal copy of the edit made after it.
   */
  let stamped = 0;
  const stamp = () => (stamped = Math.max(Date.now(), stamped + 1));
  /** Per graph, the stamp of the save begun last: an older one still writing its text is not to land after it. */
  const lastBegun = new Map<string, number>();
  const save = async (id: string, graph: GraphFile, urgent = false) => {
    const savedAt = stamp();
    lastBegun.set(id, savedAt);
    if (id === useApp.getState().documentId) session.setItem(OPEN_KEY, id);
    // Another tab has this graph: saving here would write over its edits. Known at once after the
    // first ask, so a save on `pagehide` still starts in this turn.
    let mine = owned.get(id);
    if (mine === undefined) {
      // Until the lock answers, the page may go: a graph just opened (an import) is then in no other list.
      if (openedAsSaved.get(id) !== graph) claiming.set(id, graph);
      mine = await claim(id);
      if (claiming.get(id) === graph) claiming.delete(id);
    }
    if (!mine) return;
    // In a folder: a graph that is no file yet, or whose file is read-only or deleted, is not written.
    if (library.files && !library.files.keeps(id)) return;
    // However its text was spaced, not written again: for a big graph that is a synchronous journal copy and a write.
    if (openedAsSaved.get(id) === graph) return;
    if (!urgent) {
      mark(SAVE_STARTED);
      serializing.set(id, graph);
    }
    // The page is going: written in this task, whatever it costs, while a write can still start.
    const text = urgent ? serializeGraph(graph) : await serializeAside(graph);
    if (serializing.get(id) === graph) serializing.delete(id);
    // A later save (the page's as it was hidden) has this graph's newer text: this one would write over it.
    if (lastBegun.get(id) !== savedAt) return;
    if (lastSaved.get(id) === text) return;
    const entry: JournalEntry = { name: graph.name, text, savedAt, ...SAVE_STAMP };
    if (urgent) return void writeUrgently(id, entry);
    unconfirmed.set(id, entry);
    try {
      await autosave(id, entry, false);
      lastSaved.set(id, text);
      openedAsSaved.set(id, graph);
      if (unconfirmed.get(id) === entry) unconfirmed.delete(id);
      mark(SAVED);
      // A journal of this save or an older one is done with; a newer one stays until its own save lands.
      if (!unjournaled.has(id) && (readJournal(journal, id)?.savedAt ?? 0) <= entry.savedAt) {
        journal.removeItem(JOURNAL_PREFIX + id);
        unjournaled.add(id);
      }
      if (useAutosave.getState().error) useAutosave.setState({ error: null });
      // The list learns of the save from what was written, and so do the other tabs: nobody reads the whole library again.
      const path = library.files?.pathOf(id);
      const saved: LibrarySummary = { id, name: graph.name, savedAt: entry.savedAt, ...(path ? { path } : {}) };
      useLibrary.setState((state) => ({ entries: withSaved(state.entries, saved) }));
      locks.announceSaved(saved);
    } catch (error) {
      // Kept where a reload finds it, until a write works.
      if (unconfirmed.get(id) === entry) unconfirmed.delete(id);
      const backedUp = writeJournal(id, entry);
      // What happened, and where the graph is kept meanwhile.
      useAutosave.setState({ error: `Autosave failed: ${writeFailure(error)}. Your graph is kept in this tab${backedUp ? " and in this browser's backup copy, which a reload opens" : ' only (Export JSON keeps a copy)'}; the next edit tries again.` });
    }
  };

  const takePending = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const taken = pending;
    pending = null;
    return taken;
  };
  const flush = async () => {
    const taken = takePending();
    if (taken) await save(taken.id, taken.graph);
  };
  const saveNow = async () => {
    takePending();
    const { documentId: id, graph } = useApp.getState();
    openedAsSaved.delete(id);
    lastSaved.delete(id);
    await save(id, graph);
  };
  /** The debounced save: left pending while a gesture holds it, and asked again once the gesture ends. */
  const saveWhenStill = () => {
    timer = null;
    if (!gesturesUnderWay()) void flush();
  };
  onGesturesOver(() => {
    if (pending && timer === null) timer = setTimeout(saveWhenStill, delayMs);
  });
  /**
   * A graph just opened has none of its text written, and its first save would write it all in one
   * task (tens of ms at 5,000 nodes, a frame lost after the first drop): it is written ahead, a slice
   * at a time while the page is idle and no gesture is under way.
   */
  const prepareWhenIdle = (id: string) => {
    const step = (deadline?: IdleDeadline) => {
      const { graph, documentId } = useApp.getState();
      if (documentId !== id || stopped) return;
      if (!gesturesUnderWay()) {
        let done = prepareSerialization(graph, PREPARE_SLICE);
        while (!done && deadline && deadline.timeRemaining() > PREPARE_MARGIN_MS) done = prepareSerialization(graph, PREPARE_SLICE);
        if (done) return;
      }
      whenIdle(step);
    };
    whenIdle(step);
  };
  /**
   * A save as the page goes: its journal copy, and the write started on the page's thread in this
   * task (a worker's may not outlive the page). A big graph's copy may not fit in localStorage:
   * the write is then all there is, and it is committed at once, to land however soon the page goes.
   */
  const writeUrgently = (id: string, entry: JournalEntry) => {
    const journaled = writeJournal(id, entry);
    if (!journaled && !library.files) {
      try {
        session.setItem(UNKEPT_KEY, JSON.stringify({ id, name: entry.name, savedAt: entry.savedAt } satisfies Unkept));
      } catch {
        // Storage refused: the next page cannot say what was lost.
      }
    }
    void (journaled ? library.write(id, entry.name, entry.text, entry.savedAt) : autosave(id, entry, true)).catch(() => undefined);
  };
  /** The last page's edit that went with no journal copy: said to be lost when its write did not land (its entry is not stamped with its time). */
  const tellUnkept = async () => {
    const note = session.getItem(UNKEPT_KEY);
    if (note === null) return;
    session.removeItem(UNKEPT_KEY);
    try {
      const { id, name, savedAt } = JSON.parse(note) as Unkept;
      const entry = await library.read(id);
      if (entry && entry.savedAt >= savedAt) return;
      failRestore(
        `The last edit of "${name}" was lost as the page went: the graph is too big for this browser's backup copy, and the browser storage had not saved it yet. ${entry ? 'Its last save was opened.' : 'It had never been saved.'}`,
      );
    } catch (error) {
      fail(reasonOf(error));
    }
  };
  const onPageHide = () => {
    // The edits not written yet first (waiting for their save, or their text being written a slice
    // at a time): their writes are not to wait behind others that may not land.
    const latest = new Map(serializing);
    // Saved now: a second call (`visibilitychange`, then `pagehide`) must not save them again, stamped
    // later than the newer edit just saved.
    serializing.clear();
    const taken = takePending();
    if (taken) latest.set(taken.id, taken.graph);
    for (const [id, graph] of latest) void save(id, graph, true);
    // Saves IndexedDB has not confirmed may not land once the page is gone: written again the page's
    // way, but where an edit just saved is newer.
    for (const [id, entry] of unconfirmed) if (!latest.has(id)) writeUrgently(id, entry);
    unconfirmed.clear();
    // A save still waiting for the lock (a graph opened just now, whose lock has not answered) is
    // kept in the journal only: whether it is this tab's is not known, and the next page weighs the
    // copy with the lock (restoreBackups), or opens it as the graph this tab had open.
    for (const [id, graph] of claiming) writeJournal(id, { name: graph.name, text: serializeGraph(graph), savedAt: stamp(), ...SAVE_STAMP });
    claiming.clear();
  };
  // A hidden page may be closed, or frozen and discarded, with no `pagehide` at all (a phone, a tab switched away from).
  const onHidden = () => {
    if (document.visibilityState === 'hidden') onPageHide();
  };

  /**
   * Graphs whose last edit only this browser's backup copy (the journal) holds: the tab that made
   * it left while IndexedDB did not answer, and no page has the graph open. Each goes back into its
   * graph once the library answers (a graph of its own when the library never had it), or, when
   * the library's save of it is newer (another tab saved it since), into a new graph; the person is
   * told, and nothing is left only in the backup.
   */
  const restoreBackups = async () => {
    const restored: string[] = [];
    for (const id of journaledIds(journal)) {
      const backup = readJournal(journal, id);
      // The open graph's backup is opened with it and saved by the saver; another tab's open graph is that tab's.
      if (!backup || id === useApp.getState().documentId || !(await claim(id))) continue;
      try {
        const entry = await library.read(id);
        if (readJournal(journal, id)?.savedAt !== backup.savedAt || id === useApp.getState().documentId) continue;
        if (entry?.text !== backup.text) {
          const parsed = await parseAside(backup.text, backup.schema);
          // A damaged backup stays as it is: nothing better of that edit exists.
          if (!parsed.ok) continue;
          const into = entry && entry.savedAt > backup.savedAt ? newDocumentId() : id;
          // Stamped with the time of its edit: a graph saved since, here or in another tab, stays the one a fresh tab opens.
          await library.write(into, parsed.value.name, backup.text, backup.savedAt);
          const saved: LibrarySummary = { id: into, name: parsed.value.name, savedAt: backup.savedAt };
          useLibrary.setState((state) => ({ entries: withSaved(state.entries, saved) }));
          locks.announceSaved(saved);
          restored.push(into === id ? `"${parsed.value.name}" was restored` : `"${parsed.value.name}" was restored as a new graph (its graph was saved elsewhere since)`);
        }
        journal.removeItem(JOURNAL_PREFIX + id);
      } catch (error) {
        // Left in the backup, to be tried again by the next page.
        fail(reasonOf(error));
      } finally {
        if (id !== useApp.getState().documentId) letGo(id);
      }
    }
    if (restored.length > 0)
      failRestore(`An edit made while the browser storage did not answer was kept in this browser's backup copy: ${restored.join('; ')}. It is in Graphs.`);
  };

  const opened = (id: string, graph: GraphFile) => {
    session.setItem(OPEN_KEY, id);
    useGraphTab.setState({ conflict: null });
    claimOpen(id);
    void save(id, graph);
    prepareWhenIdle(id);
  };
  const edited = (id: string, graph: GraphFile) => {
    if (timer !== null) clearTimeout(timer);
    pending = { id, graph };
    timer = setTimeout(saveWhenStill, delayMs);
  };
  /** A change from the graph's file on disk is what the file holds: not written back to it (an echo), where the next edit is. */
  const takenFromFile = (id: string, graph: GraphFile, text: string) => {
    if (pending?.id === id) takePending();
    lastSaved.set(id, text);
    // As opened: not written back until edited, so a file spaced by hand keeps its spacing.
    openedAsSaved.set(id, graph);
  };
  const unsubscribe = useApp.subscribe((state, previous) => {
    if (state.documentId !== previous.documentId) {
      // The graph left behind is saved under its own id before anything else, then another tab may have it.
      const left = previous.documentId;
      void flush().finally(() => {
        if (left !== useApp.getState().documentId) letGo(left);
      });
      opened(state.documentId, state.graph);
      return;
    }
    if (state.graph === previous.graph) return;
    const source = changeSource();
    if (source.from === 'disk') takenFromFile(state.documentId, state.graph, source.text);
    else edited(state.documentId, state.graph);
  });
  target.addEventListener('pagehide', onPageHide);
  target.addEventListener('visibilitychange', onHidden);
  // Another tab takes the open graph over: its last edit is saved first.
  locks.onHandover(async (id) => {
    if (pending?.id === id) await flush();
  });
  locks.onSaved((saved) => useLibrary.setState((state) => ({ entries: withSaved(state.entries, saved) })));
  // What happened before the saver started (the page's first screen: its graph opened, maybe edited) is saved as it would have been.
  const { documentId, graph } = useApp.getState();
  if (documentId !== persistence.startedWith.documentId) opened(documentId, graph);
  else {
    claimOpen(documentId);
    if (graph !== persistence.startedWith.graph) edited(documentId, graph);
  }
  void restoreBackups();
  void tellUnkept();
  // The list of graphs is read when the panel that shows it opens (GraphLibrary.tsx): reading it means
  // reading every graph's text, on the page's thread, a long task in the gesture that follows the first screen.
  // The folder's files change on disk too (an editor, `git checkout`): followed while the saver runs.
  const stopFollowing = library.files?.follow(persistence, saveNow);
  return {
    flush,
    saveNow,
    takeOver,
    stop: () => {
      stopped = true;
      stopFollowing?.();
      unsubscribe();
      target.removeEventListener('pagehide', onPageHide);
      target.removeEventListener('visibilitychange', onHidden);
      if (timer !== null) clearTimeout(timer);
      locks.close();
      onGesturesOver(null);
    },
  };
};
