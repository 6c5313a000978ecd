/**
 * The scenarios re-run on each edit (issue 56), as the page shows them: the count in the header, the
 * marks on the canvas where a scenario now parts from what it expects, and the Scenarios panel's
 * switch, time budget and notes. Loaded with the panels; the watch itself (store/scenarioWatch.ts)
 * loads after them, from the header's count.
 */
import { useReactFlow, useStore, type ReactFlowInstance } from '@xyflow/react';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { visibleText } from '../graph/visible.ts';
import type { ScenarioMark } from '../runtime/scenarioWatch.ts';
import { useApp } from '../store/index.ts';
import type { KeptRun } from '../store/scenarioWatchState.ts';
import { Shown } from '../ui/Shown.tsx';

/** "Scenarios: 11 of 12 pass" in the header, for the newest edit; it starts the watch once the panels are in. */
export function ScenarioCount() {
  const watch = useApp((state) => state.scenarioWatch);
  useEffect(() => void import('../store/scenarioWatch.ts').then(({ startScenarioWatch }) => startScenarioWatch()), []);
  const current = watch?.shownVersion === watch?.version;
  // A graph with no scenario to watch has no count.
  if (!watch || (watch.shownVersion === null && !watch.running && !watch.paused) || (current && watch.ran + watch.notRun + watch.leftOut.length === 0)) return null;
  // A scenario the time budget left unrun is counted, and not as passing; one left out (real skills) is said.
  const total = watch.ran + watch.notRun;
  const text = watch.paused ? 'Scenarios: paused' : !current ? 'Scenarios: checking…'
    : `Scenarios: ${watch.passed} of ${total} pass${watch.notRun > 0 ? `, ${watch.notRun} not run (time budget)` : ''}${watch.leftOut.length > 0 ? `, ${watch.leftOut.length} left out` : ''}`;
  // At laptop widths the header keeps one row: the words are read out (and in the tooltip), the count alone is drawn (scenarios.css).
  const short = watch.paused ? 'paused' : !current ? '…' : `${watch.passed}/${total}`;
  return (
    <span className={`scenario-watch-count${current && watch.passed < total ? ' failing' : ''}`} title={text} aria-live="polite" aria-busy={watch.running} data-version={current ? watch.shownVersion : undefined}>
      <span className="scenario-watch-words">{text}</span>
      <span className="scenario-watch-short" aria-hidden="true">{short}</span>
    </span>
  );
}

interface Placed {
  kind: ScenarioMark['kind'];
  id: string;
  x: number;
  y: number;
  marks: ScenarioMark[];
}

/** Where a mark goes, in the canvas's coordinates: a node's top right corner, an edge's middle (read from its drawn path). */
const place = (kind: ScenarioMark['kind'], id: string, nodeOf: ReactFlowInstance['getInternalNode']): { x: number; y: number } | null => {
  if (kind === 'node') {
    const node = nodeOf(id);
    if (!node) return null;
    return { x: node.internals.positionAbsolute.x + (node.measured.width ?? node.width ?? 0) - 12, y: node.internals.positionAbsolute.y - 12 };
  }
  const path = document.querySelector(`[data-testid="rf__edge-${CSS.escape(id)}"] path.react-flow__edge-path`);
  if (!(path instanceof SVGPathElement)) return null;
  const middle = path.getPointAtLength(path.getTotalLength() / 2);
  return { x: middle.x - 10, y: middle.y - 22 };
};

/** Each node and edge where a scenario now parts from what it expects, marked with the scenario's name and the divergence in words. */
export function ScenarioMarks() {
  const marks = useApp((state) => (state.scenarioWatch && state.scenarioWatch.shownVersion === state.scenarioWatch.version ? state.scenarioWatch.marks : null));
  const { getInternalNode } = useReactFlow();
  // Nodes move and edges are redrawn: the marks follow them. With no mark there is nothing to follow:
  // a drag changes the nodes on every move, and this drew again each time (issue 57).
  const moved = useStore((state) => (marks && marks.length > 0 ? state.nodes : null));
  // React Flow's layer for what moves with the view (its ViewportPortal, which the first screen would
  // carry), looked up once: a selector runs on every store update, each move of a drag, and the
  // lookup there was the costliest function of a drag that bare React Flow does not run (docs/performance.md).
  const domNode = useStore((state) => state.domNode);
  const layer = useMemo(() => domNode?.querySelector('.react-flow__viewport-portal') ?? null, [domNode]);
  const [placed, setPlaced] = useState<Placed[]>([]);
  useLayoutEffect(() => {
    if (!marks || marks.length === 0) return setPlaced((current) => (current.length === 0 ? current : []));
    const frame = requestAnimationFrame(() => {
      const byElement = new Map<string, Placed>();
      for (const mark of marks) {
        const key = `${mark.kind} ${mark.id}`;
        const found = byElement.get(key);
        if (found) found.marks.push(mark);
        else {
          const at = place(mark.kind, mark.id, getInternalNode);
          if (at) byElement.set(key, { kind: mark.kind, id: mark.id, ...at, marks: [mark] });
        }
      }
      setPlaced([...byElement.values()]);
    });
    return () => cancelAnimationFrame(frame);
  }, [marks, getInternalNode, moved]);
  if (placed.length === 0 || !layer) return null;
  return createPortal(
    <>
      {placed.map(({ kind, id, x, y, marks: here }) => {
        const words = here.map((mark) => visibleText(mark.words)).join('\n');
        const unreached = here.every((mark) => mark.unreached);
        return (
          <div key={`${kind} ${id}`} className={`scenario-watch-mark nodrag nopan${unreached ? ' unreached' : ''}`} style={{ transform: `translate(${x}px, ${y}px)` }} role="img" aria-label={`Scenario mark on ${kind} ${visibleText(id)}: ${words}`} title={words} data-mark-for={`${kind} ${id}`}>
            {unreached ? '∅' : '!'}
            {here.length > 1 && <sub>{here.length}</sub>}
          </div>
        );
      })}
    </>,
    layer,
  );
}

