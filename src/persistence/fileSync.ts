/**
 * The open graph and its file on disk, under `loopscope open`: a change made there (an editor,
 * `git checkout`) comes in at once when the page holds no unsaved edit of it, as an edit (so Undo
 * takes it back); otherwise the page says so and the person chooses (Load from disk, Keep mine). A
 * file deleted on disk, or no longer a valid graph, is no longer written until the person says.
 * Loaded with the saver, on a page served by `loopscope open` only.
 */
import { describeProblems, type GraphFile } from '../graph/index.ts';
import { fromDisk } from '../store/changeSource.ts';
import { useApp } from '../store/index.ts';
import { refreshList, setFileActions, useFileNotice } from './libraryActions.ts';
import { reasonOf, type FileChange, type FileLibrary, type Persistence } from './persistence.ts';

/** Refreshes of the list after changes on disk come at most this often. */
const LIST_REFRESH_MS = 150;

/** A graph file that is not a valid graph is opened (folderLibrary.ts) read-only, and this says why. */
export const fileIsInvalid = (id: string, problem: string) => useFileNotice.setState({ notice: { id, kind: 'invalid', problem }, error: null });

/**
 * The text on disk comes in as an edit of the open graph, tagged as the file's (the saver does not
 * write it back): Undo takes it back (and that is written in turn).
 */
const takeFromDisk = (persistence: Persistence, id: string, text: string, graph: GraphFile) => {
  persistence.options.library.files?.held.delete(id);
  if (useApp.getState().documentId === id) fromDisk(text, () => useApp.getState().edit(() => graph, `disk:${Date.now()}`));
  useFileNotice.setState({ notice: null, error: null });
};

/** Follows the folder's files while the saver runs; `saveNow` writes the open graph (Keep mine, Save again). Returns a stop function. */
export const startFileSync = (persistence: Persistence, saveNow: () => Promise<void>) => {
  const library = persistence.options.library;
  const files = library.files as FileLibrary;
  let listTimer: ReturnType<typeof setTimeout> | null = null;
  const refreshSoon = () => {
    if (listTimer !== null) return;
    listTimer = setTimeout(() => {
      listTimer = null;
      void refreshList(library);
    }, LIST_REFRESH_MS);
  };
  /** Whether the page holds an edit of the graph that its file does not have. */
  const unsaved = (id: string) => useApp.getState().graph !== persistence.openedAsSaved.get(id);

  const changed = async (change: FileChange) => {
    refreshSoon();
    const { id } = change;
    if (id !== useApp.getState().documentId) return;
    if (change.kind === 'removed') {
      files.held.set(id, 'deleted');
      useFileNotice.setState({ notice: { id, kind: 'deleted' } });
      return;
    }
    // This page's own write, come back: the server tags it with the writer the page named.
    if (change.by === files.writer && !files.held.has(id)) return;
    const entry = await files.readFile(id).catch(() => undefined);
    if (!entry || id !== useApp.getState().documentId) return;
    if (entry.text === persistence.lastSaved.get(id) && !files.held.has(id)) return;
    const { parseOffThread } = await import('./offThread.ts');
    const parsed = entry.problem === undefined ? await parseOffThread({ kind: 'graph', text: entry.text }) : null;
    if (id !== useApp.getState().documentId) return;
    if (!parsed?.ok) {
      const problem = entry.problem ?? `${files.pathOf(id)}: ${describeProblems(parsed?.problems ?? []).split('\n')[0]}`;
      const wasInvalid = files.held.get(id) === 'invalid';
      files.held.set(id, 'invalid');
      useFileNotice.setState({ notice: { id, kind: wasInvalid && !unsaved(id) ? 'invalid' : 'invalid-on-disk', problem } });
      return;
    }
    if (unsaved(id) && files.held.get(id) !== 'invalid') {
      // Nothing is written over the file until the person has chosen.
      files.held.set(id, 'changed');
      useFileNotice.setState({ notice: { id, kind: 'changed', text: entry.text, graph: parsed.value } });
    } else takeFromDisk(persistence, id, entry.text, parsed.value);
  };
  const stopWatching = files.watch((change) => void changed(change));
  // Another graph opened: what was said of the last one no longer applies.
  const unsubscribe = useApp.subscribe((state, previous) => {
    const { notice } = useFileNotice.getState();
    if (state.documentId !== previous.documentId && notice && notice.id !== state.documentId) useFileNotice.setState({ notice: null, error: null });
  });
  const act = async (work: () => Promise<void>) => {
    useFileNotice.setState({ busy: true, error: null });
    try {
      await work();
    } catch (error) {
      useFileNotice.setState({ error: reasonOf(error) });
    } finally {
      useFileNotice.setState({ busy: false });
    }
  };
  setFileActions({
    loadFromDisk: () => {
      const { notice } = useFileNotice.getState();
      if (notice?.kind === 'changed') takeFromDisk(persistence, notice.id, notice.text, notice.graph);
    },
    keepMine: () =>
      act(async () => {
        const { notice } = useFileNotice.getState();
        if (!notice) return;
        files.held.delete(notice.id);
        useFileNotice.setState({ notice: null });
        await saveNow();
      }),
  });
  return () => {
    stopWatching();
    unsubscribe();
    if (listTimer !== null) clearTimeout(listTimer);
    setFileActions(null);
  };
};
