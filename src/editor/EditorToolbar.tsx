import { useRef, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { findTemplate, moveNodes, TEMPLATES } from '../graph/index.ts';
import { hasUnsavedChanges, useApp } from '../store/index.ts';
import { layoutInWorker } from './layout.ts';
import { downloadText, exportFileName, importFile, importGraphText, shareUrl, slugOf, toMermaid } from './importExport.ts';

const confirmDrop = () => !hasUnsavedChanges(useApp.getState()) || window.confirm('Drop the unsaved changes of this graph? (Undo brings them back.)');

type Dialog = { type: 'paste' } | { type: 'mermaid'; text: string } | { type: 'share'; url: string } | null;

export function EditorToolbar() {
  const canUndo = useApp((state) => state.past.length > 0);
  const canRedo = useApp((state) => state.future.length > 0);
  const importError = useApp((state) => state.importError);
  const { undo, redo, dismissImportError } = useApp.getState();
  const { fitView, getNodes } = useReactFlow();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const exportJson = () => {
    const { graph, exportText } = useApp.getState();
    downloadText(exportFileName(graph), exportText());
  };

  const autoLayout = async () => {
    setBusy(true);
    try {
      const { graph } = useApp.getState();
      const sizes = new Map(getNodes().flatMap((node) => (node.measured?.width && node.measured.height ? [[node.id, { width: node.measured.width, height: node.measured.height }] as const] : [])));
      const positions = await layoutInWorker({ graph, sizes });
      // Edits made while the worker ran are kept: only the positions change.
      useApp.getState().edit((current) => moveNodes(current, positions));
      setTimeout(() => void fitView({ padding: 0.15, maxZoom: 1.2, duration: 200 }), 30);
    } finally {
      setBusy(false);
    }
  };

  const openTemplate = (id: string) => {
    if (!id || !confirmDrop()) return;
    useApp.getState().openTemplate(id);
  };

  const newGraph = () => {
    const blank = findTemplate('blank');
    if (blank && confirmDrop()) useApp.getState().load(blank.graph());
  };

  const share = async () => {
    // Not written into this tab's address: a reload would then reopen the shared copy over later edits.
    const url = await shareUrl(useApp.getState().exportText(), `${window.location.origin}${window.location.pathname}`);
    void navigator.clipboard?.writeText(url).catch(() => undefined);
    setDialog({ type: 'share', url });
  };

  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Editor">
      <button type="button" onClick={undo} disabled={!canUndo}>Undo</button>
      <button type="button" onClick={redo} disabled={!canRedo}>Redo</button>
      <button type="button" onClick={() => void autoLayout()} disabled={busy}>Auto layout</button>
      <span className="toolbar-sep" aria-hidden="true" />
      <label className="template-picker">
        Template
        <select value="" onChange={(event) => openTemplate(event.target.value)}>
          <option value="">Open…</option>
          {TEMPLATES.map((template) => (
            <option key={template.id} value={template.id}>{template.title}</option>
          ))}
        </select>
      </label>
      <button type="button" onClick={newGraph}>New graph</button>
      <label className="file-button">
        <span aria-hidden="true">Import…</span>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          aria-label="Import JSON"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file && confirmDrop()) void importFile(file);
          }}
        />
      </label>
      <button type="button" onClick={() => setDialog({ type: 'paste' })}>Paste JSON</button>
      <button type="button" onClick={exportJson}>Export JSON</button>
      <button type="button" onClick={() => setDialog({ type: 'mermaid', text: toMermaid(useApp.getState().graph) })}>Mermaid</button>
      <button type="button" onClick={() => void share()}>Share link</button>
      {importError && (
        <div className="import-error" role="alert">
          <span>{importError}</span>
          <button type="button" onClick={dismissImportError} aria-label="Dismiss import error">×</button>
        </div>
      )}
      {dialog && <ToolbarDialog dialog={dialog} onClose={() => setDialog(null)} />}
    </div>
  );
}

function ToolbarDialog({ dialog, onClose }: { dialog: NonNullable<Dialog>; onClose: () => void }) {
  const [text, setText] = useState('');
  const [copied, setCopied] = useState(false);
  const copy = (value: string) =>
    navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  const title = dialog.type === 'paste' ? 'Paste JSON' : dialog.type === 'mermaid' ? 'Mermaid flowchart' : 'Share link';
  return (
    <div className="dialog-backdrop" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-label={title}>
        <h2>{title}</h2>
        {dialog.type === 'paste' && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!confirmDrop()) return;
              void importGraphText(text, 'the pasted JSON').then((opened) => opened && onClose());
            }}
          >
            <textarea aria-label="Graph JSON" value={text} onChange={(event) => setText(event.target.value)} rows={14} autoFocus />
            <div className="dialog-actions">
              <button type="submit">Open</button>
              <button type="button" onClick={onClose}>Cancel</button>
            </div>
          </form>
        )}
        {dialog.type !== 'paste' && (
          <>
            <textarea aria-label={dialog.type === 'mermaid' ? 'Mermaid text' : 'Share URL'} readOnly value={dialog.type === 'mermaid' ? dialog.text : dialog.url} rows={dialog.type === 'mermaid' ? 14 : 4} />
            <div className="dialog-actions">
              <button type="button" onClick={() => void copy(dialog.type === 'mermaid' ? dialog.text : dialog.url)}>{copied ? 'Copied' : 'Copy'}</button>
              {dialog.type === 'mermaid' && (
                <button type="button" onClick={() => downloadText(`${slugOf(useApp.getState().graph.name)}.mmd`, dialog.text, 'text/plain')}>
                  Download
                </button>
              )}
              <button type="button" onClick={onClose}>Close</button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
