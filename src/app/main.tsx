import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { openInitialGraph } from './startup.ts';
import { keepLayout } from '../persistence/browserSettings.ts';
import { startPersistence } from '../persistence/startPersistence.ts';
import { afterDrawing } from '../store/afterDrawing.ts';
import './styles.css';

/** The longest what comes after the first screen waits for the page's first idle time. */
const FIRST_SCREEN_WAITS_AT_MOST_MS = 500;

keepLayout();

let firstScreenDrawn!: () => void;
// The saver loads once the first screen is drawn, and saves what was edited before it started.
const savingFrom = new Promise<void>((resolve) => (firstScreenDrawn = resolve));
/**
 * Where the graphs are: the folder's files when `loopscope open` served this page (the address it
 * prints carries the server's token, and keeps it: a reload or a second tab reaches the folder too),
 * else this browser's library (IndexedDB).
 */
const libraryStarted = window.location.hash.includes('token=') ? import('../persistence/folderStart.ts').then((folder) => folder.startFolderLibrary(savingFrom)) : startPersistence({ savingFrom });
// The graph is opened before the first render, so the first screen is the graph the person was editing.
void Promise.resolve(libraryStarted).then(() => openInitialGraph(new URL(window.location.href))).finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
  // What is not needed to draw the first screen starts once it is drawn: the saver, and the rest
  // (afterFirstScreen.ts: the open graph's runs, the MCP servers' addresses, the warm-ups).
  afterDrawing(() => {
    firstScreenDrawn();
    void import('./afterFirstScreen.ts').then(({ afterFirstScreen }) => afterFirstScreen());
  }, FIRST_SCREEN_WAITS_AT_MOST_MS);
});
