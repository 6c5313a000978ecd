import { lazy, Suspense, useState } from 'react';
import { useApp } from '../store/index.ts';
import { warmUpRuntime } from '../store/runSlice.ts';
import { ContinueIcon, PauseIcon, ResetIcon, RunIcon, ServerIcon, StepIcon, StepRoundIcon } from '../ui/icons.tsx';
import { ToolButton } from '../ui/ToolButton.tsx';
import { focusTimeline } from './focus.ts';

// The server panel brings the LangGraph SDK: loaded when the person asks for it.
const ServerPanel = lazy(() => import('./ServerPanel.tsx').then((module) => ({ default: module.ServerPanel })));

const SPEEDS = [
  { ms: 0, label: 'Instant' },
  { ms: 150, label: 'Fast (150 ms a step)' },
  { ms: 600, label: 'Slow (600 ms a step)' },
];

const STATUS_WORDS = { idle: 'Ready', running: 'Running…', paused: 'Paused', awaiting_approval: 'Waiting for approval', stopped: 'Stopped' } as const;

/** Made once: `toLocaleString` makes a formatter at every call. */
const STEP_COUNT = new Intl.NumberFormat('en');

/** The run buttons, in the header. */
export function RunToolbar() {
  const status = useApp((state) => state.runStatus);
  const liveRunId = useApp((state) => state.liveRunId);
  const hasRuns = useApp((state) => state.runs.length > 0);
  const pauseAsked = useApp((state) => state.pauseAsked);
  const instant = useApp((state) => state.speedMs === 0);
  const liveSteps = useApp((state) => state.liveSteps);
  const actions = useApp.getState();
  const [serverOpen, setServerOpen] = useState(false);

  const running = status === 'running';
  const canGoOn = liveRunId !== null && status === 'paused';
  const busy = running || status === 'awaiting_approval';
  // The timeline is where a run is read: focus goes there, not 60 Tabs away.
  const start = (work: () => Promise<void>) => {
    focusTimeline();
    void work();
  };

  return (
    // The runtime loads once the person pauses (app/afterFirstScreen.ts); a pointer or the focus coming to the
    // run controls is reason enough to start now, so a Run right after opening waits less.
    <div className="run-toolbar" role="toolbar" aria-label="Run controls" onPointerEnter={warmUpRuntime} onFocus={warmUpRuntime}>
      <ToolButton icon={RunIcon} label="Run" className="primary" onClick={() => start(actions.run)} disabled={busy} title="Run the graph from the start" />
      <ToolButton icon={StepIcon} label="Step" onClick={() => start(actions.step)} disabled={busy} title="Run one node" />
      <ToolButton icon={StepRoundIcon} label="Step round" compact onClick={() => start(actions.stepRound)} disabled={busy} title="Run to the start of the next round" />
      <ToolButton icon={PauseIcon} label="Pause" compact onClick={() => actions.pause()} disabled={!running || pauseAsked} />
      <ToolButton icon={ContinueIcon} label="Continue" compact onClick={() => start(actions.continueRun)} disabled={!canGoOn} />
      <ToolButton icon={ResetIcon} label="Reset" compact onClick={() => actions.reset()} disabled={!hasRuns || running} title="Forget the runs" />
      <span className="run-state" aria-live="polite">{running && pauseAsked ? 'Pausing…' : STATUS_WORDS[status]}</span>
      {/* An Instant run's timeline is redrawn seldom: the count shows it goes on (not announced, it changes four times a second). */}
      {running && instant && liveSteps > 0 && <span className="run-progress">step {STEP_COUNT.format(liveSteps)}</span>}
      <ToolButton icon={ServerIcon} label="Connect to a LangGraph server" compact="wide" onClick={() => setServerOpen((open) => !open)} aria-expanded={serverOpen} />
      {serverOpen && (
        <Suspense fallback={null}>
          <ServerPanel onClose={() => setServerOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

/** Speed, seed and scenario of the next run, at the head of the timeline. */
export function RunSettings() {
  const status = useApp((state) => state.runStatus);
  const seed = useApp((state) => state.seed);
  const speedMs = useApp((state) => state.speedMs);
  const scenario = useApp((state) => state.scenario);
  const scenarios = useApp((state) => state.graph.scenarios);
  const actions = useApp.getState();
  const busy = status === 'running' || status === 'awaiting_approval';
  return (
    <>
      <label className="run-field">
        Speed
        <select value={speedMs} onChange={(event) => actions.setSpeed(Number(event.target.value))}>
          {SPEEDS.map((speed) => <option key={speed.ms} value={speed.ms}>{speed.label}</option>)}
        </select>
      </label>
      <label className="run-field">
        Seed
        <input
          type="number"
          className="run-seed"
          value={seed}
          step={1}
          disabled={busy}
          onChange={(event) => {
            const value = Number(event.target.value);
            if (Number.isInteger(value)) actions.setSeed(value);
          }}
        />
      </label>
      {scenarios.length > 0 && (
        <label className="run-field">
          Scenario
          <select value={scenario ?? ''} disabled={busy} onChange={(event) => actions.setScenario(event.target.value || null)}>
            <option value="">(graph as drawn)</option>
            {scenarios.map((candidate) => <option key={candidate.name} value={candidate.name}>{candidate.name}</option>)}
          </select>
        </label>
      )}
    </>
  );
}
