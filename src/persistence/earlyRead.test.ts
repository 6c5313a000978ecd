import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph } from '../graph/index.ts';
import * as parseModule from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { putEntry, writeVersion1Autosave } from './libraryDb.testing.ts';
import { readSavedEarly } from './earlyRead.ts';
import { useApp } from '../store/index.ts';
import { GRAPH_SCHEMA, OPEN_KEY, readSaved } from './libraryDb.ts';
import { indexedDbLibrary } from './indexedDbLibrary.ts';
import { JOURNAL_PREFIX, openFromLibrary, restoreLastGraph, useAutosave, type LibraryStorage, memoryStorage, type SyncStorage } from './persistence.ts';
import { startPersistence } from './startPersistence.ts';

vi.mock('../graph/parse.ts', { spy: true });

const template = (id: string) => findTemplate(id)!.graph();

const memory = (): SyncStorage => memoryStorage();

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  vi.unstubAllGlobals();
});

describe('readSaved', () => {
  it('reads nothing from a library not made yet, and leaves it for the page to make', async () => {
    const factory = new IDBFactory();
    expect(await readSaved(factory, undefined)).toBeNull();
    const library = indexedDbLibrary(factory);
    await library.write('graph-a', 'A', 'text');
    expect(await library.lastSaved()).toBe('graph-a');
  });

  it('leaves a version 1 autosave for the page to take into the library', async () => {
    const factory = new IDBFactory();
    await writeVersion1Autosave(factory, serializeGraph({ ...template('blank'), name: 'From version 1' }));
    expect(await readSaved(factory, undefined)).toBeNull();
    const [summary] = await indexedDbLibrary(factory).list();
    expect(summary.name).toBe('From version 1');
  });

  it("stamps every save with this build's graph layer", async () => {
    const factory = new IDBFactory();
    await indexedDbLibrary(factory).write('graph-a', 'A', 'text');
    expect(GRAPH_SCHEMA).toMatch(/^[0-9a-f]{16}$/);
    expect(await readSaved(factory, 'graph-a')).toMatchObject({ entry: { text: 'text', schema: GRAPH_SCHEMA } });
  });

  it("reads the tab's graph, else the one saved last", async () => {
    const factory = new IDBFactory();
    const library = indexedDbLibrary(factory);
    await library.write('graph-a', 'A', 'text a');
    await library.write('graph-b', 'B', 'text b');
    expect(await readSaved(factory, 'graph-a')).toMatchObject({ id: 'graph-a', entry: { name: 'A', text: 'text a' } });
    expect(await readSaved(factory, undefined)).toMatchObject({ id: 'graph-b', entry: { name: 'B', text: 'text b' } });
    expect(await readSaved(factory, 'graph-gone')).toEqual({ id: 'graph-gone', entry: undefined });
  });
});

