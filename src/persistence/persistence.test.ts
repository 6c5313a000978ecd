import { IDBFactory, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { writeVersion1Autosave, writeVersion2Library } from './libraryDb.testing.ts';
import { DB_NAME, GRAPH_SCHEMA, LIBRARY_STORE } from './libraryDb.ts';
import { useApp } from '../store/index.ts';
import { indexedDbLibrary } from './indexedDbLibrary.ts';
import { COPIES_KEPT } from './libraryWrite.ts';
import { takeOverGraph, useGraphTab, useLibrary } from './libraryActions.ts';
import {
  holdAutosave,
  JOURNAL_PREFIX,
  OPEN_KEY,
  openAsNewGraph,
  openFromLibrary,
  restoreLastGraph,
  savingStarted,
  useAutosave,
  type LibraryEntry,
  type LibraryStorage,
  type SyncStorage,
} from './persistence.ts';
import { startPersistence } from './startPersistence.ts';
import type { GraphLocks } from './graphLocks.ts';
import { setKey } from '../network/secrets.ts';

const template = (id: string) => findTemplate(id)!.graph();
const rename = (name: string) => useApp.getState().edit((graph) => ({ ...graph, name }), 'name');

const memory = (): SyncStorage & { values: Map<string, string> } => {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
    key: (index) => [...values.keys()][index] ?? null,
    get length() {
      return values.size;
    },
  };
};

/** An in-memory library that can fail its writes or never finish them (a page that left too early). */
const fakeLibrary = (initial: LibraryEntry[] = []) => {
  const entries = new Map(initial.map((entry) => [entry.id, entry]));
  let last: string | undefined = initial[0]?.id;
  let failWith: Error | null = null;
  let hang = false;
  const library: LibraryStorage = {
    list: async () => [...entries.values()].map(({ id, name, savedAt }) => ({ id, name, savedAt })).sort((a, b) => b.savedAt - a.savedAt),
    read: async (id) => entries.get(id),
    write: (id, name, text, editedAt) => {
      if (hang) return new Promise(() => {});
      if (failWith) return Promise.reject(failWith);
      const old = entries.get(id);
      entries.set(id, { id, name, savedAt: editedAt ?? Date.now(), text, copies: old && old.text !== text ? [old.text, ...old.copies].slice(0, COPIES_KEPT) : (old?.copies ?? []) });
      // As IndexedDB's library: an edit written later than it was made is the last only when nothing was saved after it.
      if (editedAt === undefined || last === undefined || (entries.get(last)?.savedAt ?? 0) < editedAt) last = id;
      return Promise.resolve();
    },
    remove: async (id) => void entries.delete(id),
    lastSaved: async () => last,
  };
  return {
    library,
    entries,
    failWrites: (error: Error | null) => (failWith = error),
    hangWrites: () => (hang = true),
    names: () => [...entries.values()].map((entry) => JSON.parse(entry.text).name as string).sort(),
  };
};

const entryOf = (id: string, graph: ReturnType<typeof template>, copies: string[] = [], savedAt = 1000): LibraryEntry => ({ id, name: graph.name, savedAt, text: serializeGraph(graph), copies });

const fakeWindow = () => {
  const target = new EventTarget();
  return { target: target as unknown as Window, fire: (type: string) => target.dispatchEvent(new Event(type)) };
};

let stops: (() => void)[] = [];
const start = async (library: LibraryStorage, session = memory(), journal = memory(), page = fakeWindow()) => {
  stops.push(startPersistence({ library, session, journal, target: page.target, delayMs: 300 }));
  await savingStarted();
  return { session, journal, page };
};

beforeEach(() => {
  useApp.setState({ graph: template('securityclaw'), past: [], future: [], documentId: 'graph-initial' });
  useAutosave.setState({ error: null, restoreError: null });
  useLibrary.setState({ entries: [] });
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  vi.useRealTimers();
});

