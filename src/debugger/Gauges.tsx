import { useApp } from '../store/index.ts';
import { useActiveRun } from './hooks.ts';

function Gauge({ name, value, limit, unit }: { name: string; value: number; limit: number | undefined; unit: string }) {
  // Without a limit there is nothing to fill up: the number alone, no bar.
  if (limit === undefined)
    return (
      <span className="gauge">
        <span className="gauge-name">{name}</span>
        <span className="gauge-value">{value} <span className="muted">({unit === 'tokens' ? 'no budget' : 'no limit'})</span></span>
      </span>
    );
  return (
    <span className="gauge">
      <span className="gauge-name" aria-hidden="true">{name}</span>
      <meter aria-label={name} min={0} max={limit} value={Math.min(value, limit)} high={limit * 0.8} optimum={0}>
        {value}
      </meter>
      <span className="gauge-value">{value}/{limit}</span>
    </span>
  );
}

/** Rounds, steps and tokens against their limits, at the selected step (the latest one while running). */
export function Gauges() {
  const run = useActiveRun();
  const selected = useApp((state) => state.selectedStep);
  const limits = useApp((state) => (run ? run.graph.limits : state.graph.limits));
  const after = useApp((state) => state.stateAfterSelected);
  const step = run && selected !== null ? run.trace.steps[selected - 1] : undefined;
  const rounds = step?.round ?? 0;
  const steps = Number(after?.steps ?? 0);
  const tokens = Number(after?.tokensUsed ?? step?.tokensUsed ?? 0);
  return (
    <span className="gauges">
      <Gauge name="Rounds" value={rounds} limit={limits.maxRounds} unit="rounds" />
      <Gauge name="Steps" value={steps} limit={limits.maxSteps} unit="steps" />
      <Gauge name="Tokens" value={tokens} limit={limits.tokenBudget} unit="tokens" />
    </span>
  );
}
