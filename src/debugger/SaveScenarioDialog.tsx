import { useEffect, useRef, useState } from 'react';
import { describeProblems, readJson } from '../graph/index.ts';
import { Scenario } from '../graph/schema.ts';
import { parseWith } from '../graph/parse.ts';
import type { ScenarioDraft } from '../runtime/index.ts';
import { useApp } from '../store/index.ts';

/** The draft as the person edits it: everything but the name, which has a field of its own, and the saved run's record, which is kept as made. */
const draftText = (scenario: Scenario) => JSON.stringify({ ...scenario, name: undefined, savedFrom: undefined }, null, 2);

/** The typed draft is input like a file: read within the input limits, prototype keys refused. */
const parseDraft = (name: string, text: string, savedFrom: Scenario['savedFrom']) => {
  const json = readJson(text);
  if (!json.ok) return json;
  if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    return { ok: false as const, problems: [{ path: '', message: 'expected an object: {"skills": …, "expect": …}' }] };
  return parseWith(Scenario, { savedFrom, ...json.value, name: name.trim() });
};

/**
 * "Save as scenario": the run's draft, for the person to trim (drop an expectation, loosen a
 * path into `pathIncludes`, shorten a script) before it goes into the graph as one undoable edit.
 */
export function SaveScenarioDialog({ runId, draft, onClose }: { runId: number; draft: ScenarioDraft; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const save = useApp((state) => state.saveScenario);
  const scenarios = useApp((state) => state.graph.scenarios);
  const [name, setName] = useState(draft.scenario.name);
  const [text, setText] = useState(() => draftText(draft.scenario));
  const parsed = parseDraft(name, text, draft.scenario.savedFrom);
  const replaces = scenarios.some((scenario) => scenario.name === name.trim());

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal?.();
    return () => element?.close?.();
  }, []);

  return (
    <dialog ref={dialog} className="save-scenario" aria-label="Save as scenario" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!parsed.ok) return;
          save(parsed.value, runId);
          onClose();
        }}
      >
        <h2>Save run {runId} as a scenario</h2>
        <p className="muted">
          It pins what the run did (its path, stop, rounds and attempts) and replays what each skill returned as a mock script,
          so the scenario runs offline. Trim what should not be pinned before saving. It also keeps each step of the run and its graph's
          settings, so that a later failure says where the run parts from this one and what changed.
        </p>
        {draft.notes.length > 0 && (
          <ul className="save-notes" aria-label="What the scenario cannot pin">
            {draft.notes.map((note) => <li key={note}>{note}</li>)}
          </ul>
        )}
        <label className="stack">
          Scenario name
          <input value={name} onChange={(event) => setName(event.target.value)} required />
        </label>
        {replaces && <p className="warn">A scenario named “{name.trim()}” exists: saving replaces it.</p>}
        <label className="stack">
          Scenario (JSON)
          <textarea rows={16} spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} aria-invalid={!parsed.ok} />
        </label>
        {!parsed.ok && <p role="alert" className="error">{describeProblems(parsed.problems)}</p>}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit" disabled={!parsed.ok}>Save scenario</button>
        </div>
      </form>
    </dialog>
  );
}
