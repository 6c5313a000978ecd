/**
 * What the page starts once its first screen is drawn and the page is idle (main.tsx): none of it
 * is needed to draw that screen.
 */
import { loadPanels } from './App.tsx';
import { useApp } from '../store/index.ts';
import { openLinkedGraph } from './startup.ts';
import { whenQuiet } from './whenQuiet.ts';
import { warmUpRuntime } from '../store/runSlice.ts';

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
 * shows at once should drawing fail (and whatever the network does then). The parser's worker starts (a big file imported later opens sooner), and the timeline's run view
 * and the step view load (small), so the first trace does not wait for them. The runtime (LangGraph,
 * a megabyte of script) loads for the first Run once the person pauses: evaluating it holds the
 * page ~50 ms in one piece, a hitch in a drag begun at once.
 */
export const warmUp = () => {
  followLinksInAddress();
  void import('./CrashPage.tsx');
  void import('../persistence/offThread.ts').then(({ warmParser }) => warmParser());
  void loadPanels().then((panels) => Promise.all([panels.loadTimelineRun(), panels.loadStepView(), panels.loadSelectionForms()]));
  // Quiet since the page began to load: nobody uses a page before its first screen.
  whenQuiet(warmUpRuntime, undefined, window, 0);
};
