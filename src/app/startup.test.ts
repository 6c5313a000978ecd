import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { encodeShareFragment } from '../editor/shareLink.ts';
import { useApp } from '../store/index.ts';
import { OPEN_KEY, type LibraryEntry, type LibraryStorage, memoryStorage, type SyncStorage } from '../persistence/persistence.ts';
import { startPersistence } from '../persistence/startPersistence.ts';
import { openInitialGraph } from './startup.ts';

const memory = (): SyncStorage => memoryStorage();

const saved = { ...findTemplate('blank')!.graph(), name: 'Being edited' };
let entries: Map<string, LibraryEntry>;
let stop: () => void;
const replaceState = vi.fn();
const history = { state: null, replaceState };

beforeEach(() => {
  entries = new Map([['graph-edited', { id: 'graph-edited', name: saved.name, savedAt: 1, text: serializeGraph(saved), copies: [] }]]);
  const library: LibraryStorage = {
    list: async () => [...entries.values()],
    read: async (id) => entries.get(id),
    write: async (id, name, text) => void entries.set(id, { id, name, savedAt: Date.now(), text, copies: [] }),
    remove: async (id) => void entries.delete(id),
    lastSaved: async () => 'graph-edited',
  };
  const session = memory();
  session.setItem(OPEN_KEY, 'graph-edited');
  stop = startPersistence({ library, session, journal: memory(), target: new EventTarget() as unknown as Window });
  replaceState.mockClear();
  useApp.setState({ importError: null });
});
afterEach(() => stop());

describe('openInitialGraph', () => {
  it('opens the graph this tab was editing', async () => {
    await openInitialGraph(new URL('http://x/'), history);
    expect(useApp.getState().graph.name).toBe('Being edited');
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('?template= opens a new graph, keeps the other one and drops the query from the address', async () => {
    await openInitialGraph(new URL('http://x/app/?template=graph-engineer&seed=2'), history);
    expect(useApp.getState().graph.name).toBe('Graph Engineer');
    expect(useApp.getState().documentId).not.toBe('graph-edited');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/app/?seed=2');
    await vi.waitFor(() => expect(entries.size).toBe(2));
    expect(JSON.parse(entries.get('graph-edited')!.text).name).toBe('Being edited');
  });

  it('?template= under loopscope open keeps the token in the address, so a reload reaches the folder again', async () => {
    await openInitialGraph(new URL('http://x/?template=graph-engineer#token=abc%2B1'), history);
    expect(useApp.getState().graph.name).toBe('Graph Engineer');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/#token=abc%2B1');
  });

  it('a share link opens as a new graph and leaves the address', async () => {
    const fragment = await encodeShareFragment(serializeGraph({ ...saved, name: 'Shared' }));
    await openInitialGraph(new URL(`http://x/#${fragment}`), history);
    expect(useApp.getState().graph.name).toBe('Shared');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
    await vi.waitFor(() => expect(entries.size).toBe(2));
  });

  it('a damaged link or an unknown template changes nothing and says so', async () => {
    await openInitialGraph(new URL('http://x/#graph=AAAA'), history);
    expect(useApp.getState().graph.name).toBe('Being edited');
    expect(useApp.getState().importError).toMatch(/^Could not open the share link: the link is damaged.*Nothing was changed\.$/);
    await openInitialGraph(new URL('http://x/?template=nope'), history);
    expect(useApp.getState().graph.name).toBe('Being edited');
    expect(useApp.getState().importError).toBe('There is no built-in template "nope". Nothing was changed.');
    expect(replaceState).not.toHaveBeenCalled();
    expect(entries.size).toBe(1);
  });
});
