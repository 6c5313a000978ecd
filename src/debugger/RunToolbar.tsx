import { lazy, Suspense, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { visibleText } from '../graph/visible.ts';
import { useApp } from '../store/index.ts';
import { foreignOf } from '../store/graphSlice.ts';
import { chosenScenario } from '../store/runActions.ts';
import { warmUpRuntime } from '../store/runSlice.ts';
import { ContinueIcon, DebugLayoutIcon, PauseIcon, ResetIcon, RunIcon, ServerIcon, StepIcon, StepRoundIcon } from '../ui/icons.tsx';
import { ToolButton } from '../ui/ToolButton.tsx';
import { COMMAND_KEYS, FOREIGN_RUN_NOTE, listenForDebuggerKeys, runControls, startFrom, toggleDebugLayout, type DebuggerCommand } from './debuggerKeys.ts';
import { ScenarioCount } from './ScenarioWatch.tsx';

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

/** A button's tooltip with its key, as code debuggers show them. */
const withKey = (title: string, command: DebuggerCommand) => `${title} (${COMMAND_KEYS[command].replace('Control', 'Ctrl')})`;

/** The run buttons, in the header, with their keys; and the Debug layout toggle. */
export function RunToolbar() {
  const status = useApp((state) => state.runStatus);
  const controls = useApp(useShallow(runControls));
  const liveSteps = useApp((state) => state.liveSteps);
  const instant = useApp((state) => state.speedMs === 0);
  const pauseAsked = useApp((state) => state.pauseAsked);
  const refused = useApp((state) => state.runRefused);
  const debugLayout = useApp((state) => state.debugLayout);
  const foreign = useApp((state) => foreignOf(state.documentId) !== null);
  const actions = useApp.getState();
  const [serverOpen, setServerOpen] = useState(false);
  useEffect(listenForDebuggerKeys, []);

  const running = status === 'running';
  return (
    // The runtime loads once the person pauses (app/afterFirstScreen.ts); a pointer or the focus coming to the
    // run controls is reason enough to start now, so a Run right after opening waits less.
    <div className="run-toolbar" role="toolbar" aria-label="Run controls" onPointerEnter={warmUpRuntime} onFocus={warmUpRuntime}>
      <ToolButton icon={RunIcon} label="Run" className="primary" onClick={() => startFrom(actions.run)} disabled={!controls.canStart} title={foreign ? FOREIGN_RUN_NOTE : withKey('Run the graph from the start; Continue when a run is paused', 'run')} aria-keyshortcuts={COMMAND_KEYS.run} />
      {refused && (
        <span role="alert" className="run-refused">
          <span>Run refused: {refused}</span>
          <button type="button" onClick={actions.dismissRunMessages} aria-label="Dismiss why the run was refused">Dismiss</button>
        </span>
      )}
      <ToolButton icon={StepIcon} label="Step" onClick={() => startFrom(actions.step)} disabled={!controls.canStep} title={foreign && !controls.canStep ? FOREIGN_RUN_NOTE : withKey(foreign ? 'Run one node of the run on the server' : 'Run one node', 'step')} aria-keyshortcuts={COMMAND_KEYS.step} />
      <ToolButton icon={StepRoundIcon} label="Step round" compact onClick={() => startFrom(actions.stepRound)} disabled={!controls.canStart} title={foreign ? FOREIGN_RUN_NOTE : withKey('Run to the start of the next round', 'stepRound')} aria-keyshortcuts={COMMAND_KEYS.stepRound} />
      <ToolButton icon={PauseIcon} label="Pause" compact onClick={() => actions.pause()} disabled={!controls.canPause} title={withKey('Pause', 'pause')} aria-keyshortcuts={COMMAND_KEYS.pause} />
      <ToolButton icon={ContinueIcon} label="Continue" compact onClick={() => startFrom(actions.continueRun)} disabled={!controls.canContinue} title={withKey('Continue the paused run', 'run')} aria-keyshortcuts={COMMAND_KEYS.run} />
      <ToolButton icon={ResetIcon} label="Reset" compact onClick={() => actions.reset()} disabled={!controls.canReset} title={withKey('Forget the runs', 'reset')} aria-keyshortcuts={COMMAND_KEYS.reset} />
      <span className="run-state" aria-live="polite">{running && pauseAsked ? 'Pausing…' : STATUS_WORDS[status]}</span>
      <ScenarioCount />
      {/* An Instant run's timeline is redrawn seldom: the count shows it goes on (not announced, it changes four times a second). */}
      {running && instant && liveSteps > 0 && <span className="run-progress">step {STEP_COUNT.format(liveSteps)}</span>}
      <ToolButton icon={DebugLayoutIcon} label="Debug layout" compact className={debugLayout ? 'toggled' : undefined} aria-pressed={debugLayout} onClick={toggleDebugLayout} title={withKey(debugLayout ? 'Back to the editing layout' : 'Debug layout: the timeline and the step detail side by side under the canvas', 'layout')} aria-keyshortcuts={COMMAND_KEYS.layout} />
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
  const scenario = useApp(chosenScenario);
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
            {scenarios.map((candidate) => <option key={candidate.name} value={candidate.name}>{visibleText(candidate.name)}</option>)}
          </select>
        </label>
      )}
    </>
  );
}
