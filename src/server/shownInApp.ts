/**
 * Where a LangGraph server's run meets the app's store: the run (serverRun.ts) tells how it is to
 * be shown, as its events tell a run's steps, and this listener alone calls the store's run actions
 * for it. The run itself calls into no store.
 */
import type { GraphFile } from '../graph/index.ts';
import type { RunController } from '../runtime/controller.ts';
import { useApp } from '../store/index.ts';

/** How the open thread's run is to be shown, keyed as the store keeps a server's runs (`url thread`, and `@head` for an older branch). */
export type ShownEvent =
  /** `run` shows the thread read last, as `key`: the live run, driven by the debugger's actions. */
  | { type: 'shown'; run: RunController; shown: { key: string; label: string; graph: GraphFile; foreign?: boolean } }
  /** The run shown as `base` stays beside the others as `kept` (a fork made a newer branch of its thread). */
  | { type: 'branch_kept'; base: string; kept: { key: string; label: string } }
  /** The runs shown as `left` and `right`, side by side in Compare runs. */
  | { type: 'compare'; left: string | undefined; right: string | undefined };

const runShownAs = (key: string | undefined) => useApp.getState().runs.find((run) => run.server === key)?.id;

/** Carries out what a server's run told: the store's own actions, nothing more. */
export const showInApp = async (event: ShownEvent) => {
  const app = useApp.getState();
  if (event.type === 'shown') await app.followRun(event.run, event.shown);
  else if (event.type === 'branch_kept') await app.keepServerBranch(event.base, event.kept);
  else {
    const [left, right] = [runShownAs(event.left), runShownAs(event.right)];
    if (left !== undefined && right !== undefined && left !== right) app.compareRuns({ left, right });
  }
};