describe('saving', () => {
  beforeEach(() => vi.useFakeTimers());

  it('saves the open graph under its own id once after a burst of edits', async () => {
    const fake = fakeLibrary();
    await start(fake.library);
    rename('A');
    rename('AB');
    await vi.advanceTimersByTimeAsync(299);
    expect(fake.entries.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(JSON.parse(fake.entries.get('graph-initial')!.text).name).toBe('AB');
  });

  it('waits for a gesture on the canvas to end, then saves once', async () => {
    const fake = fakeLibrary();
    const { page, journal } = await start(fake.library);
    const release = holdAutosave();
    rename('Moved');
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.entries.size).toBe(0);
    // A second gesture starts as the first ends (a pan right after a drag): still nothing written.
    const pan = holdAutosave();
    release();
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.entries.size).toBe(0);
    pan();
    await vi.advanceTimersByTimeAsync(299);
    expect(fake.entries.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(JSON.parse(fake.entries.get('graph-initial')!.text).name).toBe('Moved');
    // Leaving the page mid-gesture still saves.
    const drag = holdAutosave();
    rename('Left mid-drag');
    fake.hangWrites();
    page.fire('pagehide');
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)!).text).toContain('Left mid-drag');
    // Stamped as the library's entries are, so a reload takes it as written (ownSave.ts).
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)!).schema).toBe(GRAPH_SCHEMA);
    drag();
  });

  it('opening another graph saves the edit left pending under the old id and never writes over it', async () => {
    const fake = fakeLibrary();
    const { session } = await start(fake.library);
    rename('Edited triage');
    openAsNewGraph(template('graph-engineer'));
    await vi.advanceTimersByTimeAsync(0);
    const newId = useApp.getState().documentId;
    expect(newId).not.toBe('graph-initial');
    expect(session.getItem(OPEN_KEY)).toBe(newId);
    expect(fake.names()).toEqual(['Edited triage', 'Graph Engineer']);
    rename('Engineer 2');
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.names()).toEqual(['Edited triage', 'Engineer 2']);
    expect(useLibrary.getState().entries.map((entry) => entry.name).sort()).toEqual(['Edited triage', 'Engineer 2']);
  });

  it('on pagehide the edit lands in the journal at once, and the next page opens it', async () => {
    const fake = fakeLibrary();
    const first = await start(fake.library);
    rename('Typed just before the reload');
    fake.hangWrites();
    first.page.fire('pagehide');
    // Synchronously: nothing awaited between the pagehide and this line.
    expect(JSON.parse(first.journal.getItem(`${JOURNAL_PREFIX}graph-initial`)!).text).toContain('Typed just before the reload');
    stops.pop()!();

    // The next page: the library never got the write, the journal has it.
    useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
    const reloaded = fakeLibrary();
    await start(reloaded.library, first.session, first.journal);
    await restoreLastGraph();
    expect(useApp.getState().documentId).toBe('graph-initial');
    expect(useApp.getState().graph.name).toBe('Typed just before the reload');
    await vi.advanceTimersByTimeAsync(0);
    // Written to IndexedDB on opening; the journal's copy goes once it is there.
    expect(reloaded.names()).toEqual(['Typed just before the reload']);
    expect(first.journal.getItem(`${JOURNAL_PREFIX}graph-initial`)).toBeNull();
  });

  it('a graph opened just before the page goes, its lock not answered yet, lands in the journal and the next page opens it', async () => {
    const fake = fakeLibrary();
    const session = memory();
    const journal = memory();
    const page = fakeWindow();
    // The lock of a graph opened now answers only after the page has gone (a loaded machine).
    const locks: GraphLocks = { ...otherTabHolds([]).locks, claim: (id) => (id === 'graph-initial' ? Promise.resolve(true) : new Promise(() => {})) };
    stops.push(startPersistence({ library: fake.library, session, journal, target: page.target, delayMs: 300, locks }));
    await savingStarted();
    openAsNewGraph({ ...template('graph-engineer'), name: 'Imported just before the reload' });
    const id = useApp.getState().documentId;
    await vi.advanceTimersByTimeAsync(0);
    page.fire('pagehide');
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}${id}`)!).text).toContain('Imported just before the reload');
    stops.pop()!();

    useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
    await start(fakeLibrary().library, session, journal);
    await restoreLastGraph();
    expect(useApp.getState().documentId).toBe(id);
    expect(useApp.getState().graph.name).toBe('Imported just before the reload');
  });

  it('writes no journal copy of a save IndexedDB takes, and one of a save still on its way when the page leaves', async () => {
    const fake = fakeLibrary();
    const { page, journal } = await start(fake.library);
    rename('Landed');
    await vi.advanceTimersByTimeAsync(300);
    expect(JSON.parse(fake.entries.get('graph-initial')!.text).name).toBe('Landed');
    expect(journal.values.size).toBe(0);
    fake.hangWrites();
    rename('On its way');
    await vi.advanceTimersByTimeAsync(300);
    expect(journal.values.size).toBe(0);
    page.fire('pagehide');
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)!).text).toContain('On its way');
  });

  it("an autosave is written aside; one still on its way as the page goes is written again by the page, even when its journal copy does not fit", async () => {
    const fake = fakeLibrary();
    const written: string[] = [];
    const aside: string[] = [];
    const library: LibraryStorage = {
      ...fake.library,
      write: (id, name, text, editedAt) => (written.push(JSON.parse(text).name), fake.library.write(id, name, text, editedAt)),
      // The worker's write, never answered: the page leaves first; the page's own, committed at once.
      autosave: (id, name, text, leaving) => (leaving ? library.write(id, name, text) : (aside.push(JSON.parse(text).name), new Promise(() => {}))),
    };
    const full = memory();
    full.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const { page } = await start(library, memory(), full);
    rename('Big edit');
    await vi.advanceTimersByTimeAsync(300);
    expect({ aside, written }).toEqual({ aside: ['Big edit'], written: [] });
    page.fire('pagehide');
    // Started in the pagehide's own task: nothing awaited since.
    expect(written).toEqual(['Big edit']);
    await vi.advanceTimersByTimeAsync(0);
    expect(JSON.parse(fake.entries.get('graph-initial')!.text).name).toBe('Big edit');
  });

  it('a big graph imported and edited just before a reload, none of its writes landed and its copy as written too big for the journal: the next page opens it, with the edit', async () => {
    const fake = fakeLibrary();
    // The worker's first save and the page's own as it goes both still on their way when the page is gone.
    const library: LibraryStorage = { ...fake.library, write: () => new Promise(() => {}), autosave: () => new Promise(() => {}) };
    const imported = { ...template('securityclaw'), name: 'Imported big graph' };
    // As Chromium's localStorage (5.2M characters) with a 10,000-node graph: its copy as written is
    // 6.8M characters, the same graph without the file's spacing 3.7M.
    const spaced = JSON.stringify({ text: serializeGraph(imported) }).length;
    const compact = JSON.stringify({ text: JSON.stringify(imported) }).length;
    const journal = memory();
    const put = journal.setItem;
    journal.setItem = (key, value) => {
      if (value.length > (spaced + compact) / 2) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      put(key, value);
    };
    const first = await start(library, memory(), journal);
    openAsNewGraph(imported);
    const id = useApp.getState().documentId;
    await vi.advanceTimersByTimeAsync(0);
    rename('Edited just before the reload');
    first.page.fire('pagehide');
    stops.pop()!();

    useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
    await start(fakeLibrary().library, first.session, journal);
    await restoreLastGraph();
    expect(useApp.getState().documentId).toBe(id);
    expect(useApp.getState().graph.name).toBe('Edited just before the reload');
    expect(useApp.getState().graph.nodes).toEqual(imported.nodes);
  });

  it.each([
    ['waiting for its save', 0],
    ["handed to the worker, behind the first save's write", 300],
  ])("a big graph's first save, on its way as the page goes, landing after the journal copy of the edit made since (%s): the next page opens the edit", async (_, waited) => {
    const fake = fakeLibrary();
    // The worker's write of the graph as imported lands once the page's journal copy is written
    // (the worker's thread is not held by the page's pagehide); the page's own write never lands.
    const landing: (() => Promise<void>)[] = [];
    const library: LibraryStorage = {
      ...fake.library,
      write: () => new Promise(() => {}),
      autosave: (id, name, text, leaving, editedAt) =>
        leaving ? new Promise(() => {}) : new Promise((resolve) => landing.push(() => fake.library.write(id, name, text, editedAt).then(resolve))),
    };
    const first = await start(library);
    openAsNewGraph({ ...template('graph-engineer'), name: 'Imported big graph' });
    const id = useApp.getState().documentId;
    await vi.advanceTimersByTimeAsync(0);
    expect(landing).toHaveLength(1);
    rename('Edited just before the reload');
    await vi.advanceTimersByTimeAsync(waited);
    first.page.fire('pagehide');
    stops.pop()!();
    await vi.advanceTimersByTimeAsync(5);
    await landing[0]();
    expect(JSON.parse(fake.entries.get(id)!.text).name).toBe('Imported big graph');

    useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
    await start(fake.library, first.session, first.journal);
    await restoreLastGraph();
    expect(useApp.getState().documentId).toBe(id);
    expect(useApp.getState().graph.name).toBe('Edited just before the reload');
    // The next page saves the edit, and only then is the journal's copy done with.
    await vi.advanceTimersByTimeAsync(0);
    expect(JSON.parse(fake.entries.get(id)!.text).name).toBe('Edited just before the reload');
    expect(first.journal.getItem(`${JOURNAL_PREFIX}${id}`)).toBeNull();
  });

  it('a graph too big for the journal even unspaced, whose write as the page goes did not land: the next page says the edit was lost; not when it landed', async () => {
    const full = memory();
    full.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const leave = async (lands: boolean) => {
      const fake = fakeLibrary();
      const landed: Promise<void>[] = [];
      const library: LibraryStorage = {
        ...fake.library,
        autosave: (id, name, text, leaving, editedAt) => (leaving && lands ? (landed.push(fake.library.write(id, name, text, editedAt)), landed[0]) : new Promise(() => {})),
      };
      useApp.setState({ graph: template('securityclaw'), documentId: 'graph-initial' });
      const first = await start(library, memory(), full);
      openAsNewGraph({ ...template('graph-engineer'), name: 'Too big' });
      await vi.advanceTimersByTimeAsync(0);
      rename('Edited just before the reload');
      first.page.fire('pagehide');
      stops.pop()!();
      await Promise.all(landed);
      useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
      useAutosave.setState({ restoreError: null });
      await start(fake.library, first.session, full);
      await restoreLastGraph();
      await vi.advanceTimersByTimeAsync(0);
      stops.pop()!();
      return { name: useApp.getState().graph.name, said: useAutosave.getState().restoreError };
    };
    expect(await leave(true)).toEqual({ name: 'Edited just before the reload', said: null });
    const lost = await leave(false);
    expect(lost.name).not.toBe('Edited just before the reload');
    expect(lost.said).toBe(
      `The last edit of "Edited just before the reload" was lost as the page went: the graph is too big for this browser's backup copy, and the browser storage had not saved it yet. It had never been saved.`,
    );
  });

  it('a page hidden (a tab switched away from, a phone) keeps the pending edit as pagehide does', async () => {
    const fake = fakeLibrary();
    const { page, journal } = await start(fake.library);
    fake.hangWrites();
    rename('Hidden mid-edit');
    const shown = { visibilityState: 'visible' };
    vi.stubGlobal('document', shown);
    page.fire('visibilitychange');
    expect(journal.values.size).toBe(0);
    shown.visibilityState = 'hidden';
    page.fire('visibilitychange');
    vi.unstubAllGlobals();
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)!).text).toContain('Hidden mid-edit');
  });

  it('a reload while an edit\'s text is still being written and a second edit waits: hidden, then pagehide, the journal and the library keep the second', async () => {
    const fake = fakeLibrary();
    const { page, journal, session } = await start(fake.library);
    // Each look at the clock finds a slice's time spent: the first edit's text is written a slice per task.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    rename('First edit');
    await vi.advanceTimersByTimeAsync(299);
    await vi.advanceTimersToNextTimerAsync();
    rename('Second edit');
    // A reload: the page is hidden (visibilitychange), then goes (pagehide).
    const shown = { visibilityState: 'hidden' };
    vi.stubGlobal('document', shown);
    page.fire('visibilitychange');
    page.fire('pagehide');
    vi.unstubAllGlobals();
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)!).text).toContain('Second edit');
    // The first edit's text, finished after (a tab hidden, not gone), is not written over the second.
    await vi.advanceTimersByTimeAsync(1000);
    stops.pop()!();
    vi.mocked(performance.now).mockRestore();
    expect(JSON.parse(fake.entries.get('graph-initial')!.text).name).toBe('Second edit');

    useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
    await start(fake.library, session, journal);
    await restoreLastGraph();
    expect(useApp.getState().graph.name).toBe('Second edit');
  });

  it('shows a failed write, keeps the graph and its journal, and clears the message once a write works', async () => {
    const fake = fakeLibrary();
    const { journal } = await start(fake.library);
    fake.failWrites(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    rename('Big');
    await vi.advanceTimersByTimeAsync(300);
    expect(useAutosave.getState().error).toBe("Autosave failed: the browser's storage for this site is full. Your graph is kept in this tab and in this browser's backup copy, which a reload opens; the next edit tries again.");
    expect(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)).toContain('Big');
    fake.failWrites(null);
    rename('Smaller');
    await vi.advanceTimersByTimeAsync(300);
    expect(useAutosave.getState().error).toBeNull();
    expect(journal.getItem(`${JOURNAL_PREFIX}graph-initial`)).toBeNull();
  });

  it('never stores an API key', async () => {
    setKey('OPENAI_API_KEY', 'https://api.openai.com', 'sk-secret-123');
    const fake = fakeLibrary();
    const { journal } = await start(fake.library);
    rename('With key');
    await vi.advanceTimersByTimeAsync(300);
    expect([...fake.entries.values()].map((entry) => entry.text).join('')).not.toContain('sk-secret-123');
    expect([...journal.values.values()].join('')).not.toContain('sk-secret-123');
  });
});

