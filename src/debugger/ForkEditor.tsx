import { useState } from 'react';
import { z } from 'zod';
import { CALL_OUTCOMES, describeProblems, MockEntry, parseUntrusted, readJson, type ParseResult } from '../graph/index.ts';
import type { TraceStep } from '../runtime/trace.ts';
import { useApp } from '../store/index.ts';
import type { ForkEdits } from '../store/runSlice.ts';
import { useActiveRun } from './hooks.ts';

const StateObject = z.record(z.string(), z.unknown());

/** The top-level fields whose value the person changed: a fork replaces only those. */
const editedFields = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(after).filter(([key, value]) => JSON.stringify(before[key]) !== JSON.stringify(value)));

const replayWords = (step: number) => (step === 1 ? '' : step === 2 ? 'Step 1 is re-run as it was. ' : `Steps 1–${step - 1} are re-run as they were. `);

/**
 * "Fork from here" on step N: steps 1..N-1 are re-run as they were, then step N runs again with
 * the edited state and/or a skill's next result, and the run goes on as a new branch.
 */
export function ForkEditor({ step, onDone }: { step: TraceStep; onDone: () => void }) {
  const run = useActiveRun();
  const fork = useApp((state) => state.fork);
  const skills = Object.keys(run?.graph.skills ?? {});
  const before = step.stateBefore ?? {};
  const [stateText, setStateText] = useState(() => JSON.stringify(before, null, 2));
  const [skill, setSkill] = useState('');
  const [outcome, setOutcome] = useState<string>('ok');
  const [recordsText, setRecordsText] = useState('[{}]');

  const stateResult = parseUntrusted(StateObject, stateText);
  const entryResult: ParseResult<MockEntry> | null = skill
    ? (() => {
        const records = readJson(recordsText);
        return records.ok ? parseUntrusted(MockEntry, { outcome, records: records.value }) : records;
      })()
    : null;
  const edits: ForkEdits = {
    ...(stateResult.ok && Object.keys(editedFields(before, stateResult.value)).length > 0 ? { state: editedFields(before, stateResult.value) } : {}),
    ...(entryResult?.ok ? { nextResults: { [skill]: [entryResult.value] } } : {}),
  };
  const valid = stateResult.ok && (entryResult === null || entryResult.ok);
  const changed = edits.state !== undefined || edits.nextResults !== undefined;

  return (
    <form
      className="fork-editor"
      aria-label={`Fork from step ${step.step}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid || !changed) return;
        onDone();
        void fork(step.step - 1, edits);
      }}
    >
      <p className="muted">{replayWords(step.step)}Step {step.step} runs again with your changes and the run goes on as a new branch.</p>
      <label className="stack">
        State at step {step.step} (JSON)
        <textarea rows={8} spellCheck={false} value={stateText} onChange={(event) => setStateText(event.target.value)} aria-invalid={!stateResult.ok} />
      </label>
      {!stateResult.ok && <p role="alert" className="error">State: {describeProblems(stateResult.problems)}</p>}
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
