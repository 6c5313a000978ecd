import { useEffect, useState } from 'react';
import { TEMPLATES } from '../graph/templates/index.ts';
import { visibleText } from '../graph/visible.ts';
import { useApp } from '../store/index.ts';
import { fileLibrary, refreshLibrary, removeFromLibrary, useLibrary } from '../hooks/library.ts';
import { openFromLibrary, type LibrarySummary } from '../hooks/saving.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { RemoveIcon } from '../ui/icons.tsx';
import { NewFileForm } from './NewFileDialog.tsx';

const savedWords = (savedAt: number) =>
  new Date(savedAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * The graphs: kept in this browser, each with its own autosave, or under `loopscope open` the
 * folder's graph files, each edit written to its file; and the templates to start a new one.
 */
export function GraphLibrary({ onClose }: { onClose: () => void }) {
  const entries = useLibrary((state) => state.entries);
  const openId = useApp((state) => state.documentId);
  const files = fileLibrary();
  /** The file whose deletion the person is asked to confirm. */
  const [removing, setRemoving] = useState<LibrarySummary | null>(null);
  useEffect(() => void refreshLibrary(), []);
  const open = (id: string) => {
    onClose();
    if (id !== openId) void openFromLibrary(id);
  };
  const openTemplate = (id: string) => {
    onClose();
    // Named apart from the graphs already in the library, a template opened again among them.
    void useApp.getState().openTemplate(id, entries.map((entry) => entry.name));
  };
  const entryItem = (entry: LibrarySummary) => {
    const current = entry.id === openId;
    const when = savedWords(entry.savedAt);
    // A name, a path or a problem is shown with its control and bidi characters escaped.
    const name = visibleText(entry.name);
    const title = visibleText(entry.path ?? entry.name);
    const detail = entry.problem ? visibleText(entry.problem) : entry.path ? `${name} · ${current ? 'open now · ' : ''}saved ${when}` : current ? `open now · saved ${when}` : `saved ${when}`;
    if (removing?.id === entry.id)
      return (
        <li key={entry.id} className="library-confirm">
          <p>Delete {title} from the folder? This removes the file.</p>
          <button type="button" data-autofocus onClick={() => void removeFromLibrary(entry.id).finally(() => setRemoving(null))}>Delete the file</button>
          <button type="button" onClick={() => setRemoving(null)}>Cancel</button>
        </li>
      );
    return (
      <li key={entry.id} className={current ? 'current' : undefined}>
        <button type="button" className="library-open" onClick={() => open(entry.id)} aria-current={current ? 'true' : undefined} data-autofocus={current || undefined}>
          <span className="library-name">{title}</span>
          <span className={entry.problem ? 'field-error' : 'muted'}>{detail}</span>
        </button>
        {!current && (
          <button
            type="button"
            className="icon-button"
            aria-label={files ? `Remove ${title}` : `Remove ${name} (saved ${when}) from this browser`}
            title={files ? 'Delete the file (asks first)' : 'Remove from this browser'}
            onClick={() => (files ? setRemoving(entry) : void removeFromLibrary(entry.id))}
          >
            <RemoveIcon size={16} aria-hidden="true" />
          </button>
        )}
      </li>
    );
  };
  return (
    <Dialog title="Graphs" onClose={onClose} wide>
      {files ? (
        <p className="field-help">The graph files of {files.folder}: each edit is written to its file, and a change made on disk shows here.</p>
      ) : (
        <p className="field-help">Every graph you open or start is kept in this browser and saved as you edit. Opening another one never writes over it.</p>
      )}
      <h3 id="library-recent">{files ? 'Graph files' : 'Recent graphs'}</h3>
      {entries.length === 0 ? (
        <p className="muted">{files ? 'No graph file in the folder yet.' : 'None saved yet.'}</p>
      ) : (
        <ul className="library-list" aria-labelledby="library-recent">
          {entries.map(entryItem)}
        </ul>
      )}
      {files && (
        <>
          <h3>New graph file</h3>
          <NewFileForm onClose={onClose} />
        </>
      )}
      <h3 id="library-new">Start a new graph from</h3>
      <ul className="library-list" aria-labelledby="library-new">
        {TEMPLATES.map((template) => (
          <li key={template.id}>
            <button type="button" className="library-open" onClick={() => openTemplate(template.id)} aria-label={`New graph from the template ${template.title}`}>
              <span className="library-name">{template.title}</span>
              <span className="muted">{template.summary}</span>
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
