import { lazy, Suspense, useEffect, useState } from 'react';
import { blankGraph, moveNodes, serializeGraph } from '../graph/index.ts';
import { FOREIGN_EDIT_NOTE, useApp } from '../store/index.ts';
import { fileLibrary } from '../hooks/library.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { ExportIcon, ImportIcon, LayoutIcon, LibraryIcon, MermaidIcon, NewGraphIcon, PasteIcon, RedoIcon, ShareIcon, UndoIcon } from '../ui/icons.tsx';
import { ToolButton } from '../ui/ToolButton.tsx';
import { requestFit } from '../ui/fitRequest.ts';
import { layoutInWorker } from './runLayout.ts';
import { downloadText, exportFileName, slugOf } from './download.ts';
import { importFile, importGraphText } from './importExport.ts';

// A dialog, not on the first screen: loaded when it is first opened.
const GraphLibrary = lazy(() => import('./GraphLibrary.tsx').then((module) => ({ default: module.GraphLibrary })));
const NewFileDialog = lazy(() => import('./NewFileDialog.tsx').then((module) => ({ default: module.NewFileDialog })));

type Dialog = { type: 'library' } | { type: 'new-file' } | { type: 'paste' } | { type: 'mermaid'; text: string } | { type: 'share'; url: string } | null;

export function EditorToolbar() {
  const canUndo = useApp((state) => state.past.length > 0);
  const canRedo = useApp((state) => state.future.length > 0);
  const importError = useApp((state) => state.importError);
  // A server's LangGraph graph takes no edits: the controls that edit it are off and say why.
  const foreign = useApp((state) => state.foreign !== null);
  const { undo, redo, dismissImportError } = useApp.getState();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);

  const exportJson = () => {
    const { graph } = useApp.getState();
    downloadText(exportFileName(graph), serializeGraph(graph));
  };

  const autoLayout = async () => {
    setBusy(true);
    try {
      const positions = await layoutInWorker({ graph: useApp.getState().graph });
      // Edits made while the worker ran are kept: only the positions change.
      useApp.getState().edit((current) => moveNodes(current, positions));
      requestFit();
    } finally {
      setBusy(false);
    }
  };

  // A document opened without positions of its own (a LangGraph server's graph) is laid out once, as Auto layout would.
  const layoutAsked = useApp((state) => state.layoutAsked);
  useEffect(() => {
    if (!layoutAsked) return;
    useApp.setState({ layoutAsked: false });
    void autoLayout();
  }, [layoutAsked]);

  // Under `loopscope open` a new graph is a new file, named first.
  const newGraph = () => (fileLibrary() ? setDialog({ type: 'new-file' }) : useApp.getState().load(blankGraph()));

  const share = async () => {
    // Not written into this tab's address: a reload would then reopen the shared copy over later edits.
    const { shareUrl } = await import('./shareLink.ts');
    const url = await shareUrl(serializeGraph(useApp.getState().graph), `${window.location.origin}${window.location.pathname}`);
    void navigator.clipboard?.writeText(url).catch(() => undefined);
    setDialog({ type: 'share', url });
  };

  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Editor">
      <ToolButton icon={LibraryIcon} label="Graphs" title="Your graphs, kept in this browser, and the templates" onClick={() => setDialog({ type: 'library' })} aria-haspopup="dialog" />
      <ToolButton icon={NewGraphIcon} label="New graph" compact="wide" onClick={newGraph} title="New graph (the open one stays under Graphs)" />
      <span className="toolbar-sep" aria-hidden="true" />
      <ToolButton icon={UndoIcon} label="Undo" compact="always" onClick={undo} disabled={foreign || !canUndo} title={foreign ? FOREIGN_EDIT_NOTE : 'Undo (Ctrl+Z)'} />
      <ToolButton icon={RedoIcon} label="Redo" compact="always" onClick={redo} disabled={foreign || !canRedo} title={foreign ? FOREIGN_EDIT_NOTE : 'Redo (Ctrl+Shift+Z)'} />
      <ToolButton icon={LayoutIcon} label="Auto layout" onClick={() => void autoLayout()} disabled={busy || foreign} title={foreign ? FOREIGN_EDIT_NOTE : 'Lay the graph out left to right, with room for every edge label'} />
      <span className="toolbar-sep" aria-hidden="true" />
      <label className="file-button tool-button compact-wide" title="Import JSON (opens as a new graph)">
        <ImportIcon size={16} aria-hidden="true" focusable="false" />
        <span className="tool-label" aria-hidden="true">Import JSON</span>
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Import JSON"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
      </label>
      <ToolButton icon={PasteIcon} label="Paste JSON" compact="wide" onClick={() => setDialog({ type: 'paste' })} aria-haspopup="dialog" />
      <ToolButton icon={ExportIcon} label="Export JSON" compact="wide" onClick={exportJson} />
      <ToolButton icon={MermaidIcon} label="Mermaid" compact="wide" onClick={() => void import('./mermaid.ts').then(({ toMermaid }) => setDialog({ type: 'mermaid', text: toMermaid(useApp.getState().graph) }))} aria-haspopup="dialog" title="The graph as a Mermaid flowchart" />
      <ToolButton icon={ShareIcon} label="Share link" compact="wide" onClick={() => void share()} aria-haspopup="dialog" title="A link carrying the graph; it opens as a new graph" />
      {importError && (
        <div className="import-error" role="alert">
          <span>{importError}</span>
          <button type="button" onClick={dismissImportError} aria-label="Dismiss import error">Dismiss</button>
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
  if (dialog.type === 'library') return <Suspense fallback={null}><GraphLibrary onClose={onClose} /></Suspense>;
  if (dialog.type === 'new-file') return <Suspense fallback={null}><NewFileDialog onClose={onClose} /></Suspense>;
  const title = dialog.type === 'paste' ? 'Paste JSON' : dialog.type === 'mermaid' ? 'Mermaid flowchart' : 'Share link';
  return (
    <Dialog title={title} onClose={onClose}>
      {dialog.type === 'paste' && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void importGraphText(text, 'the pasted JSON').then((opened) => opened && onClose());
          }}
        >
          <textarea aria-label="Graph JSON" value={text} onChange={(event) => setText(event.target.value)} rows={14} data-autofocus />
          <p className="field-help">It opens as a new graph; the one open now stays under Graphs.</p>
          <div className="dialog-actions">
            <button type="submit">Open</button>
            <button type="button" onClick={onClose}>Cancel</button>
          </div>
        </form>
      )}
      {dialog.type !== 'paste' && (
        <>
          <textarea aria-label={dialog.type === 'mermaid' ? 'Mermaid text' : 'Share URL'} readOnly value={dialog.type === 'mermaid' ? dialog.text : dialog.url} rows={dialog.type === 'mermaid' ? 14 : 4} data-autofocus />
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
    </Dialog>
  );
}
