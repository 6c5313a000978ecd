import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject, type UIEvent } from 'react';
import { kindDefinition } from '../graph/index.ts';
import { visibleText } from '../graph/visible.ts';
import { storedWords } from '../graph/reasonWords.ts';
import type { Attempt, TraceStep } from '../runtime/trace.ts';
import { useApp } from '../store/index.ts';
import type { RunRecord } from '../store/runSlice.ts';
import { retryVerdict, roundsOverview, rowAt, VERDICT_WORDS, visibleRange, whereRunsPart, type RetryVerdict, type RoundSummary, type TimelineRow } from './analysis.ts';
import { roundCount, timelineLayout, type TimelineLayout } from '../runtime/timelineLayout.ts';
import { traceIndex } from '../runtime/traceIndex.ts';
import { nodeLabel, useActiveRun } from './hooks.ts';
import { kindIconImage, StopIcon, WarningIcon } from '../ui/icons.tsx';
import { Shown } from '../ui/Shown.tsx';

/**
 * The timeline's list and what reads a run: its rows, laid out from the run's index and drawn a
 * window at a time, the rounds overview and the run picker. Loaded once the first screen is idle,
 * or when a run or trace is shown first; until then the timeline is its empty list (no run yet).
 */

export const ROW_HEIGHT = 26;
const EMPTY_OFFSETS = new Float64Array(1);
/** Below this many rows every row is in the DOM (and countable); above it only the visible ones. */
export const VIRTUALISE_ABOVE = 300;
/** Scrolling re-renders only when the top moves by this many rows; the overscan covers the rest. */
const SCROLL_STRIDE = 4;
/** The window's top row for a scroll position, in whole strides. */
const strideOf = (scrollTop: number) => Math.floor(scrollTop / ROW_HEIGHT / SCROLL_STRIDE) * SCROLL_STRIDE;

/** `foreign`: an attempt of a LangGraph node Loopscope did not make, which has no tokens, plan or retry verdict of Loopscope's to tell. */
function AttemptLine({ attempt, verdict, foreign }: { attempt: Attempt; verdict: RetryVerdict; foreign: boolean }) {
  const failed = attempt.outcome !== 'ok' && attempt.outcome !== 'empty';
  return (
    <div className={`tl-attempt${failed ? ' failed' : ''}`} style={{ height: ROW_HEIGHT }}>
      <span className="tl-attempt-n">{attempt.iteration === undefined ? '' : `iter ${attempt.iteration} · `}attempt {attempt.n}</span>
      <span><Shown text={attempt.skill} /></span>
      <span className={`tl-outcome outcome-${attempt.outcome}`}>{attempt.outcome}</span>
      {verdict !== 'ok' && !foreign && <span className={`tl-verdict ${verdict}`}>{VERDICT_WORDS[verdict]}</span>}
      {attempt.error && <span className="tl-error" title={visibleText(attempt.error)}><Shown text={attempt.error} /></span>}
      {attempt.retry && (verdict !== 'ok' || foreign) && <span className="tl-why" title={visibleText(attempt.retry)}><Shown text={attempt.retry} /></span>}
      {!foreign && <span className="tl-num">{attempt.tokens} tok</span>}
    </div>
  );
}

/** A step's row; drawn again only when it changes (selecting a step redraws the two rows whose selection changed). */
const StepItem = memo(function StepItem({ step, label, selected, onSelect, total }: { step: TraceStep; label: string; selected: boolean; onSelect: (step: number) => void; total: number }) {
  const kind = kindDefinition(step.kind);
  return (
    <div
      role="listitem"
      className={`tl-step${selected ? ' selected' : ''}${step.guard ? ' guarded' : ''}`}
      aria-current={selected ? 'step' : undefined}
      aria-posinset={step.step}
      aria-setsize={total}
      tabIndex={selected ? 0 : -1}
      data-step={step.step}
      onClick={() => onSelect(step.step)}
    >
      <div className="tl-step-line" style={{ height: ROW_HEIGHT }}>
        <span className="tl-num">#{step.step}</span>
        <span className="tl-kind-icon icon-image" aria-hidden="true" style={{ '--icon': kindIconImage(kind.icon, kind.color) } as React.CSSProperties} />
        <span className="tl-label"><Shown text={label} /></span>
        {step.outcome && <span className={`tl-outcome outcome-${step.outcome}`}>{step.outcome}</span>}
        {step.blindRetry && <span className="tl-warn"><WarningIcon size={14} aria-hidden="true" /> blind retry</span>}
        {step.fired && (
          <span className="tl-fired" title={visibleText(storedWords(step.fired))}>
            → <Shown text={step.fired.id} /> <span className="tl-reason">(<Shown text={storedWords(step.fired)} />)</span>
          </span>
        )}
        {step.guard && <span className="tl-guard">guard: {step.guard.reason}</span>}
      </div>
      {step.attempts.length > 0 && (
        <div role="group" aria-label={`Attempts of step ${step.step}`} className="tl-attempts">
          {step.attempts.map((attempt, index) => <AttemptLine key={`${attempt.action ?? 0}-${attempt.n}`} attempt={attempt} verdict={retryVerdict(step.attempts, index)} foreign={step.server !== undefined} />)}
        </div>
      )}
    </div>
  );
});

