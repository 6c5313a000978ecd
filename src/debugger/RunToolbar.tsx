import { useApp } from '../store/index.ts';
import { Gauges } from './Gauges.tsx';
import { HostConsent } from './HostConsent.tsx';

const SPEEDS = [
  { ms: 0, label: 'Instant' },
  { ms: 150, label: 'Fast (150 ms a step)' },
  { ms: 600, label: 'Slow (600 ms a step)' },
];

const STATUS_WORDS = { idle: 'Ready', running: 'Running…', paused: 'Paused', awaiting_approval: 'Waiting for approval', stopped: 'Stopped' } as const;

export function RunToolbar() {
  const status = useApp((state) => state.runStatus);
  const liveRunId = useApp((state) => state.liveRunId);
  const seed = useApp((state) => state.seed);
  const speedMs = useApp((state) => state.speedMs);
  const scenario = useApp((state) => state.scenario);
  const scenarios = useApp((state) => state.graph.scenarios);
  const hasRuns = useApp((state) => state.runs.length > 0);
  const pauseAsked = useApp((state) => state.pauseAsked);
  const actions = useApp.getState();

  const running = status === 'running';
  const canGoOn = liveRunId !== null && status === 'paused';
  const busy = running || status === 'awaiting_approval';

  return (
    <div className="run-toolbar" role="toolbar" aria-label="Run controls">
      <button type="button" onClick={() => void actions.run()} disabled={busy} title="Run the graph from the start"><span aria-hidden="true">▶ </span>Run</button>
      <button type="button" onClick={() => void actions.step()} disabled={busy} title="Run one node">Step</button>
      <button type="button" onClick={() => void actions.stepRound()} disabled={busy} title="Run to the start of the next round">Step round</button>
      <button type="button" onClick={() => actions.pause()} disabled={!running || pauseAsked}>Pause</button>
      <button type="button" onClick={() => void actions.continueRun()} disabled={!canGoOn}>Continue</button>
      <button type="button" onClick={() => actions.reset()} disabled={!hasRuns || running}>Reset</button>
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
      <span className="run-state" aria-live="polite">{running && pauseAsked ? 'Pausing…' : STATUS_WORDS[status]}</span>
      <Gauges />
      <HostConsent />
    </div>
  );
}
