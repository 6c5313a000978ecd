/**
 * The engine in a page with no UI: the runtime against straight LangGraph in the browser, and a
 * graph file run as the app runs it, for the bench to time against the app's own Run.
 */
import { parseGraph } from '../../src/graph/parse.ts';
import { compareLoops, runAsTheAppDoes } from '../loops.ts';

declare global {
  interface Window {
    engine: {
      compareLoops: typeof compareLoops;
      runGraph: (text: string) => ReturnType<typeof runAsTheAppDoes>;
    };
  }
}

window.engine = {
  compareLoops,
  runGraph: (text) => {
    const parsed = parseGraph(text);
    if (!parsed.ok) throw new Error(parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
    return runAsTheAppDoes(parsed.value);
  },
};
document.body.dataset.ready = 'true';
