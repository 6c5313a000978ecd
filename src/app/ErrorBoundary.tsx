import { Component, type ErrorInfo, type ReactNode } from 'react';
import { blankGraph } from '../graph/index.ts';
import { downloadText, exportFileName } from '../editor/download.ts';
import { useApp } from '../store/index.ts';

interface State {
  error: Error | null;
}

/**
 * When drawing fails, the page says so and the graph stays in the store, unharmed: it can be
 * exported, the last change undone, or the screen tried again. A blank page would hide all that.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    // The component stack is what a bug report needs; the graph itself is never logged.
    console.error(`Loopscope could not draw the page: ${error.message}${info.componentStack ?? ''}`);
  }

  private retry = () => this.setState({ error: null });

  private exportGraph = () => {
    const { graph } = useApp.getState();
    // The text serializeGraph writes (it is JSON.stringify's), written here without its per-node
    // cache: the saving code is not part of the first screen, where this page can show.
    downloadText(exportFileName(graph), `${JSON.stringify(graph, null, 2)}\n`);
  };

  private undo = () => {
    useApp.getState().undo();
    this.retry();
  };

  private openBlank = () => {
    useApp.getState().load(blankGraph());
    this.retry();
  };

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const canUndo = useApp.getState().past.length > 0;
    return (
      <main className="crash" role="alert" aria-labelledby="crash-title">
        <h1 id="crash-title">Loopscope could not draw this graph</h1>
        <p className="crash-reason">{error.message || String(error)}</p>
        <p>Your graph is kept as it was. Export it to keep a copy, then undo the last change, try again, or open a blank graph (Undo brings this one back).</p>
        <div className="crash-actions">
          <button type="button" onClick={this.exportGraph}>Export JSON</button>
          {canUndo && <button type="button" onClick={this.undo}>Undo</button>}
          <button type="button" onClick={this.retry}>Try again</button>
          <button type="button" onClick={this.openBlank}>Open a blank graph</button>
        </div>
      </main>
    );
  }
}
