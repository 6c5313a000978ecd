/**
 * The fixed CPU load of `npm run bench -- --loaded` (issue 57): busy Node processes at a lower
 * priority, as a dev server, a LangGraph server and a test watcher beside the app are. Started by
 * the bench and ended by their process ids, whatever happens to the run.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** Niceness of the load: below the browser, as a build or a watcher in the background runs. */
const NICE = 10;

export const startLoad = (processes = 2) => {
  const children = Array.from({ length: processes }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  for (const child of children) if (child.pid !== undefined) setPriority(child.pid, NICE);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const child of children) if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid);
  };
  process.once('exit', stop);
  return { describe: `${processes} busy Node processes at niceness ${NICE}`, stop };
};
