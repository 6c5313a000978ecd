/** The selected step in full: its attempts, edges, state diff and fork editor. Loaded when a step is first shown (the first screen has none). */
import { useState } from 'react';
import { kindDefinition } from '../graph/index.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { budgetSentence, guardCheckWords } from '../runtime/guards.ts';
import { noteWords, stopWords } from '../runtime/stepWords.ts';
import type { Attempt, Iteration, TraceStep } from '../runtime/trace.ts';
import { useApp } from '../store/index.ts';
import { diffStates, retrySummary, retryVerdict, VERDICT_WORDS, type Change } from './analysis.ts';
import { ForkEditor } from './ForkEditor.tsx';
import { FailIcon, KindIcon, PassIcon, SkippedIcon, WarningIcon } from '../ui/icons.tsx';
import { Shown } from '../ui/Shown.tsx';

const json = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));

export function Diff({ changes }: { changes: Change[] }) {
  if (changes.length === 0) return <p className="muted">No state change.</p>;
  return (
    <table className="diff" aria-label="State changes">
      <thead><tr><th>Field</th><th>Before</th><th>After</th></tr></thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.key} className={`diff-${change.type}`}>
            <th scope="row"><span className="diff-mark">{change.type === 'added' ? '+' : change.type === 'removed' ? '−' : '~'}</span> {change.key}</th>
            <td><code>{change.type === 'added' ? '—' : json(change.before)}</code></td>
            <td><code>{change.type === 'removed' ? '—' : json(change.after)}</code></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What a step ended with, in the command line's words: a node that ran to its end is "done". */
const outcomeWords = (step: TraceStep) => (step.guard && step.outcome === null ? 'not run' : (step.outcome ?? 'done'));

const EDGE_WORDS = { taken: 'taken', notTaken: 'not taken', skipped: 'skipped' } as const;

/** A call to a tool of a server (MCP): the args it was made (or refused) with, and what the server answered. */
function ToolCall({ attempt }: { attempt: Attempt }) {
  return (
    <dl className="tool-call" aria-label={`Call of ${attempt.skill}, attempt ${attempt.n}`}>
      <dt>args</dt>
      <dd><code>{json(attempt.args)}</code></dd>
      <dt>answer</dt>
      <dd>{attempt.returned ? <code>{json(attempt.returned)}</code> : <span className="muted">none: {attempt.outcome === 'permission_denied' ? 'refused before the call, the server was not asked' : 'no records'}</span>}</dd>
    </dl>
  );
}

/** Attempts with what came of each: retried in place (no re-plan), or not, and why. */
function AttemptsTable({ attempts, label }: { attempts: readonly Attempt[]; label: string }) {
  return (
    <table className="attempts" aria-label={label}>
      <thead><tr><th>n</th><th>attempt</th><th>then</th></tr></thead>
      <tbody>
        {attempts.map((attempt, index) => {
          const verdict = retryVerdict(attempts, index);
          return (
            <tr key={`${attempt.action ?? 0}-${attempt.n}`}>
              <td>{attempt.n}</td>
              <td>
                <Shown text={attempt.skill} /> <span className={`outcome-${attempt.outcome}`}>{attempt.outcome}</span> <span className="muted">{attempt.tokens} tok</span>
                {attempt.access && <span className={`access access-${attempt.access}`}> {attempt.access}</span>}
                {attempt.error && <div className="muted"><Shown text={attempt.error} /></div>}
                {attempt.args && <ToolCall attempt={attempt} />}
              </td>
              <td>
                <strong className={`verdict ${verdict}`}>{VERDICT_WORDS[verdict]}</strong>
                {attempt.retry && verdict !== 'ok' && <div className="muted">{attempt.retry}</div>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function IterationItem({ iteration }: { iteration: Iteration }) {
  const call = iteration.tool ? `call ${iteration.tool}` : iteration.outcome === 'done' ? 'done' : 'no usable reply';
  return (
    <li className={`iteration iteration-${iteration.outcome}`} aria-label={`Iteration ${iteration.n}: ${call} → ${iteration.outcome}`}>
      <p>
        <strong>Iteration {iteration.n}</strong> · {call}
        {iteration.tool && iteration.args && Object.keys(iteration.args).length > 0 && <code> {JSON.stringify(iteration.args)}</code>}
        {' → '}<code className={`outcome-${iteration.outcome}`}>{iteration.outcome}</code>
      </p>
      {iteration.reply !== undefined && <p className="muted">reply: <code>{JSON.stringify(iteration.reply)}</code></p>}
      {iteration.note && <p className="muted"><Shown text={noteWords(iteration.note)} /></p>}
      <AttemptsTable attempts={iteration.attempts} label={`Attempts of iteration ${iteration.n}`} />
    </li>
  );
}

/**
 * The node's inner loop (seed 003), nested: attempts inside an iteration, iterations inside the
 * step, with the node's max_iter as a gauge; rounds of the graph are the timeline's.
 */
function InnerLoop({ step }: { step: TraceStep }) {
  const iterations = step.iterations ?? [];
  const limit = step.maxIter ?? iterations.length;
  return (
    <>
      <h4>Inner loop</h4>
      <p className="gauge">
        <meter aria-label="Iterations of max_iter" min={0} max={Math.max(limit, 1)} value={iterations.length} high={Math.max(limit, 1) - 0.5} optimum={0}>{iterations.length}</meter>
        <span className="gauge-value"> {iterations.length} of max_iter {limit}{step.outcome === 'max_iter' ? ' — reached without done' : ''}</span>
      </p>
      <ol className="iterations" aria-label="Iterations">
        {iterations.map((iteration) => <IterationItem key={iteration.n} iteration={iteration} />)}
      </ol>
    </>
  );
}

/** What a decider or judge was shown: the node's declared reads only (context isolation). */
function Given({ given }: { given: NonNullable<TraceStep['given']> }) {
  return (
    <details className="given">
      <summary>Given to {given.skill}: {given.reads.join(', ') || 'nothing'}</summary>
      <pre className="json" aria-label={`What ${given.skill} was given`}>{JSON.stringify(given.state, null, 2)}</pre>
    </details>
  );
}

export function StepView({ step, label, forkable }: { step: TraceStep; label: string; forkable: boolean }) {

  const [forking, setForking] = useState(false);
  // Both read from the run's checkpoints: the state the step before left, and the state this step left.
  const after = useApp((state) => state.stateAfterSelected);
  const before = useApp((state) => state.stateBeforeSelected);
  const kind = kindDefinition(step.kind);
  const summary = retrySummary(step.attempts);
  return (
    <div className="step-view">
      <h3>
        <KindIcon name={kind.icon} style={{ color: kind.color }} /> Step {step.step} · <Shown text={label} /> <span className="muted">({step.kind}, round {step.round})</span>
      </h3>
      <p>
        Outcome: <code>{outcomeWords(step)}</code>
        {step.fired && <> · fired <strong className="fired-edge">{step.fired.id}</strong> → {step.fired.target} <span className="muted">({storedWords(step.fired)})</span></>}
      </p>
      {step.note && <p className="muted"><Shown text={noteWords(step.note)} /></p>}
      {step.blindRetry && <p className="warn"><WarningIcon size={14} aria-hidden="true" /> blind retry: this plan repeats the last round's, with no new evidence.</p>}
      {step.budget && step.budget.at !== 'stopped' && <p className="warn"><WarningIcon size={14} aria-hidden="true" /> <Shown text={budgetSentence(step.budget)} /></p>}
      {step.guard && <p className="warn">Guard stopped the run: <code>{step.guard.reason}</code> (<Shown text={stopWords(step.guard, step.budget)} />)</p>}

      <h4 id={`guards-${step.step}`}>Guards, checked before the step ran</h4>
      <p className="field-help">The numbers are from before this step: the rounds, steps and tokens it had to start with.</p>
      <ul className="checks" aria-label="Guard checks">
        {(step.guards ?? []).map((guard) => (
          <li key={guard.name} className={guard.passed ? 'pass' : 'fail'}>
            {guard.passed ? <PassIcon size={14} aria-label="passed" /> : <FailIcon size={14} aria-label="failed" />} <Shown text={guardCheckWords(guard)} />
          </li>
        ))}
        {!step.guards?.length && <li className="muted">not recorded</li>}
      </ul>

      {step.finally && <p className="finally-note">finally: the final response, written after the run stopped (the stop reason stays).</p>}
      {step.given && <Given given={step.given} />}
      {step.iterations ? <InnerLoop step={step} /> : step.attempts.length > 0 && (
        <>
          <h4>Attempts</h4>
          {summary && <p className="retry-summary">{summary}</p>}
          <AttemptsTable attempts={step.attempts} label="Attempts" />
        </>
      )}

      <h4>Edges tried</h4>
      <ul className="checks" aria-label="Edges tried">
        {step.edges.map((edge) => {
          const state = edge.skipped ? 'skipped' : edge.matched ? 'taken' : 'notTaken';
          return (
            <li key={edge.id} className={edge.skipped ? 'skipped' : edge.matched ? 'pass' : 'fail'}>
              {state === 'taken' ? <PassIcon size={14} aria-hidden="true" /> : state === 'notTaken' ? <FailIcon size={14} aria-hidden="true" /> : <SkippedIcon size={14} aria-hidden="true" />}{' '}
              <span className="edge-verdict">{EDGE_WORDS[state]}</span> {edge.id}{edge.target ? ` → ${edge.target}` : ''}: <Shown text={storedWords(edge)} />
            </li>
          );
        })}
        {step.edges.length === 0 && <li className="muted">none (the run stopped here)</li>}
      </ul>

      <h4>Read</h4>
      <p>{step.reads.length ? <code>{step.reads.join(', ')}</code> : <span className="muted">nothing</span>}</p>
      <h4>State before → after</h4>
      {before && after ? <Diff changes={diffStates(before, after)} /> : <pre className="json">{JSON.stringify(step.writes, null, 2)}</pre>}

      {forkable && after && (
        <button type="button" onClick={() => setForking((open) => !open)} aria-expanded={forking}>Fork from here</button>
      )}
      {forking && forkable && after && <ForkEditor step={step} state={after} onDone={() => setForking(false)} />}
    </div>
  );
}
