import '../graph/jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { openInitialGraph } from './startup.ts';
import { startPersistence } from '../store/persistence.ts';
import { startRunSessions } from '../store/runSessions.ts';
import './styles.css';

const url = new URL(window.location.href);

// The autosave is read before the first render, so the first screen is the restored graph.
void startPersistence(url).finally(() => {
  openInitialGraph(url);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
  // The runs of the last session come back over the restored graph, and are kept as they go on.
  void startRunSessions(url);
});
