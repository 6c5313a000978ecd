import { own } from '../graph/index.ts';
import { runStopWords } from '../runtime/stepWords.ts';
import { nodeRan } from '../runtime/trace.ts';
import { useApp } from '../store/index.ts';
import { onDemand } from '../ui/onDemand.ts';
import { Gauges } from './Gauges.tsx';
import { ApprovalPrompt } from './ApprovalPrompt.tsx';
import { BreakpointsPanel } from './BreakpointsPanel.tsx';
import { nodeLabel, useActiveRun, useSelectedStep } from './hooks.ts';

// The first screen shows no step: the view of one (and its fork editor) loads once the first screen
// is idle, or when the first step is selected. Asked for early, its import (which adds the module's
// preload links to the page) is not part of the commit that shows a run or a trace.
const stepView = onDemand(() => import('./StepView.tsx'));
export const loadStepView = stepView.load;
// A run of a graph Loopscope did not make, read from a LangGraph server, is told as the server tells it (SPEC §8).
const serverStepDetail = onDemand(() => import('./server/ServerStepDetail.tsx'));

/** What each stop reason means, for people who did not write the runtime. */
const STOP_SENTENCES: Record<string, string> = {
  completed: 'The run reached a respond node: it answered.',
  max_rounds: 'The run used all its rounds without an answer; the system-level bound stopped it.',
  max_steps: 'The run reached its step limit; the system-level bound stopped it.',
  budget_exhausted: 'The token budget ran out; the system-level bound stopped it.',
  no_route: 'No edge of the last node matched its result, so the run had nowhere to go.',
  no_recovery_path: 'Recovery found no other path, so the graph stopped honestly instead of guessing.',
  denied: 'A person (or the approval rule) denied the action, so the run stopped.',
  user_stopped: 'A person stopped the run.',
  error: 'The run failed with an error.',
};

function StatusBanner() {
  const run = useActiveRun();
  const status = useApp((state) => state.runStatus);
  const pausedBy = useApp((state) => state.pausedBy);
  const live = useApp((state) => state.activeRunId !== null && state.activeRunId === state.liveRunId);
  const refused = useApp((state) => state.runRefused !== null);
  const reason = run?.trace.stopReason;
  const stopExplain = run && runStopWords(run.trace);
  const text = reason
    ? null
    : !run ? (refused ? 'Not run: why is beside the Run button.' : 'No run yet.')
      : live && status === 'running' ? 'Running…'
        : live && status === 'awaiting_approval' ? 'Waiting for a person to approve or deny.'
          : live && pausedBy ? `Paused by ${pausedBy}.`
            : 'Paused.';
  return (
    <div role="status" className={`stop-banner${reason ? ` stopped stop-${reason === 'completed' ? 'ok' : 'halt'}` : ''}`}>
      {reason ? (
        <>
          <strong>Stopped: <code>{reason}</code></strong>
          <span> {own(STOP_SENTENCES, reason) ?? `A stop node ended the run with "${reason}".`}</span>
          {stopExplain && <span className="muted"> ({stopExplain})</span>}
        </>
      ) : text}
    </div>
  );
}

export function StepDetail() {
  const run = useActiveRun();
  const step = useSelectedStep();
  const runError = useApp((state) => state.runError);
  const traceWarning = useApp((state) => state.traceWarning);
  const dismiss = useApp((state) => state.dismissRunMessages);
  const view = stepView.useModule(run !== undefined && step !== undefined && !run.foreign);
  const serverView = serverStepDetail.useModule(run?.foreign === true);
  if (run?.foreign)
    return (
      <section className="step-detail" aria-label="Step detail">
        <h2>Step detail</h2>
        {serverView ? <serverView.ServerStepDetail run={run} step={step} /> : <p className="muted">Loading…</p>}
      </section>
    );
  return (
    <section className="step-detail" aria-label="Step detail">
      <h2>Step detail</h2>
      <StatusBanner />
      <Gauges />
      {(runError || traceWarning) && (
        <div role="alert" className="run-alert">
          {runError ?? traceWarning} <button type="button" onClick={dismiss} aria-label="Dismiss run message">Dismiss</button>
        </div>
      )}
      <ApprovalPrompt />
      {run && step ? (
        view ? (
          <view.StepView key={`${run.id}-${step.step}`} step={step} label={nodeLabel(run.graph, step.node)} forkable={!run.imported && nodeRan(step)} />
        ) : <p className="muted">Loading step {step.step}…</p>
      ) : <p className="muted">Select a step in the timeline.</p>}
      <BreakpointsPanel />
    </section>
  );
}
