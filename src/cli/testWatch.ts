/**
 * `loopscope test --watch FILE|FOLDER…`: the files' scenarios run once, then again for each file
 * that changes on disk (an editor's save, `git checkout`, the page of `loopscope open` writing its
 * edits), and only what changed since that file's last run is printed: a scenario that now fails
 * (with the sentence saying where its run parts from what it expects), one that now passes, one
 * added or removed. Ctrl-C stops it.
 */
import { watch as watchPath, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { visibleText } from '../graph/visible.ts';
import { passed, report, tally, type CaseReport, type FileReport } from './reporters.ts';

interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A file written twice in a row (an editor's save through a temporary file and a rename) is run once. */
export const WATCH_DEBOUNCE_MS = 100;

/** Why a scenario fails, in one sentence: where its run parts from what it expects, else its first failed expectation. */
const why = (test: CaseReport) => test.error?.split('\n')[0] ?? test.cause ?? test.failures[0]?.message ?? 'failed';
const verdict = (test: CaseReport) => (passed(test) ? 'passes' : `fails — ${why(test)}`);

/** What changed in a file's scenarios between two runs of it (`before` undefined: the file was not there, or not a graph). */
export const changesSince = (before: FileReport | undefined, after: FileReport): string[] => {
  if (after.problem) return before?.problem?.message === after.problem.message ? [] : after.problem.message.split('\n');
  const earlier = new Map((before?.problem ? [] : (before?.cases ?? [])).map((test) => [test.name, test]));
  const lines: string[] = [];
  for (const test of after.cases) {
    const was = earlier.get(test.name);
    earlier.delete(test.name);
    if (!was) lines.push(`  + ‘${test.name}’ ${verdict(test)}`);
    else if (passed(was) && !passed(test)) lines.push(`  ✗ ‘${test.name}’ now fails — ${why(test)}`);
    else if (!passed(was) && passed(test)) lines.push(`  ✓ ‘${test.name}’ now passes`);
    else if (!passed(test) && why(was) !== why(test)) lines.push(`  ✗ ‘${test.name}’ still fails, now — ${why(test)}`);
  }
  for (const name of earlier.keys()) lines.push(`  − ‘${name}’ removed`);
  return lines;
};

export interface WatchOptions {
  /** The paths as given: files and folders. */
  named: string[];
  /** Every graph file they stand for now. */
  files: string[];
  testFile: (file: string) => Promise<FileReport>;
  io: Output;
  /** Resolves when the watch is to stop (Ctrl-C). */
  stopped: Promise<unknown>;
}

export const watchTests = async ({ named, files, testFile, io, stopped }: WatchOptions): Promise<number> => {
  const { openFolder } = await import('./folder.ts');
  const { stat } = await import('node:fs/promises');
  const last = new Map<string, FileReport>();
  for (const file of files) last.set(file, await testFile(file));
  for (const line of report('text', [...last.values()])) io.out(line);

  /** One run at a time, in the order the changes came. */
  let queue = Promise.resolve();
  const rerun = (file: string, removed = false) => {
    queue = queue.then(async () => {
      const head = visibleText(file);
      if (removed) {
        if (last.delete(file)) io.out(`${head}: removed`);
        return;
      }
      const now = await testFile(file);
      const lines = changesSince(last.get(file), now);
      last.set(file, now);
      const { passed: ok, failed } = tally([...last.values()]);
      const title = now.graph === undefined ? head : `${head} (${visibleText(now.graph)})`;
      if (lines.length === 0) io.out(`${title}: no scenario changed (${ok} passed, ${failed} failed)`);
      else {
        io.out(`${title} changed:`);
        for (const line of lines) io.out(visibleText(line));
        io.out(`${ok} passed, ${failed} failed`);
      }
    });
  };

  const stops: (() => unknown)[] = [];
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  try {
    for (const path of named) {
      const isFolder = await stat(path).then((stats) => stats.isDirectory(), () => false);
      if (isFolder) {
        // Its graph files, as `loopscope open` follows them: subfolders, files added and removed.
        const folder = await openFolder(path);
        stops.push(await folder.watch((change) => rerun(join(path, ...change.path.split('/')), change.kind === 'removed'), { debounceMs: WATCH_DEBOUNCE_MS, onError: (error) => io.err(`${path}: ${error.message}`) }));
        continue;
      }
      // The file's folder, not the file: an editor that saves through a temporary file renamed over
      // it replaces the very file a watcher on it would follow.
      const name = basename(path);
      const watcher: FSWatcher = watchPath(dirname(path), (_event, changed) => {
        if (changed !== name) return;
        clearTimeout(timers.get(path));
        timers.set(path, setTimeout(() => void stat(path).then(() => rerun(path), () => rerun(path, true)), WATCH_DEBOUNCE_MS));
      });
      watcher.on('error', (error) => io.err(`${path}: ${error.message}`));
      stops.push(() => watcher.close());
    }
    io.out(`Watching ${named.map(visibleText).join(', ')} for changes · Ctrl-C stops`);
    await stopped;
  } finally {
    for (const timer of timers.values()) clearTimeout(timer);
    for (const stop of stops) await stop();
  }
  await queue;
  io.out('Stopped watching.');
  return 0;
};
