import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph, type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { startFileSync } from './fileSync.ts';
import { fromDisk } from '../store/changeSource.ts';
import { useApp } from '../store/index.ts';
import { keepMine, loadFromDisk, saveAsFile, useFileNotice } from './libraryActions.ts';
import { openFromLibrary, savingStarted, useAutosave, type FileChange, type FileLibrary, type LibraryStorage, type SyncStorage } from './persistence.ts';
import { startPersistence } from './startPersistence.ts';

const graph = findTemplate('securityclaw')!.graph();
const named = (name: string): GraphFile => ({ ...graph, name });
const PREFIX = 'file:///project/';

const memory = (): SyncStorage => {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value), removeItem: (key) => void values.delete(key) };
};

/** A write's answer, a few turns after its change on disk (the server's watcher may be quicker than its answer). */
const answerArrives = async () => {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** A folder's library in memory: files by path, each write stamped with a time, and a way to change a file "on disk". */
const fakeFolder = () => {
  const files = new Map<string, { text: string; savedAt: number; problem?: string }>();
  let clock = 1000;
  let listener: (change: FileChange) => void = () => {};
  const writes: string[] = [];
  const held: FileLibrary['held'] = new Map();
  const pathOf = (id: string) => (id.startsWith(PREFIX) ? id.slice(PREFIX.length) : null);
  const idOf = (path: string) => `${PREFIX}${path}`;
  const readFile = async (id: string) => files.get(pathOf(id) ?? '');
  const library: LibraryStorage & { files: FileLibrary } = {
    list: async () => [...files.entries()].map(([path, file]) => ({ id: idOf(path), name: path, savedAt: file.savedAt, path })),
    read: async (id) => {
      const file = await readFile(id);
      return file && { id, name: pathOf(id)!, savedAt: file.savedAt, text: file.text, copies: [] };
    },
    write: async (id, _name, text) => {
      const path = pathOf(id);
      if (path === null) throw new Error('not a file');
      clock += 1;
      files.set(path, { text, savedAt: clock });
      writes.push(path);
      // The watcher sees this page's own write too, tagged with the page's name, and may tell of it
      // before the write's answer has come back.
      listener({ id, path, kind: 'changed', savedAt: clock, by: 'this-page' });
      await answerArrives();
    },
    remove: async (id) => void files.delete(pathOf(id)!),
    lastSaved: async () => undefined,
    files: {
      folder: '/project',
      pathOf,
      idOf,
      keeps: (id) => pathOf(id) !== null && !held.has(id),
      held,
      writer: 'this-page',
      create: async (path, text) => {
        if (files.has(path)) throw new Error(`${path} already exists`);
        clock += 1;
        files.set(path, { text, savedAt: clock });
        return idOf(path);
      },
      readFile,
      watch: (onChange) => {
        listener = onChange;
        return () => (listener = () => {});
      },
      follow: startFileSync,
    },
  };
  /** Someone else writes the file (an editor, `git checkout`, another tab: `by` its name). */
  const changeOnDisk = (path: string, text: string, problem?: string, by?: string) => {
    clock += 1;
    files.set(path, { text, savedAt: clock, ...(problem ? { problem } : {}) });
    listener({ id: idOf(path), path, kind: 'changed', savedAt: clock, ...(by ? { by } : {}) });
  };
  const removeOnDisk = (path: string) => {
    files.delete(path);
    listener({ id: idOf(path), path, kind: 'removed' });
  };
  return { library, files, writes, changeOnDisk, removeOnDisk };
};

/** Waits for a condition (a loaded machine takes its time), not for a fixed time. */
const settle = (condition: () => boolean) => vi.waitFor(() => expect(condition()).toBe(true), { timeout: 10_000, interval: 5 });
/** Runs the saver's pending save now, rather than waiting for its delay: what it would write is on disk when this resolves. */
const saveWhatIsPending = async () => (await savingStarted())!.flush();
const nameOnScreen = () => useApp.getState().graph.name;
const nameOnDisk = (folder: ReturnType<typeof fakeFolder>, path = 'triage.json') => JSON.parse(folder.files.get(path)!.text).name as string;
const rename = (name: string) => useApp.getState().edit((current) => ({ ...current, name }), 'name');

let stop: () => void = () => {};
let folder: ReturnType<typeof fakeFolder>;

beforeEach(async () => {
  folder = fakeFolder();
  folder.files.set('triage.json', { text: serializeGraph(named('On disk')), savedAt: 1 });
  useApp.setState({ graph, past: [], future: [], documentId: 'graph-initial' });
  useAutosave.setState({ error: null, restoreError: null });
  useFileNotice.setState({ notice: null, error: null, busy: false });
  stop = startPersistence({ library: folder.library, session: memory(), journal: memory(), target: new EventTarget() as unknown as Window, delayMs: 5 });
  await savingStarted();
  expect(await openFromLibrary(`${PREFIX}triage.json`)).toBe(true);
});
afterEach(() => stop());

describe('a graph file and the page, under loopscope open', () => {
  it('writes each edit to the file, and ignores the change on disk that its own write makes', async () => {
    rename('Edited');
    await settle(() => folder.writes.length === 1);
    expect(folder.files.get('triage.json')!.text).toBe(serializeGraph(named('Edited')));
    expect(useFileNotice.getState().notice).toBeNull();
    expect(useApp.getState().past).toHaveLength(1);
  });

  it("knows its own write by the tag the server gives its change, even when the change comes before the write's answer; another tab's write is a change on disk", async () => {
    rename('Edited');
    rename('Edited again');
    await saveWhatIsPending();
    expect(folder.writes).toHaveLength(1);
    expect(useFileNotice.getState().notice).toBeNull();
    expect(nameOnScreen()).toBe('Edited again');
    folder.changeOnDisk('triage.json', serializeGraph(named('From another tab')), undefined, 'another-page');
    await settle(() => nameOnScreen() === 'From another tab');
  });

  it("the saver writes the person's edits, never a change tagged as the file's", async () => {
    const read = named('Read from the file');
    fromDisk(serializeGraph(read), () => useApp.getState().edit(() => read));
    await saveWhatIsPending();
    expect(folder.writes).toEqual([]);
    rename('Then edited');
    await saveWhatIsPending();
    expect(folder.writes).toHaveLength(1);
    expect(nameOnDisk(folder)).toBe('Then edited');
  });

  it('takes a change on disk at once when the page holds no unsaved edit, as an edit Undo takes back (and writes back)', async () => {
    folder.changeOnDisk('triage.json', serializeGraph(named('From an editor')));
    await settle(() => nameOnScreen() === 'From an editor');
    expect(folder.writes).toEqual([]);
    useApp.getState().undo();
    expect(nameOnScreen()).toBe('On disk');
    await settle(() => nameOnDisk(folder) === 'On disk');
  });

  it('asks when the file changes on disk while the page holds an unsaved edit; nothing is written until the person chooses', async () => {
    rename('Mine');
    folder.changeOnDisk('triage.json', serializeGraph(named('Theirs')));
    await settle(() => useFileNotice.getState().notice?.kind === 'changed');
    // The pending save of "Mine" does not land over "Theirs".
    await saveWhatIsPending();
    expect(nameOnDisk(folder)).toBe('Theirs');
    await keepMine();
    expect(nameOnDisk(folder)).toBe('Mine');
    expect(useFileNotice.getState().notice).toBeNull();

    rename('Mine again');
    folder.changeOnDisk('triage.json', serializeGraph(named('Theirs again')));
    await settle(() => useFileNotice.getState().notice?.kind === 'changed');
    loadFromDisk();
    expect(nameOnScreen()).toBe('Theirs again');
    // Mine is one Undo away.
    useApp.getState().undo();
    expect(nameOnScreen()).toBe('Mine again');
  });

  it('says when the file is deleted on disk, writes nothing until saved again, then writes it', async () => {
    folder.removeOnDisk('triage.json');
    await settle(() => useFileNotice.getState().notice?.kind === 'deleted');
    rename('Kept in the page');
    await saveWhatIsPending();
    expect(folder.files.has('triage.json')).toBe(false);
    await keepMine();
    expect(nameOnDisk(folder)).toBe('Kept in the page');
  });

  it('keeps the page’s version when the file on disk becomes invalid, and takes the file once it is valid again', async () => {
    folder.changeOnDisk('triage.json', '{"format": "loopscope/graph", "name": 3}', 'triage.json: name: expected text');
    await settle(() => useFileNotice.getState().notice?.kind === 'invalid-on-disk');
    rename('Not written over the broken file');
    await saveWhatIsPending();
    expect(folder.files.get('triage.json')!.text).toContain('"name": 3');
    folder.changeOnDisk('triage.json', serializeGraph(named('Fixed on disk')));
    await settle(() => nameOnScreen() === 'Fixed on disk');
    expect(useFileNotice.getState().notice).toBeNull();
  });

  it('writes nothing for a graph that is no file yet, until it is saved as one', async () => {
    useApp.getState().load(named('A template'));
    rename('Draft edit');
    await saveWhatIsPending();
    expect([...folder.files.keys()]).toEqual(['triage.json']);
    await saveAsFile('draft');
    expect(nameOnDisk(folder, 'draft.json')).toBe('Draft edit');
    expect(useApp.getState().documentId).toBe(`${PREFIX}draft.json`);
    expect(useApp.getState().past.length).toBeGreaterThan(0);
    await expect(saveAsFile('triage.json')).rejects.toThrow('triage.json already exists');
  });
});