/** Locks as another tab would hold them: `held` ids are the other tab's until taken over. */
const otherTabHolds = (held: string[]) => {
  const taken: string[] = [];
  const announced: string[] = [];
  const locks: GraphLocks = {
    claim: (id) => Promise.resolve(!held.includes(id)),
    takeOver: async (id) => void taken.push(id),
    release: () => {},
    onHandover: () => {},
    announceSaved: (entry) => void announced.push(entry.name),
    onSaved: () => {},
    close: () => {},
  };
  return { locks, taken, announced };
};

describe('two tabs on one graph', () => {
  beforeEach(() => vi.useFakeTimers());

  it('a graph another tab holds is not saved here and says so; taken over, it opens its latest save and saves again', async () => {
    const fake = fakeLibrary([entryOf('graph-shared', { ...template('securityclaw'), name: 'Saved by the other tab' })]);
    const other = otherTabHolds(['graph-shared']);
    const session = memory();
    session.setItem(OPEN_KEY, 'graph-shared');
    stops.push(startPersistence({ library: fake.library, session, journal: memory(), target: fakeWindow().target, delayMs: 0, locks: other.locks }));
    await savingStarted();
    await restoreLastGraph();
    await vi.advanceTimersByTimeAsync(0);
    expect(useGraphTab.getState().conflict).toBe('elsewhere');
    rename('Edited in the second tab');
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.names()).toEqual(['Saved by the other tab']);

    await takeOverGraph();
    expect(other.taken).toEqual(['graph-shared']);
    expect(useGraphTab.getState().conflict).toBeNull();
    // The other tab's save, not this tab's unsaved edit.
    expect(useApp.getState().graph.name).toBe('Saved by the other tab');
    rename('Mine now');
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.names()).toEqual(['Mine now']);
    // The list and the other tabs learn of the save from what was written.
    expect(useLibrary.getState().entries.map((entry) => entry.name)).toContain('Mine now');
    expect(other.announced).toContain('Mine now');
  });
});

