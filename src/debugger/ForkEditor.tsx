import { useState } from 'react';
import { z } from '../graph/zod.ts';
import { CALL_OUTCOMES, describeProblems, describeWhen, edgesInTryOrder, kindDefinition, nodeById, outcomesOf, own, readJson, type ParseResult } from '../graph/index.ts';
import { MockEntry } from '../graph/skills.ts';
import { parseUntrusted } from '../graph/parse.ts';
import { parseStateEdit } from '../graph/state.ts';
import type { TraceStep } from '../runtime/trace.ts';
import { useApp } from '../store/index.ts';
import type { ForkEdits } from '../store/runSlice.ts';
import { nodeLabel, useActiveRun } from './hooks.ts';

const StateObject = z.record(z.string(), z.unknown());

/** The top-level fields whose value the person changed: a fork replaces only those. */
const editedFields = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(after).filter(([key, value]) => JSON.stringify(own(before, key)) !== JSON.stringify(value)));

const keptWords = (step: number) => (step === 1 ? 'Step 1 is kept as it ran' : `Steps 1–${step} are kept as they ran`);

/**
 * "Fork from here" on step N: the run's checkpoint after step N, edited, becomes a new branch.
 * Steps 1..N are not run again (no skill is called again); step N's edge is chosen again on the
 * edited state, and the branch goes on from there. An edit that does not fit the state schema is
 * refused here, with the path, before anything runs.
 */
export function ForkEditor({ step, state, onDone }: { step: TraceStep; state: Record<string, unknown>; onDone: () => void }) {
  const run = useActiveRun();
  const fork = useApp((store) => store.fork);
  const skills = Object.keys(run?.graph.skills ?? {});
  const [stateText, setStateText] = useState(() => JSON.stringify(state, null, 2));
  const [skill, setSkill] = useState('');
  const [outcome, setOutcome] = useState<string>('ok');
  const [recordsText, setRecordsText] = useState('[{}]');
  // Edges may route on the step's outcome: it can be changed too, among its kind's outcomes.
  const forkedNode = run && nodeById(run.graph, step.node);
  const outcomes = step.outcome === null ? [] : forkedNode ? outcomesOf(forkedNode) : kindDefinition(step.kind).outcomes;
  const [stepOutcome, setStepOutcome] = useState(step.outcome ?? '');
  // What each of its edges fires on, in the order they are tried: which outcome (or field) leads where.
  const routes = run ? edgesInTryOrder(run.graph, step.node).map((edge) => `${edge.id} to ${nodeLabel(run.graph, edge.target)}: ${describeWhen(edge.when)}`).join('; ') : '';

  const parsed = parseUntrusted(StateObject, stateText);
  const changes = parsed.ok ? editedFields(state, parsed.value) : {};
  const stateResult = parsed.ok ? parseStateEdit(changes, run?.graph) : parsed;
  const entryResult: ParseResult<MockEntry> | null = skill
    ? (() => {
        const records = readJson(recordsText);
        return records.ok ? parseUntrusted(MockEntry, { outcome, records: records.value }) : records;
      })()
    : null;
  const edits: ForkEdits = {
    ...(stateResult.ok && Object.keys(changes).length > 0 ? { state: changes } : {}),
    ...(entryResult?.ok ? { nextResults: { [skill]: [entryResult.value] } } : {}),
    ...(stepOutcome !== (step.outcome ?? '') ? { outcome: stepOutcome } : {}),
  };
  const valid = stateResult.ok && (entryResult === null || entryResult.ok);
  const changed = edits.state !== undefined || edits.nextResults !== undefined || edits.outcome !== undefined;

  return (
    <form
      className="fork-editor"
      aria-label={`Fork from step ${step.step}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid || !changed) return;
        onDone();
        void fork(step.step, edits);
      }}
    >
      <p className="muted">
        {keptWords(step.step)}: no skill is called again. The new branch starts from the state below, with your changes, as if step {step.step} had
        written them: its edge is chosen again, and the run goes on.
      </p>
      <label className="stack">
        State after step {step.step} (JSON)
        <textarea rows={8} spellCheck={false} value={stateText} onChange={(event) => setStateText(event.target.value)} aria-invalid={!stateResult.ok} />
      </label>
      {!stateResult.ok && <p role="alert" className="error">State: {describeProblems(stateResult.problems)}</p>}
      {outcomes.length > 0 && (
        <div className="fork-outcome">
          <label>
            Step {step.step}'s outcome
            <select value={stepOutcome} onChange={(event) => setStepOutcome(event.target.value)} aria-describedby={`fork-routes-${step.step}`}>
              {outcomes.map((name) => <option key={name} value={name}>{name}</option>)}
            </select>
          </label>
          <p id={`fork-routes-${step.step}`} className="field-help">
            Edges follow the outcome: the edge after step {step.step} is chosen again from it{routes ? ` (${routes})` : ''}. An edit of the state alone changes the edge only where a condition reads that field; to take another edge, change the outcome here.
          </p>
        </div>
      )}
      <fieldset>
        <legend>A skill's next result</legend>
        <label>
          Skill
          <select value={skill} onChange={(event) => setSkill(event.target.value)}>
            <option value="">(unchanged)</option>
            {skills.map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </label>
        {skill && (
          <>
            <label>
              Outcome
              <select value={outcome} onChange={(event) => setOutcome(event.target.value)}>
                {CALL_OUTCOMES.map((name) => <option key={name} value={name}>{name}</option>)}
              </select>
            </label>
            <label className="stack">
              Records (JSON)
              <textarea rows={3} spellCheck={false} value={recordsText} onChange={(event) => setRecordsText(event.target.value)} aria-invalid={entryResult?.ok === false} />
            </label>
            {entryResult && !entryResult.ok && <p role="alert" className="error">Result: {describeProblems(entryResult.problems)}</p>}
          </>
        )}
      </fieldset>
      <button type="submit" disabled={!valid || !changed}>Fork and continue</button>
    </form>
  );
}
