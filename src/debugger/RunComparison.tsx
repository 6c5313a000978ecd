import { useEffect, useMemo, useState } from 'react';
import { settingName, settingValue, type SettingChange } from '../graph/settings.ts';
import type { GraphFile } from '../graph/schema.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { visibleText } from '../graph/visible.ts';
import { Shown } from '../ui/Shown.tsx';
import type { Attempt, TraceStep } from '../runtime/trace.ts';
import { useApp, type RunPair } from '../store/index.ts';
import { diffStates, type Change } from './analysis.ts';
import { alignRuns, firstDifference, graphDifferences, type Difference } from './compare.ts';

const json = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));

const stepWords = (step: TraceStep | null | undefined) =>
  !step ? '—' : `#${step.step} ${step.node}${step.outcome ? ` (${step.outcome})` : ''}${step.fired ? ` → ${step.fired.id}` : step.stop ? ` ■ ${step.stop.reason}` : ''}`;

const attemptWords = (attempt: Attempt | null) =>
  attempt ? `${attempt.skill}: ${attempt.outcome}${attempt.records ? `, ${attempt.records} record(s)` : ''}, ${attempt.tokens} tok` : '—';

function ChangeTable({ label, changes, left, right }: { label: string; changes: Change[]; left: number; right: number }) {
  if (changes.length === 0) return <p className="muted">{label}: the same in both runs.</p>;
  return (
    <table className="diff" aria-label={label}>
      <thead><tr><th>Field</th><th>Run {left}</th><th>Run {right}</th></tr></thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.key} className={`diff-${change.type}`}>
            <th scope="row">{change.key}</th>
            <td><code>{change.type === 'added' ? '—' : json(change.before)}</code></td>
            <td><code>{change.type === 'removed' ? '—' : json(change.after)}</code></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the two runs' graphs set differently, first: a run that parts from another often does because its graph changed. */
function GraphDifferences({ changes, graph, left, right }: { changes: SettingChange[]; graph: GraphFile; left: number; right: number }) {
  if (changes.length === 0) return <p className="muted">Graph differences: none, both runs ran the same graph.</p>;
  return (
    <table className="diff" aria-label="Graph differences">
      <thead><tr><th>Setting</th><th>Run {left}</th><th>Run {right}</th></tr></thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.path} className="diff-changed">
            <th scope="row"><Shown text={settingName(change.path, graph)} /></th>
            <td><code><Shown text={settingValue(change.path, change.before)} /></code></td>
            <td><code><Shown text={settingValue(change.path, change.after)} /></code></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * How the states of the two runs differ before `step`: read from each run's checkpoints (or
 * replayed from an imported trace), since steps carry no states. Undefined while reading; null
 * when one run does not hold that state.
 */
const useStateDifferenceBefore = (pair: RunPair, step: number) => {
  const [changes, setChanges] = useState<Change[] | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    const { readRunState } = useApp.getState();
    void Promise.all([readRunState(pair.left, step - 1), readRunState(pair.right, step - 1)]).then(([left, right]) => {
      if (current) setChanges(left && right ? diffStates(left, right) : null);
    });
    return () => {
      current = false;
    };
  }, [pair.left, pair.right, step]);
  return changes;
};

