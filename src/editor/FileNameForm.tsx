import { useState } from 'react';
import { graphFilePath } from '../hooks/library.ts';
import { reasonOf } from '../hooks/saving.ts';

/**
 * Asks for a graph file's name in the folder (`graphs/triage.json`; `.json` is added when left out)
 * and hands it to `onSubmit`; what the folder refuses (the name taken, a folder missing, a path
 * leaving the folder) is said under the field, and nothing is written.
 */
export function FileNameForm({ initial, action, onSubmit, onCancel }: { initial: string; action: string; onSubmit: (path: string) => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="file-name-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setProblem('Give the file a name.');
        setBusy(true);
        setProblem(null);
        onSubmit(graphFilePath(name)).then(
          () => setBusy(false),
          (error: unknown) => {
            setBusy(false);
            setProblem(reasonOf(error));
          },
        );
      }}
    >
      <label>
        File name
        <input type="text" value={name} onChange={(event) => setName(event.target.value)} spellCheck={false} aria-describedby="file-name-help" data-autofocus />
      </label>
      <p id="file-name-help" className="field-help">A path in the folder, such as graphs/triage.json.</p>
      {problem && <p role="alert" className="field-error">{problem}</p>}
      <div className="dialog-actions">
        <button type="submit" disabled={busy}>{action}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
