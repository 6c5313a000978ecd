/**
 * What this browser remembers between visits besides the graphs, in localStorage: the layout
 * (editing or Debug) here, read before the first screen is drawn (the shell is laid out for it);
 * the MCP servers' addresses in ./mcpServerUrls.ts. Each is written back whenever it changes; the
 * stores know nothing of localStorage.
 */
import { useApp } from '../store/index.ts';

export const LAYOUT_KEY = 'loopscope.layout.mode';

const storage = (): Storage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
};

/** A remembered text, or null when there is none or the storage refuses. */
export const read = (key: string): string | null => {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
};

/** Remembers a text; a full or refused storage only forgets it. */
export const write = (key: string, value: string) => {
  try {
    storage()?.setItem(key, value);
  } catch {
    // A full or refused storage only forgets the choice: it is asked or made again next visit.
  }
};

/** Puts the remembered layout in the store and keeps it as it changes; returns the way to stop keeping it. */
export const keepLayout = (): (() => void) => {
  useApp.setState({ debugLayout: read(LAYOUT_KEY) === 'debug' });
  return useApp.subscribe((state, previous) => {
    if (state.debugLayout !== previous.debugLayout) write(LAYOUT_KEY, state.debugLayout ? 'debug' : 'edit');
  });
};
