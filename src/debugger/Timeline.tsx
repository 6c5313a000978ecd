import { lazy, Suspense, type ReactNode } from 'react';
import { useApp } from '../store/index.ts';
import { useRunSessions } from '../store/runSessionStatus.ts';
import { RunSettings } from './RunToolbar.tsx';
import { useActiveRun } from './hooks.ts';
import { TraceFiles } from './TraceFiles.tsx';

/** The timeline's run view (rows, rounds, run picker): not on the first screen, which has no run yet. */
export const loadTimelineRun = () => import('./TimelineRun.tsx');
const TimelineRun = lazy(() => loadTimelineRun().then((module) => ({ default: module.TimelineRun })));
const RunPicker = lazy(() => loadTimelineRun().then((module) => ({ default: module.RunPicker })));

/** The timeline's list with no rows: before the first run, and while the run view loads. */
function NoRows({ children }: { children?: ReactNode }) {
  return (
    <div className="timeline-scroll">
      {children}
      <div role="list" aria-label="Timeline" className="timeline-list" style={{ height: 0 }} tabIndex={-1} />
    </div>
  );
}

/** When the stored runs could not be read or written: the runs on screen are unaffected. */
function SessionAlert() {
  const error = useRunSessions((state) => state.error);
  if (!error) return null;
  return (
    <span role="alert" className="trace-error">
      {error} <button type="button" onClick={() => useRunSessions.setState({ error: null })}>Dismiss</button>
    </span>
  );
}

export function Timeline() {
  const run = useActiveRun();
  const hasRuns = useApp((state) => state.runs.length > 0);
  return (
    <section className="timeline" aria-label="Timeline panel">
      <div className="timeline-head">
        <h2>Timeline</h2>
        <RunSettings />
        {hasRuns && (
          <Suspense fallback={null}>
            <RunPicker />
          </Suspense>
        )}
        <TraceFiles />
        <SessionAlert />
      </div>
      {run ? (
        <Suspense fallback={<NoRows />}>
          <TimelineRun run={run} />
        </Suspense>
      ) : (
        <NoRows>
          <p className="muted">No run yet: press Run or Step, or import a trace.</p>
        </NoRows>
      )}
    </section>
  );
}
