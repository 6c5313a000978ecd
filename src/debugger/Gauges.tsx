import { useApp } from '../store/index.ts';
import { useActiveRun } from './hooks.ts';

function Gauge({ name, value, limit }: { name: string; value: number; limit: number | undefined }) {
  const max = limit ?? Math.max(value, 1);
  const high = limit === undefined ? undefined : limit * 0.8;
  return (
    <span className="gauge">
      <span className="gauge-name" aria-hidden="true">{name}</span>
      <meter aria-label={name} min={0} max={max} value={Math.min(value, max)} high={high} optimum={0}>
        {value}
      </meter>
      <span className="gauge-value">{limit === undefined ? `${value} (no limit)` : `${value}/${limit}`}</span>
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
      <Gauge name="Rounds" value={rounds} limit={limits.maxRounds} />
      <Gauge name="Steps" value={steps} limit={limits.maxSteps} />
      <Gauge name="Tokens" value={tokens} limit={limits.tokenBudget} />
    </span>
  );
}
