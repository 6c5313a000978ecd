import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findTemplate, serializeGraph, updateNode, type GraphFile } from '../graph/index.ts';
import { useApp } from './index.ts';
import { restoreAutosave, startAutosave, startPersistence, useAutosave, type GraphStorage } from './persistence.ts';
import { setKey } from './secrets.ts';

const fakeStorage = (initial?: string) => {
  const saved: string[] = [];
  let stored = initial;
  let failWith: Error | null = null;
  const storage: GraphStorage = {
    read: async () => stored,
    write: async (text) => {
      if (failWith) throw failWith;
      stored = text;
      saved.push(text);
    },
  };
  return { storage, saved, stored: () => stored, failWrites: (error: Error | null) => (failWith = error) };
};

const fakeWindow = () => {
  const target = new EventTarget();
  return { target: target as unknown as Window, fire: (type: string) => target.dispatchEvent(new Event(type)) };
};

const template = (id: string) => findTemplate(id)!.graph();
const renameGraph = (name: string) => useApp.getState().edit((graph) => ({ ...graph, name }), 'name');

beforeEach(() => {
  vi.useFakeTimers();
  useApp.setState({ graph: template('securityclaw'), past: [], future: [] });
  useAutosave.setState({ error: null, restoreError: null });
});
afterEach(() => vi.useRealTimers());

describe('restoreAutosave', () => {
  it('opens the saved graph exactly, as the first screen', async () => {
    const saved: GraphFile = updateNode(template('graph-engineer'), template('graph-engineer').nodes[0].id, (node) => ({ ...node, label: 'Edited' }));
    const { storage } = fakeStorage(serializeGraph(saved));
    expect(await restoreAutosave(storage)).toBe(true);
    expect(useApp.getState().graph).toEqual(saved);
    expect(useApp.getState().past).toEqual([]);
    expect(useAutosave.getState().restoreError).toBeNull();
  });

  it('keeps the current graph and says so when the saved data is damaged', async () => {
    const before = useApp.getState().graph;
    expect(await restoreAutosave(fakeStorage('{"format":"loopscope/graph","version":1,"name":"x","entry":"a","nodes":[{"id":"a","kind":"nope"}]}').storage)).toBe(false);
    expect(useApp.getState().graph).toBe(before);
    expect(useAutosave.getState().restoreError).toMatch(/^Autosave failed: the saved graph is damaged.*nodes\[0\]\.kind.*Your graph is kept in memory\.$/);
  });

  it('reports storage that cannot be read', async () => {
    const storage: GraphStorage = { read: () => Promise.reject(new Error('IndexedDB is not available')), write: async () => {} };
    expect(await restoreAutosave(storage)).toBe(false);
    expect(useAutosave.getState().restoreError).toContain('IndexedDB is not available');
  });

  it('gives up on storage that never answers', async () => {
    const storage: GraphStorage = { read: () => new Promise(() => {}), write: async () => {} };
    const restoring = restoreAutosave(storage, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await restoring).toBe(false);
    expect(useAutosave.getState().restoreError).toContain('did not answer');
  });
});

describe('startAutosave', () => {
  it('saves once after a burst of edits, debounced', async () => {
    const fake = fakeStorage();
    const stop = startAutosave(fake.storage, { target: fakeWindow().target });
    renameGraph('A');
    renameGraph('AB');
    await vi.advanceTimersByTimeAsync(299);
    expect(fake.saved).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.saved).toHaveLength(1);
    expect(JSON.parse(fake.stored()!).name).toBe('AB');
    stop();
  });

  it('flushes a pending save on pagehide, and only then', async () => {
    const fake = fakeStorage();
    const page = fakeWindow();
    const stop = startAutosave(fake.storage, { target: page.target });
    page.fire('pagehide');
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.saved).toHaveLength(0);
    renameGraph('Leaving');
    page.fire('pagehide');
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.saved.map((text) => JSON.parse(text).name)).toEqual(['Leaving']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.saved).toHaveLength(1);
    stop();
  });

  it('shows a failed write, keeps the graph, and clears the message once a write works', async () => {
    const fake = fakeStorage();
    const stop = startAutosave(fake.storage, { target: fakeWindow().target });
    fake.failWrites(new Error('QuotaExceededError'));
    renameGraph('Big');
    await vi.advanceTimersByTimeAsync(300);
    expect(useAutosave.getState().error).toBe('Autosave failed: QuotaExceededError. Your graph is kept in memory.');
    expect(useApp.getState().graph.name).toBe('Big');
    fake.failWrites(null);
    renameGraph('Smaller');
    await vi.advanceTimersByTimeAsync(300);
    expect(useAutosave.getState().error).toBeNull();
    stop();
  });

  it('keeps telling that the saved graph was lost after later saves work', async () => {
    await restoreAutosave(fakeStorage('{oops').storage);
    const fake = fakeStorage();
    const stop = startAutosave(fake.storage, { target: fakeWindow().target });
    renameGraph('Next');
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.saved).toHaveLength(1);
    expect(useAutosave.getState().restoreError).toMatch(/damaged.*not JSON/);
    stop();
  });

  it('never stores an API key', async () => {
    setKey('OPENAI_API_KEY', 'https://api.openai.com', 'sk-secret-123');
    const fake = fakeStorage();
    const stop = startAutosave(fake.storage, { target: fakeWindow().target });
    renameGraph('With key');
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.saved.join('')).not.toContain('sk-secret-123');
    stop();
  });
});

describe('startPersistence', () => {
  it('lets ?template= win over the autosave', async () => {
    const saved = { ...template('blank'), name: 'Saved one' };
    const fake = fakeStorage(serializeGraph(saved));
    const before = useApp.getState().graph;
    const options = { target: fakeWindow().target };
    (await startPersistence(new URL('http://x/?template=graph-engineer'), fake.storage, options))();
    expect(useApp.getState().graph).toBe(before);
    (await startPersistence(new URL('http://x/#graph=abc'), fake.storage, options))();
    expect(useApp.getState().graph).toBe(before);
    (await startPersistence(new URL('http://x/'), fake.storage, options))();
    expect(useApp.getState().graph.name).toBe('Saved one');
  });
});