function RowView({ row, stepLabel, selected, onSelect, total }: { row: TimelineRow; stepLabel: (id: string) => string; selected: number | null; onSelect: (step: number) => void; total: number }) {
  if (row.type === 'round')
    return (
      <div className="tl-round" style={{ height: ROW_HEIGHT }}>
        Round {row.round}
        {row.blindRetry && <span className="tl-warn"><WarningIcon size={14} aria-hidden="true" /> blind retry: the same plan as the last round, no new evidence</span>}
      </div>
    );
  if (row.type === 'stop')
    return (
      <div className="tl-stop" style={{ height: ROW_HEIGHT }}>
        <StopIcon size={14} aria-hidden="true" /> Stopped: <code>{row.reason}</code> <span className="tl-reason"><Shown text={row.explain} /></span>
      </div>
    );
  return <StepItem step={row.step} label={stepLabel(row.step.node)} selected={selected === row.step.step} onSelect={onSelect} total={total} />;
}

/** The node the live run is in, with its attempts as they end: a slow skill shows its retries at once. */
function InFlight() {
  const inFlight = useApp((state) => (state.activeRunId === state.liveRunId ? state.inFlight : null));
  const graph = useApp((state) => state.runs.find((run) => run.id === state.liveRunId)?.graph);
  if (!inFlight || !graph) return null;
  return (
    <p className="tl-inflight" aria-live="polite" aria-label="Step in flight">
      Step {inFlight.step} · <Shown text={nodeLabel(graph, inFlight.node)} /> running:{' '}
      {visibleText(inFlight.attempts.map((attempt) => `attempt ${attempt.n} ${attempt.skill} ${attempt.outcome}`).join(', '))}
    </p>
  );
}

/** How many rounds the overview lists at once: a long run has tens of thousands, and the DOM stays small. */
export const ROUNDS_PAGE = 100;

/** One row per round (path, outcome, cost): on a long run, which round went wrong shows at a glance. */
function RoundsOverview() {
  const run = useActiveRun();
  const [open, setOpen] = useState(false);
  const count = useMemo(() => (run ? roundCount(traceIndex(run.trace.steps)) : 0), [run]);
  if (!run || count === 0) return null;
  return (
    <details className="rounds-overview" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Rounds overview ({count})</summary>
      {open && <RoundsTable run={run} />}
    </details>
  );
}

