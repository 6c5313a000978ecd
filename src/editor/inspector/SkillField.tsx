import { useId, useState } from 'react';
import { describeProblems } from '../../graph/index.ts';
import { checkSkillName, newSkill, nextSkillName } from '../../graph/inspectorOps.ts';
import { parseUntrusted } from '../../graph/parse.ts';
import { Skill, SKILL_SCHEMAS, type MockSkill, type TypesWithOwnFields } from '../../graph/skills.ts';
import { SKILL_TYPE_NAMES, type SkillOf, type SkillType } from '../../graph/skillTypes/index.ts';
import { useApp } from '../../store/index.ts';
import { SelectField, type Apply } from './fields.tsx';
import { MockScriptForm, scriptSummary } from './MockScriptForm.tsx';

/** Defines a skill in the graph (`setSkill`), as part of the edit that then picks it. */
export type DefineSkill = (name: string, skill: Skill) => void;

/** The fields of a type's draft in "New skill…", the rest of it the type's defaults (its definition's). */
type NewFieldsOf<T extends SkillType> = (props: { id: string; draft: SkillOf<T>; set: (draft: SkillOf<T>) => void; replies: boolean }) => React.ReactNode;

function MockScriptFields({ draft, set, replies }: { draft: MockSkill; set: (draft: MockSkill) => void; replies: boolean }) {
  // The script is held to the mock skill's schema as it is edited, as a skill's script in the graph is.
  const setScript = (script: unknown) => {
    const parsed = parseUntrusted(SKILL_SCHEMAS.mock, { ...draft, script });
    if (!parsed.ok) return describeProblems(parsed.problems);
    set(parsed.value);
    return null;
  };
  return (
    // Folded to what it answers: the form's buttons stay in view, and the defaults are a working script.
    <details className="new-skill-script">
      <summary>Script: {scriptSummary(draft.script)}</summary>
      <MockScriptForm script={draft.script} replies={replies} apply={setScript} />
    </details>
  );
}

/**
 * What "New skill…" asks of each skill type whose skills have fields of their own: a registered
 * type (graph/skillTypes) with fields and no entry does not compile; null leaves the type out of the
 * form (an mcp skill is made under Skills, where its server's tools are listed). A type without
 * fields of its own is offered with nothing more to ask.
 */
const NEW_SKILL_FIELDS: { [T in TypesWithOwnFields]: NewFieldsOf<T> | null } = {
  mock: MockScriptFields,
  http: ({ id, draft, set }) => (
    <div className="field">
      <label htmlFor={`${id}-url`}>URL</label>
      <input id={`${id}-url`} type="text" value={draft.url} onChange={(event) => set({ ...draft, url: event.target.value })} />
    </div>
  ),
  llm: ({ id, draft, set }) => (
    <>
      <div className="field">
        <label htmlFor={`${id}-base`}>Base URL</label>
        <input id={`${id}-base`} type="text" value={draft.baseUrl} onChange={(event) => set({ ...draft, baseUrl: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-model`}>Model</label>
        <input id={`${id}-model`} type="text" value={draft.model} onChange={(event) => set({ ...draft, model: event.target.value })} />
      </div>
    </>
  ),
  mcp: null,
};
const nothingAsked: NewFieldsOf<SkillType> = () => null;
/** What the form asks of each type: a type without fields of its own has no entry above, and nothing to ask. */
const ASKED = Object.fromEntries(SKILL_TYPE_NAMES.map((type) => [type, Object.hasOwn(NEW_SKILL_FIELDS, type) ? NEW_SKILL_FIELDS[type as keyof typeof NEW_SKILL_FIELDS] : nothingAsked])) as Record<SkillType, NewFieldsOf<SkillType> | null>;
const NEW_SKILL_TYPES = SKILL_TYPE_NAMES.filter((type) => ASKED[type] !== null);

/** A draft of each type the form offers, each its type's defaults until edited: a type chosen again shows what was typed in it. */
const newDrafts = () => Object.fromEntries(NEW_SKILL_TYPES.map((type) => [type, newSkill(type)])) as { [T in SkillType]: SkillOf<T> };

/** The skill the form describes, or why it is not one (the name first: it is what the picker shows). */
const skillOf = (graph: Parameters<typeof checkSkillName>[0], name: string, draft: Skill) => {
  const nameProblem = checkSkillName(graph, name);
  if (nameProblem) return { ok: false as const, message: `Name: ${nameProblem}` };
  const parsed = parseUntrusted(Skill, draft);
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
  const [name, setName] = useState(() => nextSkillName(graph));
  const [type, setType] = useState<SkillType>(NEW_SKILL_TYPES[0]);
  const [drafts, setDrafts] = useState(newDrafts);
  const [error, setError] = useState<string | null>(null);
  const Fields = ASKED[type] as NewFieldsOf<SkillType>;
  const create = () => {
    const result = skillOf(graph, name, drafts[type]);
    if (!result.ok) return setError(result.message);
    onCreate(name, result.skill);
  };
  return (
    <fieldset className="list-item new-skill" aria-label="New skill">
      <legend>New skill</legend>
      <div className="field">
        <label htmlFor={`${id}-name`}>Skill name</label>
        <input id={`${id}-name`} type="text" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
      </div>
      <div className="field">
        <label htmlFor={`${id}-type`}>Skill type</label>
        <select id={`${id}-type`} value={type} onChange={(event) => setType(event.target.value as SkillType)}>
          {NEW_SKILL_TYPES.map((option) => <option key={option} value={option}>{option}</option>)}
        </select>
      </div>
      <Fields id={id} draft={drafts[type] as never} set={(draft) => setDrafts((current) => ({ ...current, [type]: draft }))} replies={replies} />
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
