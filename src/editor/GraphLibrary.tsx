import { useEffect } from 'react';
import { TEMPLATES } from '../graph/templates/index.ts';
import { visibleText } from '../graph/visible.ts';
import { useApp } from '../store/index.ts';
import { refreshLibrary, removeFromLibrary, useLibrary } from '../store/libraryActions.ts';
import { openFromLibrary } from '../store/persistence.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { RemoveIcon } from '../ui/icons.tsx';

const savedWords = (savedAt: number) =>
  new Date(savedAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The graphs kept in this browser, each with its own autosave, and the templates to start a new one. */
export function GraphLibrary({ onClose }: { onClose: () => void }) {
  const entries = useLibrary((state) => state.entries);
  const openId = useApp((state) => state.documentId);
  useEffect(() => void refreshLibrary(), []);
  const open = (id: string) => {
    onClose();
    if (id !== openId) void openFromLibrary(id);
  };
  const openTemplate = (id: string) => {
    onClose();
    void useApp.getState().openTemplate(id);
  };
  return (
    <Dialog title="Graphs" onClose={onClose} wide>
      <p className="field-help">Every graph you open or start is kept in this browser and saved as you edit. Opening another one never writes over it.</p>
      <h3 id="library-recent">Recent graphs</h3>
      {entries.length === 0 ? (
        <p className="muted">None saved yet.</p>
      ) : (
        <ul className="library-list" aria-labelledby="library-recent">
          {entries.map((entry) => {
            const current = entry.id === openId;
            const when = savedWords(entry.savedAt);
            return (
              <li key={entry.id} className={current ? 'current' : undefined}>
                <button type="button" className="library-open" onClick={() => open(entry.id)} aria-current={current ? 'true' : undefined} data-autofocus={current || undefined}>
                  <span className="library-name">{visibleText(entry.name)}</span>
                  <span className="muted">{current ? `open now · saved ${when}` : `saved ${when}`}</span>
                </button>
                {!current && (
                  <button type="button" className="icon-button" aria-label={`Remove ${visibleText(entry.name)} (saved ${when}) from this browser`} title="Remove from this browser" onClick={() => void removeFromLibrary(entry.id)}>
                    <RemoveIcon size={16} aria-hidden="true" />
                  </button>
                )}
              </li>
            );
          })}
        </ul>
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
