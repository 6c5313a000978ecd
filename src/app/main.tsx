import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadPanels } from './App.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { followLinksInAddress, openInitialGraph } from './startup.ts';
import { whenQuiet } from './whenQuiet.ts';
import { startPersistence } from '../store/persistence.ts';
import { warmUpRuntime } from '../store/runSlice.ts';
import { afterDrawing } from '../store/afterDrawing.ts';
import './styles.css';

/** The longest the saver waits for the page's first idle time after the first screen. */
const SAVER_WAITS_AT_MOST_MS = 500;

let firstScreenDrawn!: () => void;
// The saver is not needed to draw the first screen: it loads once that is drawn, and saves what
// was edited before it started.
startPersistence({ savingFrom: new Promise<void>((resolve) => (firstScreenDrawn = resolve)) });
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
  afterDrawing(firstScreenDrawn, SAVER_WAITS_AT_MOST_MS);
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
