import { lazy, Suspense, useState } from 'react';
import type { Scenario } from '../graph/schema.ts';
import { visibleText } from '../graph/visible.ts';
import type { ScenarioDraft } from '../runtime/index.ts';
import { useApp, type RunPair, type ScenarioRunResult } from '../store/index.ts';
import { unsavableReason } from '../store/scenarioActions.ts';
import { Shown } from '../ui/Shown.tsx';
import { useActiveRun } from './hooks.ts';
import { WatchedScenario, WatchSettings } from './ScenarioWatch.tsx';

// A dialog, not on the first screen: loaded when it is first opened.
const SaveScenarioDialog = lazy(() => import('./SaveScenarioDialog.tsx').then((module) => ({ default: module.SaveScenarioDialog })));

type Shown = ScenarioRunResult['status'] | 'running' | 'not_run';

const STATUS_WORDS: Record<Shown, string> = { passed: 'passed', failed: 'failed', error: 'cannot run', running: 'running…', not_run: 'not run' };

function StatusMark({ status }: { status: Shown }) {
  // Drawn, not typed: there is no emoji font to count on.
  const path = status === 'passed' ? 'M3 8.5l3 3 7-7' : status === 'failed' || status === 'error' ? 'M4 4l8 8M12 4l-8 8' : 'M8 3v5l3 2';
  return (
    <svg className={`scenario-mark mark-${status}`} width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      {status === 'running' || status === 'not_run' ? <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.6" /> : null}
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The run a failed scenario is compared with: the run it was saved from, else the latest other run. */
const comparedWith = (runs: { id: number }[], source: number | undefined, own: number | undefined) =>
  runs.some((run) => run.id === source) ? source : runs.findLast((run) => run.id !== own)?.id;

function Failure({ name, result }: { name: string; result: ScenarioRunResult }) {
  const runs = useApp((state) => state.runs);
  const source = useApp((state) => state.scenarioSources.get(name));
  const openScenarioRun = useApp((state) => state.openScenarioRun);
  const compareRuns = useApp((state) => state.compareRuns);
  if (result.status === 'error') return <p className="error"><Shown text={result.error ?? ''} /></p>;
  const other = comparedWith(runs, source, result.runId);
  const compare = async () => {
    const own = await openScenarioRun(name);
    if (own !== null && other !== undefined) compareRuns({ left: other, right: own } satisfies RunPair);
  };
  return (
    <div className="scenario-failure">
      {/* The cause first, as a test runner leads with the first failing assertion; then what was expected and what happened. */}
      {result.cause && <p className="scenario-cause"><strong><Shown text={result.cause} /></strong></p>}
      <ul className="scenario-failures" aria-label={`Failed expectations of ${visibleText(name)}`}>
        {result.failures.map((failure) => (
          <li key={failure.message} title={visibleText(failure.message)}>
            <code><Shown text={failure.mismatch} /></code>
            {failure.lead !== result.cause && <span className="muted"> (<Shown text={failure.lead} />)</span>}
          </li>
        ))}
      </ul>
      <div className="scenario-buttons">
        <button type="button" onClick={() => openScenarioRun(name)}>
          {result.divergence === null ? 'Open its run' : `Open at step ${result.divergence}`}
        </button>
        {other !== undefined && other !== result.runId && (
          <button type="button" onClick={compare}>Compare with run {other}</button>
        )}
      </div>
    </div>
  );
}

function ScenarioItem({ scenario }: { scenario: Scenario }) {
  const result = useApp((state) => {
    const found = state.scenarioResults.get(scenario.name);
    return found && found.documentVersion === state.documentVersion ? found : undefined;
  });
  const running = useApp((state) => state.scenariosRunning.includes(scenario.name));
  const busy = useApp((state) => state.scenariosRunning.length > 0);
  const edited = useApp((state) => result !== undefined && result.graph !== state.graph);
  const runScenarios = useApp((state) => state.runScenarios);
  const removeScenario = useApp((state) => state.removeScenario);
  const status: Shown = running ? 'running' : (result?.status ?? 'not_run');
  return (
    <li className={`scenario scenario-${status}`}>
      <div className="scenario-line">
        <StatusMark status={status} />
        <span className="scenario-name" title={visibleText(scenario.description ?? scenario.name)}><Shown text={scenario.name} /></span>
        <span className="scenario-status">
          {STATUS_WORDS[status]}
          {status === 'failed' && result?.divergence !== null ? ` at step ${result?.divergence}` : ''}
          {edited && <span className="muted" title="The graph changed after this result: run it again to be sure"> (graph edited since)</span>}
        </span>
        <button type="button" className="scenario-run" aria-label={`Run scenario ${visibleText(scenario.name)}`} disabled={busy} onClick={() => void runScenarios([scenario.name])}>Run</button>
        <button type="button" className="scenario-remove" aria-label={`Remove scenario ${visibleText(scenario.name)}`} title="Remove (Undo brings it back)" disabled={busy} onClick={() => removeScenario(scenario.name)}>
          <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
        </button>
      </div>
      {result && (result.status === 'failed' || result.status === 'error') && !running && <Failure name={scenario.name} result={result} />}
      {!running && <WatchedScenario name={scenario.name} />}
    </li>
  );
}

/** The default pair to compare: the shown run against its fork parent, else against the run before it. */
const defaultPair = (runs: { id: number; forkOf?: { run: number } }[], activeId: number | null): RunPair | null => {
  const right = runs.find((run) => run.id === activeId) ?? runs.at(-1);
  if (!right || runs.length < 2) return null;
  const parent = right.forkOf && runs.some((run) => run.id === right.forkOf?.run) ? right.forkOf.run : undefined;
  const before = runs.filter((run) => run.id !== right.id).findLast((run) => run.id < right.id) ?? runs.find((run) => run.id !== right.id);
  return { left: parent ?? (before as { id: number }).id, right: right.id };
};

/** The graph's scenarios with pass or fail; Run all, run one, Save as scenario, Compare runs. */
export function ScenariosPanel() {
  const scenarios = useApp((state) => state.graph.scenarios);
  const results = useApp((state) => state.scenarioResults);
  const documentVersion = useApp((state) => state.documentVersion);
  const busy = useApp((state) => state.scenariosRunning.length > 0);
  const runs = useApp((state) => state.runs);
  const activeRunId = useApp((state) => state.activeRunId);
  const runStatus = useApp((state) => state.runStatus);
  const liveRunId = useApp((state) => state.liveRunId);
  const { runScenarios, draftScenario, compareRuns } = useApp.getState();
  const shownRun = useActiveRun();
  const [saving, setSaving] = useState<{ runId: number; draft: ScenarioDraft } | null>(null);

  const current = scenarios.map((scenario) => results.get(scenario.name)).filter((result) => result?.documentVersion === documentVersion);
  const passed = current.filter((result) => result?.status === 'passed').length;
  const failed = current.length - passed;
  const shownIsRunning = shownRun !== undefined && shownRun.id === liveRunId && runStatus === 'running';
  const pair = defaultPair(runs, activeRunId);
  const unsavable = shownRun ? unsavableReason(shownRun) : null;

  const startSaving = async () => {
    if (!shownRun) return;
    const draft = await draftScenario(shownRun.id);
    if (draft) setSaving({ runId: shownRun.id, draft });
  };

  return (
    <section className="scenarios" aria-label="Scenarios">
      <div className="scenarios-head">
        <h2>Scenarios <span className="count">({scenarios.length})</span></h2>
        {current.length > 0 && <span className="scenario-tally">{passed} passed, {failed} failed</span>}
      </div>
      <div className="scenario-buttons">
        <button type="button" onClick={() => void runScenarios()} disabled={busy || scenarios.length === 0}>Run all scenarios</button>
        <button type="button" onClick={() => void startSaving()} disabled={!shownRun || shownIsRunning || unsavable !== null} aria-describedby={unsavable ? 'scenario-unsavable' : undefined} title={shownRun ? `Pin ${shownRun.label} as a test` : 'Run the graph first'}>Save as scenario</button>
        <button type="button" onClick={() => pair && compareRuns(pair)} disabled={!pair} title="Two runs side by side">Compare runs</button>
      </div>
      {unsavable && <p id="scenario-unsavable" className="muted">{unsavable}</p>}
      <WatchSettings />
      <p className="field-help">
        Scenarios run offline: mock skills only. An http or llm skill a scenario gives no mock script is refused (its attempts fail with an error saying so), never called.
      </p>
      {scenarios.length === 0 ? (
        <p className="muted">No scenario yet: run the graph, then Save as scenario to pin what it did.</p>
      ) : (
        <ul className="scenario-list" aria-label="Scenario list">
          {scenarios.map((scenario) => <ScenarioItem key={scenario.name} scenario={scenario} />)}
        </ul>
      )}
      {saving && <Suspense fallback={null}><SaveScenarioDialog runId={saving.runId} draft={saving.draft} onClose={() => setSaving(null)} /></Suspense>}
    </section>
  );
}