describe('the saver, started once the first screen is drawn', () => {
  beforeEach(() => vi.useFakeTimers());

  const startLate = (library: LibraryStorage, session = memory()) => {
    let drawn!: () => void;
    stops.push(startPersistence({ library, session, journal: memory(), target: fakeWindow().target, delayMs: 300, savingFrom: new Promise<void>((resolve) => (drawn = resolve)) }));
    return async () => {
      drawn();
      await savingStarted();
    };
  };

  it('writes nothing for a graph restored as it was saved, and holds it for this tab', async () => {
    const fake = fakeLibrary([entryOf('graph-a', template('graph-engineer'))]);
    const session = memory();
    const drawn = startLate(fake.library, session);
    await restoreLastGraph();
    expect(session.getItem(OPEN_KEY)).toBeNull();
    const write = vi.spyOn(fake.library, 'write');
    await drawn();
    await vi.advanceTimersByTimeAsync(1000);
    expect(write).not.toHaveBeenCalled();
    expect(session.getItem(OPEN_KEY)).toBe('graph-a');
    // Nor reads the whole library for its list: the panel that shows it does.
    expect(useLibrary.getState().entries).toEqual([]);
  });

  it('saves as it starts an edit made before, to a graph restored before', async () => {
    const fake = fakeLibrary([entryOf('graph-a', template('graph-engineer'))]);
    const drawn = startLate(fake.library);
    await restoreLastGraph();
    rename('Edited before the saver');
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.names()).toEqual(['Graph Engineer']);
    await drawn();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.names()).toEqual(['Edited before the saver']);
  });

  it('saves an edit made before it started to the graph it started with, as a debounced save', async () => {
    const fake = fakeLibrary();
    const drawn = startLate(fake.library);
    rename('Edited before the saver');
    await drawn();
    expect(fake.entries.size).toBe(0);
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.names()).toEqual(['Edited before the saver']);
  });

  it('keeps a graph opened, or an edit made, before it started when the page goes first, and the next page opens it', async () => {
    const fake = fakeLibrary([entryOf('graph-a', template('graph-engineer'))]);
    const session = memory();
    const journal = memory();
    const page = fakeWindow();
    // The saver never starts on this page: it goes before its first screen is drawn.
    stops.push(startPersistence({ library: fake.library, session, journal, target: page.target, delayMs: 300, savingFrom: new Promise(() => {}) }));
    await restoreLastGraph();
    // As restored, nothing is written as the page goes.
    page.fire('pagehide');
    expect(journal.values.size).toBe(0);
    openAsNewGraph({ ...template('blank'), name: 'Imported before the saver' });
    const id = useApp.getState().documentId;
    page.fire('pagehide');
    // Synchronously, as the page goes.
    expect(JSON.parse(journal.getItem(`${JOURNAL_PREFIX}${id}`)!).text).toContain('Imported before the saver');
    stops.pop()!();

    useApp.setState({ graph: template('blank'), documentId: 'graph-other' });
    await start(fake.library, session, journal);
    await restoreLastGraph();
    expect(useApp.getState().documentId).toBe(id);
    expect(useApp.getState().graph.name).toBe('Imported before the saver');
    await vi.advanceTimersByTimeAsync(0);
    // Written to the library once a saver runs; the journal's copy goes once it is there.
    expect(fake.names()).toEqual(['Graph Engineer', 'Imported before the saver']);
    expect(journal.getItem(`${JOURNAL_PREFIX}${id}`)).toBeNull();
  });

  it("writes at once a graph opened as new before it started (the first visit's template)", async () => {
    const fake = fakeLibrary();
    const drawn = startLate(fake.library);
    await restoreLastGraph();
    const id = useApp.getState().documentId;
    expect(fake.entries.size).toBe(0);
    await drawn();
    await vi.advanceTimersByTimeAsync(0);
    expect([...fake.entries.keys()]).toEqual([id]);
  });
});

