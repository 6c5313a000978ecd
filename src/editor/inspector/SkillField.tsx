import { useId, useState } from 'react';
import { describeProblems, type MockEntry } from '../../graph/index.ts';
import { checkSkillName, newSkill, nextSkillName } from '../../graph/inspectorOps.ts';
import { parseUntrusted } from '../../graph/parse.ts';
import { MockSkill, Skill } from '../../graph/skills.ts';
import { useApp } from '../../store/index.ts';
import { SelectField, type Apply } from './fields.tsx';
import { MockScriptForm, scriptSummary } from './MockScriptForm.tsx';

/** Defines a skill in the graph (`setSkill`), as part of the edit that then picks it. */
export type DefineSkill = (name: string, skill: Skill) => void;

const SKILL_TYPES = ['mock', 'http', 'llm'] as const;
type SkillType = (typeof SKILL_TYPES)[number];
const DEFAULT_SCRIPT: MockEntry[] = [{ outcome: 'ok', records: [{}] }];

/** The skill the form describes, or why it is not one (the name first: it is what the picker shows). */
const skillOf = (graph: Parameters<typeof checkSkillName>[0], draft: { name: string; type: SkillType; script: MockEntry[]; url: string; baseUrl: string; model: string }) => {
  const nameProblem = checkSkillName(graph, draft.name);
  if (nameProblem) return { ok: false as const, message: `Name: ${nameProblem}` };
  const base = newSkill(draft.type);
  let candidate: unknown = base;
  if (draft.type === 'mock') candidate = { ...base, script: draft.script };
  if (draft.type === 'http') candidate = { ...base, url: draft.url };
  if (draft.type === 'llm') candidate = { ...base, baseUrl: draft.baseUrl, model: draft.model };
  const parsed = parseUntrusted(Skill, candidate);
  return parsed.ok ? { ok: true as const, skill: parsed.value } : { ok: false as const, message: describeProblems(parsed.problems) };
};

/**
 * A new skill defined where it is used: its name, its type, and a mock's script (with a reply per
 * call where it is `replies`: a judge's, a planner's) or an http skill's
 * URL (an llm's endpoint and model). The rest takes the type's defaults, set later under Skills in
 * the graph settings.
 */
export function NewSkillForm({ onCreate, onCancel, replies = false }: { onCreate: (name: string, skill: Skill) => void; onCancel: () => void; replies?: boolean }) {
  const graph = useApp((state) => state.graph);
  const id = useId();
  const [draft, setDraft] = useState(() => ({ name: nextSkillName(graph), type: 'mock' as SkillType, script: DEFAULT_SCRIPT, url: 'https://example.com/search?q={{args.q}}', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' }));
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof typeof draft) => (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [key]: event.target.value }));
  // The script is held to the mock skill's schema as it is edited, as a skill's script in the graph is.
  const setScript = (script: unknown) => {
    const parsed = parseUntrusted(MockSkill, { ...newSkill('mock'), script });
    if (!parsed.ok) return describeProblems(parsed.problems);
    setDraft((current) => ({ ...current, script: parsed.value.script }));
    return null;
  };
  const create = () => {
    const result = skillOf(graph, draft);
    if (!result.ok) return setError(result.message);
    onCreate(draft.name, result.skill);
  };
  return (
    <fieldset className="list-item new-skill" aria-label="New skill">
      <legend>New skill</legend>
      <div className="field">
        <label htmlFor={`${id}-name`}>Skill name</label>
        <input id={`${id}-name`} type="text" value={draft.name} onChange={set('name')} autoFocus />
      </div>
      <div className="field">
        <label htmlFor={`${id}-type`}>Skill type</label>
        <select id={`${id}-type`} value={draft.type} onChange={set('type')}>
          {SKILL_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
        </select>
      </div>
      {/* Folded to what it answers: the form's buttons stay in view, and the defaults are a working script. */}
      {draft.type === 'mock' && (
        <details className="new-skill-script">
          <summary>Script: {scriptSummary(draft.script)}</summary>
          <MockScriptForm script={draft.script} replies={replies} apply={setScript} />
        </details>
      )}
      {draft.type === 'http' && (
        <div className="field">
          <label htmlFor={`${id}-url`}>URL</label>
          <input id={`${id}-url`} type="text" value={draft.url} onChange={set('url')} />
        </div>
      )}
      {draft.type === 'llm' && (
        <>
          <div className="field">
            <label htmlFor={`${id}-base`}>Base URL</label>
            <input id={`${id}-base`} type="text" value={draft.baseUrl} onChange={set('baseUrl')} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
            <input id={`${id}-model`} type="text" value={draft.model} onChange={set('model')} />
          </div>
        </>
      )}
      {error && <p role="alert" className="field-error">{error}</p>}
      <div className="new-skill-buttons">
        <button type="button" onClick={create}>Create skill</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </fieldset>
  );
}

/** Not a skill name (names are ids, and an id cannot start with a space): picks "New skill…". */
const NEW_SKILL = ' new';

/**
 * A skill picker: the graph's skills, and "New skill…", which opens the form above in place and
 * picks the skill it creates.
 */
export function SkillField({ label, value, skills, apply, define, optional, help, replies }: { label: string; value: string | undefined; skills: readonly string[]; apply: Apply<string | undefined>; define: DefineSkill; optional?: boolean; help?: string; replies?: boolean }) {
  const [creating, setCreating] = useState(false);
  return (
    <>
      <SelectField label={label} value={value} options={skills} apply={apply} optional={optional} help={help} actions={[{ value: NEW_SKILL, label: 'New skill…', run: () => setCreating(true) }]} />
      {creating && (
        <NewSkillForm
          replies={replies}
          onCancel={() => setCreating(false)}
          onCreate={(name, skill) => {
            define(name, skill);
            apply(name);
            setCreating(false);
          }}
        />
      )}
    </>
  );
}
