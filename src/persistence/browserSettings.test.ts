import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useApp } from '../store/index.ts';
import { setServerUrl, useMcpServerUrls } from '../store/mcpServers.ts';
import { keepLayout, LAYOUT_KEY } from './browserSettings.ts';
import { keepMcpServerUrls, MCP_SERVER_URLS_KEY } from './mcpServerUrls.ts';

describe('what this browser remembers', () => {
  const storage = new Map<string, string>();
  let stops: (() => void)[] = [];
  const start = () => {
    stops = [keepLayout(), keepMcpServerUrls()];
  };
  beforeEach(() => {
    storage.clear();
    vi.stubGlobal('localStorage', { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => storage.set(key, value) });
    useApp.setState({ debugLayout: false });
    useMcpServerUrls.setState({}, true);
  });
  afterEach(() => {
    for (const stop of stops) stop();
    vi.unstubAllGlobals();
  });

  it('puts the remembered layout and server addresses in the stores before anything is drawn', () => {
    storage.set(LAYOUT_KEY, 'debug');
    storage.set(MCP_SERVER_URLS_KEY, JSON.stringify({ files: 'http://127.0.0.1:4431/mcp', odd: 7 }));
    start();
    expect(useApp.getState().debugLayout).toBe(true);
    expect(useMcpServerUrls.getState()).toEqual({ files: 'http://127.0.0.1:4431/mcp' });
  });

  it('keeps each change for the next visit, and nothing else of the store', () => {
    start();
    useApp.setState({ debugLayout: true });
    setServerUrl('files', ' http://127.0.0.1:4431/mcp ');
    expect(storage.get(LAYOUT_KEY)).toBe('debug');
    expect(JSON.parse(storage.get(MCP_SERVER_URLS_KEY)!)).toEqual({ files: 'http://127.0.0.1:4431/mcp' });
    useApp.setState({ debugLayout: false });
    setServerUrl('files', '');
    expect(storage.get(LAYOUT_KEY)).toBe('edit');
    expect(JSON.parse(storage.get(MCP_SERVER_URLS_KEY)!)).toEqual({});
    expect([...storage.keys()].sort()).toEqual([LAYOUT_KEY, MCP_SERVER_URLS_KEY].sort());
  });

  it('starts empty from a storage that is refused or holds nonsense', () => {
    vi.stubGlobal('localStorage', { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('full'); } });
    start();
    expect(useApp.getState().debugLayout).toBe(false);
    expect(() => useApp.setState({ debugLayout: true })).not.toThrow();
    vi.stubGlobal('localStorage', { getItem: () => '[1,2]', setItem: () => {} });
    for (const stop of stops) stop();
    start();
    expect(useMcpServerUrls.getState()).toEqual({});
  });
});
