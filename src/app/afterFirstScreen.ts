/**
 * What the page starts once its first screen is drawn and the page is idle (main.tsx): none of it
 * is needed to draw that screen.
 */
import { loadPanels } from './App.tsx';
import { PANELS } from './panelRegistry.ts';
import { useApp } from '../store/index.ts';
import { openLinkedGraph } from './startup.ts';
import { whenQuiet } from './whenQuiet.ts';
import { warmUpRuntime } from '../store/runSlice.ts';
import { startRunSessions } from '../persistence/runSessions.ts';
import { keepMcpServerUrls } from '../persistence/mcpServerUrls.ts';

/** A share link pasted into the address of an open tab changes only the fragment: it opens too. Not needed before then, so not on the first screen. */
export const followLinksInAddress = (target: Window = window) => {
  const onHashChange = () =>
    void openLinkedGraph(new URL(target.location.href), target.history).then(({ problem }) => {
      if (problem) useApp.setState({ importError: problem });
    });
  target.addEventListener('hashchange', onHashChange);
  return () => target.removeEventListener('hashchange', onHashChange);
};

/**
 * A share link pasted into the address is followed from now on. The crash page loads, so that it
 * shows at once should drawing fail (and whatever the network does then). The parser's worker starts (a big file imported later opens sooner), and each panel's warm-up
 * loads what it shows later (the timeline's run view, the step view, the selection's forms: small), so the first trace does not wait for them. The runtime (LangGraph,
 * a megabyte of script) loads for the first Run once the person pauses: evaluating it holds the
 * page ~50 ms in one piece, a hitch in a drag begun at once.
 */
const warmUp = () => {
  followLinksInAddress();
  void import('./CrashPage.tsx');
  void import('../persistence/offThread.ts').then(({ warmParser }) => warmParser());
  void loadPanels().then(() => Promise.all(PANELS.map((panel) => panel.warmUp?.())));
  // Quiet since the page began to load: nobody uses a page before its first screen.
  whenQuiet(warmUpRuntime, undefined, window, 0);
};

/**
 * What starts once the first screen is drawn (main.tsx): the open graph's runs (restored, then kept
 * as they go on: that needs zod and the runtime's trace, whose loading and evaluating held a big
 * graph's first screen back), the MCP servers' addresses, and the warm-ups. One chunk, so the first
 * screen names one module to load then, not three.
 */
export const afterFirstScreen = () => {
  void startRunSessions();
  keepMcpServerUrls();
  warmUp();
};