/** Loads two kept runs and shows them side by side in Compare runs. */
const compareKept = async (left: KeptRun & { label: string }, right: KeptRun & { label: string }) => {
  const { loadTrace, compareRuns } = useApp.getState();
  const leftId = await loadTrace(left.trace, { label: left.label, graph: left.graph });
  const rightId = await loadTrace(right.trace, { label: right.label, graph: right.graph });
  compareRuns({ left: leftId, right: rightId });
};

/** A scenario's lines from the watch: the edit that broke it, its run beside the one it expected, its path before and after the last edit. */
export function WatchedScenario({ name }: { name: string }) {
  const brokeAfter = useApp((state) => state.scenarioWatch?.brokeAfter.get(name));
  const expected = useApp((state) => state.scenarioWatch?.expected.get(name));
  const before = useApp((state) => state.scenarioWatch?.changed?.get(name));
  const result = useApp((state) => state.scenarioResults.get(name));
  if (!result?.trace || (!brokeAfter && !expected && !before)) return null;
  const now = { trace: result.trace, graph: result.graph };
  const shown = visibleText(name);
  const beside = async () => {
    if (!expected) return;
    const { loadTrace, openScenarioRun, compareRuns } = useApp.getState();
    const left = await loadTrace(expected.trace, { label: `‘${shown}’ as it expected`, graph: expected.graph });
    const right = await openScenarioRun(name);
    if (right !== null) compareRuns({ left, right });
  };
  return (
    <div className="scenario-watched">
      {brokeAfter && <p className="scenario-broke-after">broke after: <Shown text={brokeAfter} /></p>}
      <div className="scenario-buttons">
        {expected && result.status === 'failed' && (
          <button type="button" onClick={() => void beside()} aria-label={`Open ${shown} at its divergent step beside the run it expected`}>
            Open beside the run it expected
          </button>
        )}
        {before && (
          <button type="button" onClick={() => void compareKept({ ...before, label: `‘${shown}’ before the edit` }, { ...now, label: `‘${shown}’ after the edit` })} aria-label={`Compare ${shown} before and after the edit`}>
            Before and after
          </button>
        )}
      </div>
    </div>
  );
}

/** The panel's switch, time budget, and what the last re-run said: the edit changed no path, where the budget stopped, what was left out. */
export function WatchSettings() {
  const watch = useApp((state) => state.scenarioWatch);
  if (!watch) return null;
  const set = (patch: { paused?: boolean; budgetMs?: number }) => useApp.setState((state) => ({ scenarioWatch: state.scenarioWatch && { ...state.scenarioWatch, ...patch } }));
  const current = watch.shownVersion === watch.version;
  return (
    <div className="scenario-watch">
      <label className="scenario-watch-switch">
        <input type="checkbox" role="switch" checked={!watch.paused} onChange={(event) => set({ paused: !event.target.checked })} /> Re-run scenarios on each edit
      </label>
      <label className="scenario-watch-budget">
        Time budget per edit (ms){' '}
        <input type="number" min={10} step={100} value={watch.budgetMs} onChange={(event) => {
          const value = event.target.valueAsNumber;
          if (value > 0) set({ budgetMs: value });
        }} />
      </label>
      {current && !watch.paused && (
        <ul className="scenario-watch-notes" aria-label="Re-run on edit">
          {watch.changed?.size === 0 && <li>The last edit changes no scenario’s path.</li>}
          {watch.stoppedAt !== null && <li>Stopped at ‘<Shown text={watch.stoppedAt} />’: the time budget of {watch.budgetMs} ms ran out; it and the scenarios after it wait for the next edit.</li>}
          {watch.leftOut.map(({ name, why }) => <li key={name}>Left out: ‘<Shown text={name} />’: <Shown text={why} /></li>)}
        </ul>
      )}
    </div>
  );
}
