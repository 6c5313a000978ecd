import { useId, useState } from 'react';
import { describeProblems } from '../../graph/index.ts';
import { checkSkillName, newSkill, nextSkillName } from '../../graph/inspectorOps.ts';
import { parseUntrusted } from '../../graph/parse.ts';
import { Skill, SKILL_SCHEMAS, type MockEntry } from '../../graph/skills.ts';
import { SKILL_TYPE_NAMES, type SkillEditor, type SkillSetting, type SkillType } from '../../graph/skillTypes/index.ts';
import { settingsOf } from '../../graph/skillTypes/parts.ts';
import { useApp } from '../../store/index.ts';
import { SelectField, type Apply } from './fields.tsx';
import { MockScriptForm, scriptSummary } from './MockScriptForm.tsx';

/** Defines a skill in the graph (`setSkill`), as part of the edit that then picks it. */
export type DefineSkill = (name: string, skill: Skill) => void;

type DraftProps = { id: string; draft: Skill; set: (draft: Skill) => void; replies: boolean };

function ScriptDraft({ draft, field, set, replies }: DraftProps & { field: string }) {
  const script = (draft as Record<string, unknown>)[field] as MockEntry[];
  // The script is held to the skill's schema as it is edited, as a skill's script in the graph is.
  const setScript = (value: unknown) => {
    const parsed = parseUntrusted(SKILL_SCHEMAS[draft.type], { ...draft, [field]: value });
    if (!parsed.ok) return describeProblems(parsed.problems);
    set(parsed.value as Skill);
    return null;
  };
  return (
    // Folded to what it answers: the form's buttons stay in view, and the defaults are a working script.
    <details className="new-skill-script">
      <summary>Script: {scriptSummary(script)}</summary>
      <MockScriptForm script={script} replies={replies} apply={setScript} />
    </details>
  );
}

/** The editors of their own "New skill…" has (the others' fields are set later, under Skills). */
const DRAFT_EDITORS: Partial<Record<SkillEditor, (props: DraftProps & { field: string }) => React.ReactNode>> = { script: ScriptDraft };

/** One field "New skill…" asks, as its type's settings (graph/skillTypes) describe it: text as typed, a script with its form. */
function AskedField({ setting, ...props }: DraftProps & { setting: SkillSetting }) {
  const { id, draft, set } = props;
  if (setting.type === 'editor') {
    const Editor = DRAFT_EDITORS[setting.editor];
    return Editor ? <Editor {...props} field={setting.key} /> : null;
  }
  const value = (draft as Record<string, unknown>)[setting.key];
  return (
    <div className="field">
      <label htmlFor={`${id}-${setting.key}`}>{setting.label}</label>
      <input id={`${id}-${setting.key}`} type="text" value={typeof value === 'string' ? value : ''} onChange={(event) => set({ ...draft, [setting.key]: event.target.value } as Skill)} />
    </div>
  );
}

/** What the form asks of a type: its settings' `asked` fields (none for a type without fields of its own), or null when the type is left out of the form. */
const askedOf = (type: SkillType): SkillSetting[] | null => {
  const settings = settingsOf(type);
  if (!settings) return [];
  const { fields, asked } = settings;
  return asked === false ? null : asked.flatMap((key) => fields.find((field) => field.key === key) ?? []);
};
const NEW_SKILL_TYPES = SKILL_TYPE_NAMES.filter((type) => askedOf(type) !== null);

/** A draft of each type the form offers, each its type's defaults until edited: a type chosen again shows what was typed in it. */
const newDrafts = () => Object.fromEntries(NEW_SKILL_TYPES.map((type) => [type, newSkill(type)])) as Record<SkillType, Skill>;

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
  const asked = askedOf(type) ?? [];
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
      {asked.map((setting) => (
        <AskedField key={setting.key} setting={setting} id={id} draft={drafts[type]} set={(draft) => setDrafts((current) => ({ ...current, [type]: draft }))} replies={replies} />
      ))}
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
