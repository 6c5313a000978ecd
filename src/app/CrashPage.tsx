import { blankGraph } from '../graph/index.ts';
import { downloadText, exportFileName } from '../editor/download.ts';
import { useApp } from '../store/index.ts';

/**
 * What the page shows when drawing fails (ErrorBoundary.tsx): what went wrong, with the graph kept
 * in the store, unharmed: it can be exported, the last change undone, or the screen tried again.
 */
export function CrashPage({ error, retry }: { error: Error; retry: () => void }) {
  const exportGraph = () => {
    const { graph } = useApp.getState();
    // The text serializeGraph writes (it is JSON.stringify's), written here without its per-node
    // cache: the saving code may not have loaded when this page shows.
    downloadText(exportFileName(graph), `${JSON.stringify(graph, null, 2)}\n`);
  };
  const undo = () => {
    useApp.getState().undo();
    retry();
  };
  const openBlank = () => {
    useApp.getState().load(blankGraph());
    retry();
  };
  const canUndo = useApp.getState().past.length > 0;
  return (
    <main className="crash" role="alert" aria-labelledby="crash-title">
      <h1 id="crash-title">Loopscope could not draw this graph</h1>
      <p className="crash-reason">{error.message || String(error)}</p>
      <p>Your graph is kept as it was. Export it to keep a copy, then undo the last change, try again, or open a blank graph (Undo brings this one back).</p>
      <div className="crash-actions">
        <button type="button" onClick={exportGraph}>Export JSON</button>
        {canUndo && <button type="button" onClick={undo}>Undo</button>}
        <button type="button" onClick={retry}>Try again</button>
        <button type="button" onClick={openBlank}>Open a blank graph</button>
      </div>
    </main>
  );
}
