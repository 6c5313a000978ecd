/**
 * A page served by `loopscope open`: the library is the folder's files (folderLibrary.ts). When
 * the server does not take the token (it was stopped or restarted), the person is told, and the
 * page keeps the browser's library.
 */
import { visibleText } from '../graph/visible.ts';
import { folderLibrary } from './folderLibrary.ts';
import { OPEN_KEY } from './libraryDb.ts';
import { setOpenServer } from '../network/openServer.ts';
import { reasonOf, useAutosave } from './persistence.ts';
import { startPersistence } from './startPersistence.ts';

export interface FolderAddress {
  token: string;
  /** The file to open first, by its path in the folder (`&file=…`, a graph file named on the command line). */
  file: string | null;
}

/**
 * The token and the file to open first, from the address; the file is taken out of it, so that a
 * reload opens what the tab has open then.
 */
export const takeFolderAddress = (location: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location, history: Pick<History, 'replaceState' | 'state'> = window.history): FolderAddress | null => {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('token');
  if (!token) return null;
  const file = fragment.get('file');
  if (file !== null) history.replaceState(history.state, '', `${location.pathname}${location.search}#token=${encodeURIComponent(token)}`);
  return { token, file };
};

/** Says what the page is waiting for until its first screen replaces it (React's first render clears the root). */
const waiting = (text: string) => {
  const status = document.createElement('p');
  status.setAttribute('role', 'status');
  status.textContent = visibleText(text);
  document.getElementById('root')?.replaceChildren(status);
};

/** Starts the folder's library; the browser's when the folder cannot be reached (and the person is told). */
export const startFolderLibrary = async (savingFrom: Promise<unknown>) => {
  const address = takeFolderAddress();
  if (!address) return startPersistence({ savingFrom });
  const { token, file } = address;
  try {
    const library = await folderLibrary(token);
    setOpenServer({ origin: window.location.origin, token, pathOf: library.files.pathOf });
    // The file named on the command line opens first; else the one this tab had open, when it is
    // of this folder; else the file changed last (what `loopscope open` is most likely run for).
    const kept = sessionStorage.getItem(OPEN_KEY);
    const first = file !== null ? library.files.idOf(file) : kept !== null && library.files.pathOf(kept) !== null ? kept : await library.lastSaved();
    if (first === undefined) sessionStorage.removeItem(OPEN_KEY);
    else sessionStorage.setItem(OPEN_KEY, first);
    if (first !== undefined) waiting(`Opening ${library.files.pathOf(first) ?? first} from ${library.files.folder}…`);
    // A read from the folder is a request to `loopscope open` on this machine: it fails as soon as the
    // server is gone, and otherwise takes what reading and checking the file take (seconds for a
    // 10,000-node file on a busy machine), which the page waits for, saying what it reads.
    return startPersistence({ library, savingFrom, timeoutMs: Number.POSITIVE_INFINITY });
  } catch (error) {
    useAutosave.setState({ restoreError: `The folder of loopscope open cannot be reached: ${reasonOf(error)}. Open the address it printed; until then the graphs shown are this browser's.` });
    return startPersistence({ savingFrom });
  }
};
