import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadPanels } from './App.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { followLinksInAddress, openInitialGraph } from './startup.ts';
import { whenQuiet } from './whenQuiet.ts';
import { startPersistence } from '../store/persistence.ts';
import { warmUpRuntime } from '../store/runSlice.ts';
import './styles.css';

startPersistence();
// The graph is opened before the first render, so the first screen is the graph the person was editing.
void openInitialGraph(new URL(window.location.href)).finally(() => {
  followLinksInAddress();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
  // The open graph's runs come back, and are kept as they go on. Restoring them needs the runtime,
  // which loads after the first screen anyway, so the session store does too.
  void import('../store/runSessions.ts').then((sessions) => sessions.startRunSessions());
  // Once the first screen is drawn, the parser's worker starts (a big file imported later opens
  // sooner), and the timeline's run view and the step view load (small), so the first trace does
  // not wait for them. The runtime (LangGraph, a megabyte of script) loads for the first Run once the
  // person pauses: evaluating it holds the page ~50 ms in one piece, a hitch in a drag begun at once.
  const warmUp = () => {
    void import('../store/offThread.ts').then(({ warmParser }) => warmParser());
    void loadPanels().then((panels) => Promise.all([panels.loadTimelineRun(), panels.loadStepView(), panels.loadSelectionForms()]));
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warmUp);
  else setTimeout(warmUp, 1000);
  whenQuiet(warmUpRuntime);
});
