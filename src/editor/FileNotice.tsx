import { useState } from 'react';
import { useApp } from '../store/index.ts';
import { fileLibrary, keepMine, loadFromDisk, saveAsFile, useFileNotice } from '../hooks/library.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Shown } from '../ui/Shown.tsx';
import { slugOf } from './download.ts';
import { FileNameForm } from './FileNameForm.tsx';

/**
 * Under `loopscope open`, what the page says of the open graph's file: not a file yet (a template
 * or an import, kept in this tab until it is given a name), not a valid graph (read-only), changed
 * or deleted on disk; with the ways on. Nothing when the page shows the browser's library.
 */
export function FileNotice() {
  const documentId = useApp((state) => state.documentId);
  const { notice, busy, error } = useFileNotice();
  const [naming, setNaming] = useState(false);
  const files = fileLibrary();
  if (!files) return null;
  const path = files.pathOf(documentId);
  const current = notice?.id === documentId ? notice : null;
  const saveAs = naming && (
    <Dialog title="Save as a graph file" onClose={() => setNaming(false)}>
      <FileNameForm
        initial={`${slugOf(useApp.getState().graph.name)}.json`}
        action="Save"
        onCancel={() => setNaming(false)}
        onSubmit={async (name) => {
          await saveAsFile(name);
          setNaming(false);
        }}
      />
    </Dialog>
  );
  if (path === null)
    return (
      <section className="other-tab-notice" aria-label="File on disk">
        <p>This graph is not a file in {files.folder} yet: its edits stay in this tab until you save it as one.</p>
        <button type="button" onClick={() => setNaming(true)}>Save as file…</button>
        {saveAs}
      </section>
    );
  if (!current) return null;
  return (
    <section className="other-tab-notice" aria-label="File on disk">
      {current.kind === 'invalid' && <p><Shown text={current.problem} />. The file is shown read-only and never written over: correct it on disk and it opens here.</p>}
      {current.kind === 'changed' && (
        <>
          <p>The file changed on disk. Load it, or keep your version here and write it over the file (the other stays one Undo away).</p>
          <button type="button" onClick={loadFromDisk} disabled={busy}>Load from disk</button>
          <button type="button" onClick={() => void keepMine()} disabled={busy}>Keep mine</button>
        </>
      )}
      {current.kind === 'invalid-on-disk' && (
        <>
          <p>The file changed on disk and is not a valid graph now (<Shown text={current.problem} />). Your version is kept here and not written until the file is valid again, or you keep yours.</p>
          <button type="button" onClick={() => void keepMine()} disabled={busy}>Keep mine</button>
        </>
      )}
      {current.kind === 'deleted' && (
        <>
          <p>{path} was deleted on disk. Your graph is kept here; edits are not written until you save it again.</p>
          <button type="button" onClick={() => void keepMine()} disabled={busy}>Save it again</button>
        </>
      )}
      {error && <p role="alert" className="field-error">{error}</p>}
    </section>
  );
}
