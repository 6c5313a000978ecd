import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useApp } from '../store/index.ts';
import { useRunSessions } from '../hooks/runSessions.ts';
import { focusTimeline, focusTimelineIfAsked } from './focus.ts';
import { onDemand } from '../ui/onDemand.ts';
import { RunSettings } from './RunToolbar.tsx';
import { TraceFiles } from './TraceFiles.tsx';

/** The timeline's list and what reads a run: not on the first screen, which has no run yet. Asked for as soon as there is a run. */
const runView = onDemand(() => import('./TimelineRun.tsx'));
export const loadTimelineRun = runView.load;
const useRunView = runView.useModule;

/**
 * The timeline's list with no rows, as the run view draws it before any run. Run moves the focus
 * to the list: when the run view's list replaces this one, `focusLeft` says it had the focus.
 */
function NoRows({ focusLeft, children }: { focusLeft: () => void; children: ReactNode }) {
  const watch = useCallback(
    (element: HTMLDivElement | null) => () => {
      if (element && document.activeElement === element) focusLeft();
    },
    [focusLeft],
  );
  return (
    <div className="timeline-scroll">
      {children}
      <div ref={watch} role="list" aria-label="Timeline" className="timeline-list" style={{ height: 0 }} tabIndex={-1} />
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
  const hasRuns = useApp((state) => state.runs.length > 0);
  const view = useRunView(hasRuns);
  // Set while the empty list goes with the focus, for the run view's list to take it.
  const refocus = useRef(false);
  const focusLeft = useCallback(() => void (refocus.current = true), []);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    focusTimeline();
  });
  useLayoutEffect(focusTimelineIfAsked, []);
  // The panel's height as its ResizeObserver last told it: the run view's list is no taller, so
  // the list's first window can be placed without reading layout in the middle of its commit.
  const section = useRef<HTMLElement>(null);
  const panelHeight = useRef<number | null>(null);
  useEffect(() => {
    const element = section.current;
    if (!element) return;
    const observer = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.contentRect;
      if (box) panelHeight.current = box.height;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <section ref={section} className="timeline" aria-label="Timeline panel">
      <div className="timeline-head">
        <h2>Timeline</h2>
        <RunSettings />
        {view && <view.RunPicker />}
        <TraceFiles />
        <SessionAlert />
      </div>
      {view ? (
        <view.TimelineRun heightAtMost={panelHeight} />
      ) : (
        <NoRows focusLeft={focusLeft}>
          <p className="muted">No run yet: press Run or Step, or import a trace.</p>
        </NoRows>
      )}
    </section>
  );
}