describe('restoring', () => {
  it("opens this tab's graph over the one saved last in another tab", async () => {
    const fake = fakeLibrary([entryOf('graph-b', { ...template('blank'), name: 'Saved last elsewhere' }, [], 2000), entryOf('graph-a', template('graph-engineer'))]);
    const session = memory();
    session.setItem(OPEN_KEY, 'graph-a');
    await start(fake.library, session);
    await restoreLastGraph();
    expect(useApp.getState().graph.name).toBe('Graph Engineer');
    expect(useApp.getState().documentId).toBe('graph-a');
    expect(useApp.getState().past).toEqual([]);

    // A new tab has no graph of its own: the one saved last.
    await start(fake.library);
    await restoreLastGraph();
    expect(useApp.getState().graph.name).toBe('Saved last elsewhere');
  });

  it('a save spaced otherwise than a save writes is opened as it is, not written again, until it is edited', async () => {
    const compact = JSON.stringify(JSON.parse(serializeGraph(template('graph-engineer'))));
    const fake = fakeLibrary([{ id: 'graph-a', name: 'Graph Engineer', savedAt: 1000, text: compact, copies: [] }]);
    const journal = memory();
    await start(fake.library, memory(), journal);
    expect(await openFromLibrary('graph-a')).toBe(true);
    await vi.waitFor(() => expect(useGraphTab.getState().conflict).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.entries.get('graph-a')!.text).toBe(compact);
    expect(journal.values.size).toBe(0);
    rename('Edited');
    await vi.waitFor(() => expect(fake.names()).toEqual(['Edited']));
  });

  it('a damaged save opens its last good copy and says so', async () => {
    const good = { ...template('graph-engineer'), name: 'Good copy' };
    const fake = fakeLibrary([{ ...entryOf('graph-a', good, [serializeGraph(good)]), text: '{"format":"loopscope/graph","version":1,"name":"x","entry":"a","nodes":[{"id":"a","kind":"nope"}]}' }]);
    await start(fake.library);
    await restoreLastGraph();
    expect(useApp.getState().graph.name).toBe('Good copy');
    expect(useApp.getState().documentId).toBe('graph-a');
    expect(useAutosave.getState().restoreError).toMatch(/^The last save of "Good copy" was damaged \(nodes\[0\]\.kind.*last good copy was opened\.$/);
  });

  it('a save damaged with all its copies stays as it was; the default graph opens as a new graph', async () => {
    const damaged = { id: 'graph-a', name: 'Broken', savedAt: 1, text: '{oops', copies: ['{also broken'] };
    const fake = fakeLibrary([damaged]);
    await start(fake.library);
    await restoreLastGraph();
    expect(useApp.getState().graph.name).toBe('SecurityClaw triage');
    expect(useApp.getState().documentId).not.toBe('graph-a');
    expect(useAutosave.getState().restoreError).toMatch(/"Broken" is damaged and was not opened \(not JSON.*kept as it was\.$/);
    await vi.waitFor(() => expect(fake.entries.size).toBe(2));
    expect(fake.entries.get('graph-a')).toEqual(damaged);
  });

  it('storage that never answers is reported and the app goes on', async () => {
    const library: LibraryStorage = { ...fakeLibrary().library, lastSaved: () => new Promise(() => {}) };
    stops.push(startPersistence({ library, session: memory(), journal: memory(), target: fakeWindow().target, timeoutMs: 20 }));
    await restoreLastGraph();
    expect(useAutosave.getState().restoreError).toContain('did not answer');
    expect(useApp.getState().graph.name).toBe('SecurityClaw triage');
  });

  it('a library with no time limit (the folder of loopscope open, reading a 10,000-node file) is waited for as long as its read takes (issue 57)', async () => {
    const fake = fakeLibrary([entryOf('graph-big', template('graph-engineer'))]);
    const library: LibraryStorage = { ...fake.library, read: async (id) => (await new Promise((resolve) => setTimeout(resolve, 60)), fake.library.read(id)) };
    const session = memory();
    session.setItem(OPEN_KEY, 'graph-big');
    stops.push(startPersistence({ library, session, journal: memory(), target: fakeWindow().target, timeoutMs: Number.POSITIVE_INFINITY }));
    await restoreLastGraph();
    expect(useAutosave.getState().restoreError).toBeNull();
    expect(useApp.getState().documentId).toBe('graph-big');
    expect(useApp.getState().graph.name).toBe(template('graph-engineer').name);
  });

  it('a library that does not answer opens the graph from its backup copy, says so, and saves it once it answers', async () => {
    const fake = fakeLibrary([entryOf('graph-edited', template('graph-engineer'))]);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const library: LibraryStorage = { ...fake.library, read: async (id) => (await answered, fake.library.read(id)), write: async (...args) => (await answered, fake.library.write(...args)) };
    const session = memory();
    const journal = memory();
    session.setItem(OPEN_KEY, 'graph-edited');
    journal.setItem(`${JOURNAL_PREFIX}graph-edited`, JSON.stringify({ name: 'Edited offline', text: serializeGraph({ ...template('graph-engineer'), name: 'Edited offline' }), savedAt: 2000 }));
    stops.push(startPersistence({ library, session, journal, target: fakeWindow().target, timeoutMs: 20 }));
    await restoreLastGraph();
    expect(useApp.getState().documentId).toBe('graph-edited');
    expect(useApp.getState().graph.name).toBe('Edited offline');
    expect(useAutosave.getState().restoreError).toBe('Opened from a backup copy: the browser storage did not answer.');
    await savingStarted();
    answer();
    await vi.waitFor(() => expect(fake.names()).toEqual(['Edited offline']));
    await vi.waitFor(() => expect(journal.getItem(`${JOURNAL_PREFIX}graph-edited`)).toBeNull());
  });

  it('a graph only a backup copy holds goes back into the library, into its own graph or, when its save is newer, into a new one, and is said', async () => {
    const journaled = (name: string, savedAt: number) => JSON.stringify({ name, text: serializeGraph({ ...template('blank'), name }), savedAt });
    const fake = fakeLibrary([entryOf('graph-saved-since', template('graph-engineer'), [], 5000), entryOf('graph-same', template('approval-gate'), [], 5000)]);
    const journal = memory();
    journal.setItem(`${JOURNAL_PREFIX}graph-never-saved`, journaled('Never saved', 3000));
    journal.setItem(`${JOURNAL_PREFIX}graph-saved-since`, journaled('Older edit', 3000));
    journal.setItem(`${JOURNAL_PREFIX}graph-same`, JSON.stringify({ name: 'Approval gate', text: serializeGraph(template('approval-gate')), savedAt: 3000 }));
    await start(fake.library, memory(), journal);
    await vi.waitFor(() => expect(useAutosave.getState().restoreError).toBe('An edit made while the browser storage did not answer was kept in this browser\'s backup copy: "Never saved" was restored; "Older edit" was restored as a new graph (its graph was saved elsewhere since). It is in Graphs.'));
    expect(fake.names()).toEqual(['Approval gate', 'Graph Engineer', 'Never saved', 'Older edit']);
    expect(JSON.parse(fake.entries.get('graph-never-saved')!.text).name).toBe('Never saved');
    expect(journal.values.size).toBe(0);
    expect(useLibrary.getState().entries.map((entry) => entry.name).sort()).toEqual(['Never saved', 'Older edit']);
  });

  it('a backup copy restored after another graph was saved keeps the time of its edit: a fresh tab still opens the graph saved last', async () => {
    const fake = fakeLibrary([entryOf('graph-initial', template('blank'))]);
    const journal = memory();
    journal.setItem(`${JOURNAL_PREFIX}graph-left`, JSON.stringify({ name: 'Edited before', text: serializeGraph({ ...template('blank'), name: 'Edited before' }), savedAt: 2000 }));
    // The graph this page opened is saved (now) before the backup copy goes back into the library.
    let release = () => {};
    const read = fake.library.read;
    fake.library.read = async (id) => {
      if (id === 'graph-left') await new Promise<void>((resolve) => (release = resolve));
      return read(id);
    };
    await start(fake.library, memory(), journal);
    rename('Saved last');
    await vi.waitFor(() => expect(fake.names()).toContain('Saved last'));
    release();
    await vi.waitFor(() => expect(journal.values.size).toBe(0));
    expect(fake.entries.get('graph-left')?.savedAt).toBe(2000);
    expect(useLibrary.getState().entries.find((entry) => entry.id === 'graph-left')?.savedAt).toBe(2000);
    expect(await fake.library.lastSaved()).toBe('graph-initial');
  });

  it('opening a graph of the library saves the open one first', async () => {
    const fake = fakeLibrary([entryOf('graph-a', template('graph-engineer'))]);
    await start(fake.library);
    rename('Left mid-edit');
    expect(await openFromLibrary('graph-a')).toBe(true);
    await vi.waitFor(() => expect(fake.names()).toEqual(['Graph Engineer', 'Left mid-edit']));
    expect(await openFromLibrary('graph-missing')).toBe(false);
  });
});

describe('indexedDbLibrary', () => {
  it('writes, reads back, lists newest first and keeps the last good copies', async () => {
    const library = indexedDbLibrary(new IDBFactory());
    await library.write('a', 'A', 'one');
    await library.write('b', 'B', 'first b');
    for (const text of ['two', 'three', 'four', 'five']) await library.write('a', 'A', text);
    await library.write('a', 'A', 'five');
    const entry = await library.read('a');
    expect(entry?.text).toBe('five');
    expect(entry?.copies).toEqual(['four', 'three', 'two'].slice(0, COPIES_KEPT));
    expect((await library.list()).map((summary) => summary.id)).toEqual(['a', 'b']);
    expect(await library.lastSaved()).toBe('a');
    await library.remove('b');
    expect((await library.list()).map((summary) => summary.id)).toEqual(['a']);
  });

  it('an edit written later than it was made keeps its time, and is the graph saved last only when nothing was saved after it', async () => {
    const library = indexedDbLibrary(new IDBFactory());
    await library.write('a', 'A', 'saved now');
    await library.write('b', 'B', 'an older edit', 1000);
    expect((await library.read('b'))?.savedAt).toBe(1000);
    expect(await library.lastSaved()).toBe('a');
    await library.write('c', 'C', 'a newer edit', Date.now() + 60_000);
    expect(await library.lastSaved()).toBe('c');
  });

  it('a put a full storage refuses rejects with that refusal, not with "Uncaught exception in event handler"', async () => {
    const library = indexedDbLibrary(new IDBFactory());
    await library.write('a', 'A', 'one');
    const put = vi.spyOn(FakeObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      await expect(library.write('a', 'A', 'two')).rejects.toMatchObject({ name: 'QuotaExceededError' });
    } finally {
      put.mockRestore();
    }
    expect((await library.read('a'))?.text).toBe('one');
  });

  it('a save neither reads nor writes the copies it keeps: they are in a store of their own', async () => {
    const factory = new IDBFactory();
    const library = indexedDbLibrary(factory);
    for (const text of ['one', 'two', 'three']) await library.write('a', 'A', text);
    const db = await new Promise<IDBDatabase>((resolve) => {
      const open = factory.open(DB_NAME);
      open.onsuccess = () => resolve(open.result);
    });
    const stored = await new Promise<unknown>((resolve) => {
      const get = db.transaction(LIBRARY_STORE).objectStore(LIBRARY_STORE).get('a');
      get.onsuccess = () => resolve(get.result);
    });
    db.close();
    // The entry a save reads back and writes holds its own text only, whatever the number of copies.
    expect(stored).not.toHaveProperty('copies');
    expect((await library.read('a'))?.copies).toEqual(['two', 'one']);
    await library.remove('a');
    await library.write('a', 'A', 'again');
    expect((await library.read('a'))?.copies).toEqual([]);
  });

  it('a save as the page goes is put and committed in its own task, with nothing read first, stamped with the time the page took it', async () => {
    const library = indexedDbLibrary(new IDBFactory());
    await library.write('a', 'A', 'one');
    const get = vi.spyOn(FakeObjectStore.prototype, 'get');
    const landed = library.autosave!('a', 'A', 'as the page goes', true, 1234);
    get.mockRestore();
    expect(get).not.toHaveBeenCalled();
    await landed;
    expect(await library.read('a')).toMatchObject({ text: 'as the page goes', savedAt: 1234, copies: [] });
    expect(await library.lastSaved()).toBe('a');
  });

  it("an autosave's entry keeps the time the page took the graph, not the time its write landed", async () => {
    const library = indexedDbLibrary(new IDBFactory());
    await library.autosave!('a', 'A', 'taken at 1234', false, 1234);
    expect(await library.read('a')).toMatchObject({ text: 'taken at 1234', savedAt: 1234 });
    expect(await library.lastSaved()).toBe('a');
  });

  it('upgrades a version 2 library: every graph, its copies newest first, the graph saved last', async () => {
    const factory = new IDBFactory();
    await writeVersion2Library(
      factory,
      [
        { id: 'a', name: 'A', savedAt: 5000, text: 'a now', copies: ['a before', 'a long before', 'a first'] },
        { id: 'b', name: 'B', savedAt: 6000, text: 'b now', copies: [] },
      ],
      'b',
    );
    const library = indexedDbLibrary(factory);
    expect((await library.list()).map((summary) => summary.id)).toEqual(['b', 'a']);
    expect(await library.read('a')).toMatchObject({ text: 'a now', savedAt: 5000, copies: ['a before', 'a long before', 'a first'] });
    expect(await library.read('b')).toMatchObject({ text: 'b now', copies: [] });
    expect(await library.lastSaved()).toBe('b');
    // Saved again: the replaced text is the newest copy, and the oldest goes.
    await library.write('a', 'A', 'a edited');
    expect((await library.read('a'))?.copies).toEqual(['a now', 'a before', 'a long before']);
  });

  it('takes the version 1 autosave into the library', async () => {
    const factory = new IDBFactory();
    await writeVersion1Autosave(factory, serializeGraph({ ...template('blank'), name: 'From version 1' }));
    const library = indexedDbLibrary(factory);
    const [summary] = await library.list();
    expect(summary.name).toBe('From version 1');
    expect(await library.lastSaved()).toBe(summary.id);
  });
});