/** The overview's rows, a page of them at a time (first the page holding the selected step's round), made and rendered only while it is open. */
function RoundsTable({ run }: { run: RunRecord }) {
  const rounds: RoundSummary[] = useMemo(() => roundsOverview(run.trace), [run]);
  const graph = useApp((state) => state.graph);
  const selectStep = useApp((state) => state.selectStep);
  const selectedRound = useApp((state) => (state.selectedStep === null ? undefined : run.trace.steps[state.selectedStep - 1]?.round));
  const [chosenStart, setChosenStart] = useState<number | null>(null);
  const selectedAt = selectedRound === undefined ? 0 : Math.max(0, rounds.findIndex((round) => round.round === selectedRound));
  const start = chosenStart ?? Math.floor(selectedAt / ROUNDS_PAGE) * ROUNDS_PAGE;
  const shown = rounds.slice(start, start + ROUNDS_PAGE);
  const label = (id: string) => nodeLabel(run.graph ?? graph, id);
  const firstStepOf = (round: number) => run.trace.steps.find((step) => step.round === round)?.step;
  return (
    <>
      {rounds.length > ROUNDS_PAGE && (
        <p className="rounds-page">
          <button type="button" disabled={start === 0} onClick={() => setChosenStart(Math.max(0, start - ROUNDS_PAGE))}>Earlier rounds</button>
          {' '}Rounds {shown[0].round}–{shown[shown.length - 1].round} of {rounds.length}{' '}
          <button type="button" disabled={start + ROUNDS_PAGE >= rounds.length} onClick={() => setChosenStart(start + ROUNDS_PAGE)}>Later rounds</button>
        </p>
      )}
      <table aria-label="Rounds">
        <thead><tr><th>Round</th><th>Path</th><th>Outcome</th><th>Tokens</th></tr></thead>
        <tbody>
          {shown.map((round) => (
            <tr key={round.round} className={round.outcome.startsWith('stopped') && round.outcome !== 'stopped: completed' ? 'round-halted' : undefined}>
              <th scope="row">
                <button type="button" className="link" aria-label={`Go to round ${round.round}`} onClick={() => {
                  const first = firstStepOf(round.round);
                  if (first !== undefined) selectStep(first);
                }}>{round.round}</button>
              </th>
              <td><Shown text={round.path.map(label).join(' → ') || '—'} /></td>
              <td><code>{round.outcome}</code></td>
              <td>{round.tokens}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function RunPicker() {
  const runs = useApp((state) => state.runs);
  const activeRunId = useApp((state) => state.activeRunId);
  const selectRun = useApp((state) => state.selectRun);
  const active = runs.find((run) => run.id === activeRunId);
  const parent = active?.forkOf ? runs.find((run) => run.id === active.forkOf?.run) : undefined;
  const parting = active && parent ? whereRunsPart(parent, active) : null;
  if (runs.length === 0) return null;
  return (
    <>
      <label className="run-field">
        Shown run
        <select value={activeRunId ?? ''} onChange={(event) => selectRun(Number(event.target.value))}>
          {activeRunId === null && <option value="" disabled>(none shown)</option>}
          {runs.map((run) => <option key={run.id} value={run.id}>{visibleText(run.label)}</option>)}
        </select>
      </label>
      {active && parent && (
        <p className="tl-parting"><Shown text={parting ? parting.sentence : `Run ${active.id} takes the same edges as run ${parent.id}`} /></p>
      )}
    </>
  );
}


/** The scroll position that brings the rows from `top` to `end` (pixels) into a list of `height` scrolled to `current`. */
const scrollToShow = (span: { top: number; end: number }, current: number, height: number) => (span.top < current ? span.top : span.end > current + height ? span.end - height : current);

/**
 * The rows (pixels) that show the selected step: its own, down to the end of the list for the last
 * step of a stopped run (its stop row goes with it); null with no selection or no such row.
 */
const selectedSpan = (layout: TimelineLayout | null, selected: number | null, stopped: boolean, stepCount: number) => {
  const index = selected === null ? undefined : layout?.rowOfStep[selected - 1];
  if (!layout || index === undefined) return null;
  const { offsets } = layout;
  const end = stopped && selected === stepCount ? offsets[offsets.length - 1] : offsets[index + 1];
  return { top: offsets[index] * ROW_HEIGHT, end: end * ROW_HEIGHT };
};

/**
 * The shown run's rows, a window of them at a time, keeping the selected step in view.
 * `heightAtMost`: a height the list is no taller than (its panel's), when known.
 */
export function TimelineRun({ heightAtMost }: { heightAtMost?: RefObject<number | null> }) {
  const run = useActiveRun();
  const graph = useApp((state) => state.graph);
  const selected = useApp((state) => state.selectedStep);
  const selectStep = useApp((state) => state.selectStep);
  const status = useApp((state) => state.runStatus);
  const scroller = useRef<HTMLDivElement>(null);
  const movedByKey = useRef(false);
  const [strideTop, setStrideTop] = useState(0);
  const [viewport, setViewport] = useState(() => heightAtMost?.current ?? 400);
  /**
   * The list's scroll position and height as last set or seen, so that following the selection reads
   * no layout: reading `scrollTop` or `clientHeight` right after the rows changed has the browser lay
   * the page out there and then, and again for the frame. Until its ResizeObserver has told it, the
   * height is its panel's (`exact` false): the list is no taller, so a window placed for it covers the list.
   */
  const known = useRef({ top: 0, height: viewport, exact: false });
  /** The rows (pixels) to bring into view at the next frame, where the browser lays the page out anyway. */
  const pending = useRef<{ top: number; end: number } | null>(null);

  // Laid out from the run's index; only the rows in the window below become objects and elements.
  const layout = useMemo(() => (run ? timelineLayout(run.trace, traceIndex(run.trace.steps), run.stepCount) : null), [run]);
  const offsets = layout?.offsets ?? EMPTY_OFFSETS;
  const rowCount = layout?.rows.length ?? 0;
  const stepCount = run?.stepCount ?? 0;
  const stopped = status === 'stopped';
  // A new run or selection moves the window while rendering, before any row is made: moved only by
  // the effect below, the list would first be drawn at the old place (an imported run's top rows,
  // made and thrown away in the same task) and then again around the selection. The scroll position
  // is taken as the window's top: both lie in the same stride, where showing the span moves to the same stride.
  const [windowFor, setWindowFor] = useState<{ layout: typeof layout; selected: number | null; stopped: boolean } | null>(null);
  if (windowFor?.layout !== layout || windowFor.selected !== selected || windowFor.stopped !== stopped) {
    setWindowFor({ layout, selected, stopped });
    const span = selectedSpan(layout, selected, stopped, stepCount);
    if (span) setStrideTop(strideOf(scrollToShow(span, strideTop * ROW_HEIGHT, viewport)));
  }
  const virtual = rowCount > VIRTUALISE_ABOVE;
  const range = virtual ? visibleRange(offsets, ROW_HEIGHT, strideTop * ROW_HEIGHT, viewport + SCROLL_STRIDE * ROW_HEIGHT) : { start: 0, end: rowCount };
  const shownGraph = run?.graph ?? graph;
  const stepLabel = useCallback((id: string) => nodeLabel(shownGraph, id), [shownGraph]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const seen = (height: number) => {
      known.current.height = height;
      known.current.exact = true;
      setViewport(height);
    };
    // Its first call comes after the browser has laid the new list out for the frame.
    const observer = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.contentRect;
      if (box) seen(Math.round(box.height));
    });
    observer.observe(element);
    // With no height to start from, the list is measured now (the page is laid out at once).
    if (heightAtMost?.current == null) seen(element.clientHeight);
    return () => observer.disconnect();
  }, [heightAtMost]);

  // Keeps the selected step in view (during a live run it is the latest one): the window moves there
  // before the browser paints, so its row exists for the focus below, and the list scrolls at the next frame.
  useLayoutEffect(() => {
    const element = scroller.current;
    const span = selectedSpan(layout, selected, stopped, stepCount);
    if (!element || span === null) return;
    const current = known.current.top;
    const next = scrollToShow(span, current, known.current.height);
    if (next === current && known.current.exact) {
      pending.current = null;
      return;
    }
    setStrideTop(strideOf(next));
    if (pending.current === null)
      requestAnimationFrame(() => {
        const span = pending.current;
        if (span === null) return;
        pending.current = null;
        // Read here, the height costs no layout of its own: writing the scroll position lays the page out anyway.
        if (!known.current.exact) {
          known.current.height = element.clientHeight;
          known.current.exact = true;
        }
        const to = scrollToShow(span, known.current.top, known.current.height);
        if (to === known.current.top) return;
        element.scrollTop = to;
        known.current.top = to;
      });
    pending.current = span;
  }, [selected, layout, stopped, stepCount]);

  // Focus follows the selection when the timeline has it, or had it on a row that left the window
  // (Home and End on a long run move the window past the row that had the focus).
  useEffect(() => {
    const element = scroller.current;
    const row = element?.querySelector<HTMLElement>(`[data-step="${selected}"]`);
    if (!element || !row) return;
    if (movedByKey.current || (element.contains(document.activeElement) && document.activeElement !== element)) row.focus({ preventScroll: true });
    movedByKey.current = false;
  }, [selected, range.start, range.end]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    // A scroll of the person's overrides one still to be written for the selection.
    pending.current = null;
    known.current.top = event.currentTarget.scrollTop;
    setStrideTop(strideOf(known.current.top));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (stepCount === 0) return;
    const current = selected ?? 0;
    const next =
      event.key === 'ArrowDown' ? Math.min(stepCount, current + 1)
        : event.key === 'ArrowUp' ? Math.max(1, current - 1)
          : event.key === 'Home' ? 1
            : event.key === 'End' ? stepCount
              : null;
    if (next === null) return;
    event.preventDefault();
    movedByKey.current = true;
    selectStep(next);
  };

  const total = offsets[offsets.length - 1] * ROW_HEIGHT;
  return (
    <>
      <InFlight />
      <RoundsOverview />
      <div className="timeline-scroll" ref={scroller} onScroll={onScroll}>
        {rowCount === 0 && <p className="muted">{run ? 'No step yet: press Step or Run.' : 'No run shown: press Run or Step, pick one in Shown run, or import a trace.'}</p>}
        <div role="list" aria-label="Timeline" className="timeline-list" style={{ height: total }} onKeyDown={onKeyDown} tabIndex={selected === null && stepCount > 0 ? 0 : -1}>
          {run && layout && Array.from({ length: range.end - range.start }, (_, offset) => {
            const index = range.start + offset;
            const row = rowAt(run.trace, layout, index);
            return (
              <div key={row.type === 'step' ? `s${row.step.step}` : row.type === 'round' ? `r${index}` : 'stop'} className="tl-row" style={{ top: offsets[index] * ROW_HEIGHT, height: row.height * ROW_HEIGHT }}>
                <RowView row={row} stepLabel={stepLabel} selected={selected} onSelect={selectStep} total={stepCount} />
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