describe('opening the saved graph read as the page loaded', () => {
  let factory: IDBFactory;
  let session: SyncStorage;
  let reads: number;
  /** A save as this build writes it; `schema` as another build stamped it (undefined: a build from before the stamps). */
  const seed = async (id: string, texts: { text: string; copies?: string[]; schema?: string | undefined }) => {
    const library = indexedDbLibrary(factory);
    if (texts.copies) for (const copy of [...texts.copies].reverse()) await library.write(id, 'seeded', copy);
    await library.write(id, 'seeded', texts.text);
    if ('schema' in texts) await putEntry(factory, { ...(await library.read(id))!, schema: texts.schema });
  };
  /** A page whose first script ran before its entry (`firstScriptFirst`), or after it. */
  const startPage = async (journal = memory(), firstScriptFirst = true) => {
    if (firstScriptFirst) readSavedEarly();
    const library = indexedDbLibrary(factory);
    const counted: LibraryStorage = { ...library, read: (id) => ((reads += 1), library.read(id)) };
    stops.push(startPersistence({ library: counted, session, journal, target: new EventTarget() as unknown as Window, delayMs: 300 }));
    await restoreLastGraph();
  };

  beforeEach(() => {
    factory = new IDBFactory();
    session = memory();
    reads = 0;
    vi.stubGlobal('indexedDB', factory);
    vi.stubGlobal('sessionStorage', session);
    useApp.setState({ graph: template('blank'), past: [], future: [], documentId: 'graph-initial' });
    useAutosave.setState({ error: null, restoreError: null });
  });

  it('opens the entry it read, without reading it again', async () => {
    await seed('graph-a', { text: serializeGraph(template('graph-engineer')) });
    session.setItem(OPEN_KEY, 'graph-a');
    await startPage();
    expect(useApp.getState().documentId).toBe('graph-a');
    expect(useApp.getState().graph.name).toBe('Graph Engineer');
    expect(reads).toBe(0);
  });

  it('reads the save early, once, where the page ran before its first script', async () => {
    await seed('graph-a', { text: serializeGraph(template('graph-engineer')) });
    session.setItem(OPEN_KEY, 'graph-a');
    const open = vi.spyOn(factory, 'open');
    await startPage(memory(), false);
    // The first script, late: the read it would start is the one made already.
    readSavedEarly();
    expect(useApp.getState().graph.name).toBe('Graph Engineer');
    expect(reads).toBe(0);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it("takes a save this build wrote as it was written, without the schemas' check", async () => {
    const graph = template('graph-engineer');
    await seed('graph-a', { text: serializeGraph(graph) });
    session.setItem(OPEN_KEY, 'graph-a');
    vi.mocked(parseModule.parseGraph).mockClear();
    await startPage();
    expect(useApp.getState().graph).toEqual(graph);
    expect(vi.mocked(parseModule.parseGraph)).not.toHaveBeenCalled();
  });

  it("parses another build's save once, as it was read, not again for the page", async () => {
    for (const schema of [undefined, 'another-build']) {
      const text = serializeGraph(template('graph-engineer'));
      await seed('graph-a', { text, schema });
      session.setItem(OPEN_KEY, 'graph-a');
      vi.mocked(parseModule.parseGraph).mockClear();
      await startPage();
      expect(useApp.getState().graph.name).toBe('Graph Engineer');
      expect(vi.mocked(parseModule.parseGraph).mock.calls).toEqual([[text]]);
    }
  });

  it("a save of this build's that is not even JSON any more is read strictly: its last good copy opens", async () => {
    const good = { ...template('graph-engineer'), name: 'Good copy' };
    await seed('graph-a', { text: '{"format":"loopscope/gr', copies: [serializeGraph(good)] });
    session.setItem(OPEN_KEY, 'graph-a');
    await startPage();
    expect(useApp.getState().graph.name).toBe('Good copy');
    expect(useAutosave.getState().restoreError).toMatch(/^The last save of "Good copy" was damaged \(not JSON/);
  });

  it('with no graph of its own, the tab opens the one saved last', async () => {
    await seed('graph-b', { text: serializeGraph({ ...template('blank'), name: 'Saved last' }) });
    await startPage();
    expect(useApp.getState().documentId).toBe('graph-b');
    expect(useApp.getState().graph.name).toBe('Saved last');
  });

  it('a damaged save opens its last good copy and says so, as on the page', async () => {
    const good = { ...template('graph-engineer'), name: 'Good copy' };
    await seed('graph-a', { text: '{"format":"loopscope/graph","version":1,"name":"x","entry":"a","nodes":[{"id":"a","kind":"nope"}]}', copies: [serializeGraph(good)], schema: undefined });
    session.setItem(OPEN_KEY, 'graph-a');
    await startPage();
    expect(useApp.getState().graph.name).toBe('Good copy');
    expect(useAutosave.getState().restoreError).toMatch(/^The last save of "Good copy" was damaged \(nodes\[0\]\.kind/);
  });

  it('a journal copy newer than the save is opened over it', async () => {
    await seed('graph-a', { text: serializeGraph({ ...template('blank'), name: 'In IndexedDB' }) });
    session.setItem(OPEN_KEY, 'graph-a');
    const journal = memory();
    journal.setItem(JOURNAL_PREFIX + 'graph-a', JSON.stringify({ name: 'In the journal', text: serializeGraph({ ...template('blank'), name: 'In the journal' }), savedAt: Date.now() + 60_000 }));
    await startPage(journal);
    expect(useApp.getState().graph.name).toBe('In the journal');
  });

  it("takes a journal copy this build wrote as written too", async () => {
    await seed('graph-a', { text: serializeGraph({ ...template('blank'), name: 'In IndexedDB' }) });
    session.setItem(OPEN_KEY, 'graph-a');
    const journal = memory();
    const graph = { ...template('graph-engineer'), name: 'In the journal' };
    journal.setItem(JOURNAL_PREFIX + 'graph-a', JSON.stringify({ name: graph.name, text: serializeGraph(graph), savedAt: Date.now() + 60_000, schema: GRAPH_SCHEMA }));
    vi.mocked(parseModule.parseGraph).mockClear();
    await startPage(journal);
    expect(useApp.getState().graph).toEqual(graph);
    expect(vi.mocked(parseModule.parseGraph)).not.toHaveBeenCalled();
  });

  it("opened from the library with the editor on screen, this build's save is read, another's parsed", async () => {
    await startPage();
    for (const [schema, parses] of [[GRAPH_SCHEMA ?? undefined, 0], ['another-build', 1]] as const) {
      const graph = { ...template('graph-engineer'), name: `Saved by ${schema}` };
      await seed('graph-b', { text: serializeGraph(graph), schema });
      vi.mocked(parseModule.parseGraph).mockClear();
      expect(await openFromLibrary('graph-b')).toBe(true);
      expect(useApp.getState().graph).toEqual(graph);
      expect(vi.mocked(parseModule.parseGraph).mock.calls).toHaveLength(parses);
    }
  });

  it('a library still to be made leaves the page to make it and open the default graph', async () => {
    await startPage();
    expect(useApp.getState().graph.name).toBe('SecurityClaw triage');
  });
});