function DifferenceView({ difference, pair }: { difference: Difference; pair: RunPair }) {
  const stateBefore = useStateDifferenceBefore(pair, difference.step);
  return (
    <div className="comparison-at">
      <h3>At step {difference.step}</h3>
      <dl className="comparison-sides">
        <dt>Run {pair.left}</dt>
        <dd>{stepWords(difference.left)}{difference.left?.fired ? <span className="muted"> ({storedWords(difference.left.fired)})</span> : null}</dd>
        <dt>Run {pair.right}</dt>
        <dd>{stepWords(difference.right)}{difference.right?.fired ? <span className="muted"> ({storedWords(difference.right.fired)})</span> : null}</dd>
      </dl>
      {difference.attempts.length === 0 ? <p className="muted">No attempts at this step in either run.</p> : (
        <table className="attempts" aria-label="Attempt differences">
          <thead><tr><th>#</th><th>Run {pair.left}</th><th>Run {pair.right}</th></tr></thead>
          <tbody>
            {difference.attempts.map((attempt) => (
              <tr key={attempt.n} className={attempt.same ? undefined : 'differs'}>
                <td>{attempt.n}</td><td>{attemptWords(attempt.left)}</td><td>{attemptWords(attempt.right)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {stateBefore === undefined ? null : stateBefore === null
        ? <p className="muted">One of the runs does not hold its state before this step.</p>
        : <ChangeTable label="State differences before the step" changes={stateBefore} left={pair.left} right={pair.right} />}
      <ChangeTable label="Write differences" changes={difference.writes} left={pair.left} right={pair.right} />
    </div>
  );
}

/** Two runs side by side: paths aligned, where they part marked here and on the canvas, and the differences there. */
export function RunComparison() {
  const pair = useApp((state) => state.comparison);
  const runs = useApp((state) => state.runs);
  const { compareRuns, closeComparison, showParting } = useApp.getState();
  const left = runs.find((run) => run.id === pair?.left);
  const right = runs.find((run) => run.id === pair?.right);
  const rows = useMemo(() => (left && right ? alignRuns(left, right) : []), [left, right]);
  const difference = useMemo(() => (left && right ? firstDifference(left, right) : null), [left, right]);
  const graphChanges = useMemo(() => (left && right ? graphDifferences(left.graph, right.graph) : []), [left, right]);

  useEffect(() => {
    if (pair && difference) void showParting(pair, difference.step, difference.canvas);
  }, [pair, difference, showParting]);

  if (!pair) return null;
  if (!left || !right) {
    return (
      <section className="comparison" aria-label="Run comparison">
        <p>One of the compared runs is gone (Reset, or more runs than are kept). <button type="button" onClick={closeComparison}>Close comparison</button></p>
      </section>
    );
  }
  const choose = (side: 'left' | 'right', id: number) => compareRuns({ ...pair, [side]: id });
  return (
    <section className="comparison" aria-label="Run comparison">
      <div className="comparison-head">
        <h2>Compare runs</h2>
        <button type="button" onClick={closeComparison}>Close comparison</button>
      </div>
      <div className="comparison-pickers">
        {(['left', 'right'] as const).map((side) => (
          <label key={side} className="run-field">
            {side === 'left' ? 'Left run' : 'Right run'}
            <select value={pair[side]} onChange={(event) => choose(side, Number(event.target.value))}>
              {runs.map((run) => <option key={run.id} value={run.id}>{visibleText(run.label)}</option>)}
            </select>
          </label>
        ))}
      </div>
      <h3>Graphs</h3>
      <GraphDifferences changes={graphChanges} graph={right.graph} left={left.id} right={right.id} />
      <p className="comparison-summary">
        {difference ? difference.sentence : `Runs ${left.id} and ${right.id} are alike: the same path, attempts and state.`}
      </p>
      {difference && (
        <>
          <p className="comparison-legend">
            On the canvas: <span className="legend-left">run {left.id}’s edge</span> and <span className="legend-right">run {right.id}’s edge</span> where they part.{' '}
            <button type="button" onClick={() => void showParting(pair, difference.step, difference.canvas)}>Show on canvas</button>
          </p>
          <DifferenceView difference={difference} pair={pair} />
        </>
      )}
      <h3>Paths</h3>
      <table className="comparison-paths" aria-label="Aligned paths">
        <thead><tr><th>Run {left.id}</th><th>Run {right.id}</th></tr></thead>
        <tbody>
          {rows.map((row, index) => {
            const parting = difference !== null && (row.left?.step === difference.step || row.right?.step === difference.step);
            return (
              <tr key={index} className={parting ? 'parting' : row.same ? 'same' : 'differs'} aria-current={parting ? 'step' : undefined}>
                <td>{stepWords(row.left)}</td>
                <td>{stepWords(row.right)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
