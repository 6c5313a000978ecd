import { lazy, Suspense, useState } from 'react';
import { own, type Skill } from '../../graph/index.ts';
import { originOf } from '../../graph/hosts.ts';
import { ACCESS_LEVELS, SKILL_SCHEMAS, type McpSkill, type MockEntry } from '../../graph/skills.ts';
import { callsOfSkill, SKILL_TYPE_NAMES, type SkillEditor, type SkillSetting } from '../../graph/skillTypes/index.ts';
import { settingsOf } from '../../graph/skillTypes/parts.ts';
import { checkSkillName, newSkill, nextSkillName, removeSkill, renameSkill, setSkill, skillUsers } from '../../graph/inspectorOps.ts';
import { useApp } from '../../store/index.ts';
import { getKey, keyNameOf, originsWithKey, setKey } from '../../hooks/keys.ts';
import { applyAt, DraftField, JsonField, NumberField, SelectField, TextField, type Apply, type Parsed } from './fields.tsx';
import { skillPart, useOpenPart } from './openPart.ts';
import { answersWithReply, MockScriptForm } from './MockScriptForm.tsx';

// An MCP server's tools come with the MCP client: loaded when an mcp skill is opened.
const McpSkillSettings = lazy(() => import('./McpSkillSettings.tsx').then((module) => ({ default: module.McpSkillSettings })));

/** The key is typed for the origin it is sent to and is sent nowhere else. */
function ApiKeyField({ name, keyName: named, origin }: { name: string; keyName: string | undefined; origin: string | null }) {
  const keyName = keyNameOf(name, named);
  const [value, setValue] = useState(() => (origin ? (getKey(keyName, origin) ?? '') : ''));
  const id = `api-key-${name}`;
  const elsewhere = origin && !value ? originsWithKey(keyName).filter((other) => other !== origin) : [];
  return (
    <div className="field">
      <label htmlFor={id}>API key</label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        value={value}
        disabled={!origin}
        onChange={(event) => {
          setValue(event.target.value);
          if (origin) setKey(keyName, origin, event.target.value);
        }}
      />
      <p className="field-help">
        {!origin ? 'Enter a base URL first: a key is sent only to the origin it was given for. ' : `Sent only to ${origin}. `}
        {elsewhere.length > 0 ? `The key ${keyName} was given for ${elsewhere.join(', ')}, not for this origin: give it again to send it here. ` : ''}
        {named ? '' : 'Runs send the key only to a skill with an API key name. '}
        Kept in memory only: never saved, exported or logged. A reload forgets it.
      </p>
    </div>
  );
}

type ApplyKey = (key: string, editKey?: string | null) => Apply<unknown>;
type EditorProps = { name: string; skill: Skill; value: unknown; field: string; apply: ApplyKey };

/** The editors of their own a type's settings name (graph/skillTypes, SkillEditor), by what they edit, not by type. */
const SETTINGS_EDITORS: Record<SkillEditor, (props: EditorProps) => React.ReactNode> = {
  script: function ScriptSettings({ name, value, field, apply }) {
    const graph = useApp((state) => state.graph);
    return <MockScriptForm script={value as MockEntry[]} replies={answersWithReply(graph, name)} apply={(script, editKey) => apply(field, editKey)(script)} />;
  },
  apiKey: ({ name, skill, value }) => {
    // The origin the key goes to is the one the skill's definition says it contacts with a key.
    const origin = originOf(callsOfSkill(skill)[0]?.address ?? '');
    const keyName = typeof value === 'string' ? value : undefined;
    // Keyed by where the key is kept: a new key name or origin shows the key kept there, if any.
    return <ApiKeyField key={`${keyNameOf(name, keyName)} ${origin}`} name={name} keyName={keyName} origin={origin} />;
  },
  mcpTool: ({ skill, apply }) => (
    <Suspense fallback={null}>
      <McpSkillSettings skill={skill as McpSkill} apply={apply} />
    </Suspense>
  ),
};

/** One setting of a skill, drawn from its type's settings (data). */
function SkillSettingField({ name, skill, setting, apply }: { name: string; skill: Skill; setting: SkillSetting; apply: ApplyKey }) {
  const value = (skill as Record<string, unknown>)[setting.key];
  switch (setting.type) {
    case 'text':
      return <TextField label={setting.label} value={value as string | undefined} optional={setting.optional} multiline={setting.multiline} help={setting.help} apply={apply(setting.key)} />;
    case 'number':
      return <NumberField label={setting.label} value={value as number | undefined} optional={setting.optional} help={setting.help} apply={apply(setting.key)} />;
    case 'select':
      return <SelectField label={setting.label} value={value as string | undefined} options={setting.options} help={setting.help} apply={apply(setting.key)} />;
    case 'json':
      return <JsonField label={setting.label} value={value} optional={setting.optional} help={setting.help} apply={apply(setting.key)} />;
    case 'editor': {
      const Editor = SETTINGS_EDITORS[setting.editor];
      return <Editor name={name} skill={skill} value={value} field={setting.key} apply={apply} />;
    }
  }
}

/** A skill's settings under Skills, beside its name, type, access and tokens: its type's (none for a type without fields of its own). */
function SkillSettings({ name, skill, apply }: { name: string; skill: Skill; apply: ApplyKey }) {
  return settingsOf(skill.type)?.fields.map((setting, index) => <SkillSettingField key={index} name={name} skill={skill} setting={setting} apply={apply} />);
}

interface SkillItemProps {
  name: string;
  skill: Skill;
  open: boolean;
  onToggle: (open: boolean) => void;
  onRenamed: (to: string) => void;
}

function SkillItem({ name, skill, open, onToggle, onRenamed }: SkillItemProps) {
  const graph = useApp((state) => state.graph);
  const edit = useApp((state) => state.edit);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const users = skillUsers(graph, name);
  // Applied to the skill as it is when applied, not as rendered: two settings applied at once (a tool and its access) both stay.
  // `editKey` null: an edit of its own in the history, never merged with the one before (a script row added or moved).
  const apply = (key: string, editKey: string | null = key): Apply<unknown> => (value) =>
    applyAt(SKILL_SCHEMAS[skill.type], (own(useApp.getState().graph.skills, name) ?? skill) as Record<string, unknown>, key, value, (next) => edit((current) => setSkill(current, name, next as Skill), editKey === null ? undefined : `skill:${name}:${editKey}`));
  const parseName = (text: string): Parsed<string> => {
    const problem = checkSkillName(graph, text, name);
    return problem ? { ok: false, message: problem } : { ok: true, value: text };
  };
  const remove = () => edit((current) => removeSkill(current, name));

  return (
    <li className="skill-item" data-part={skillPart(name)}>
      <details open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
        <summary>
          <strong>{name}</strong> <span className="muted">{skill.type}, {skill.access}</span>
        </summary>
        <DraftField label="Skill name" value={name} parse={parseName} commitOnBlur apply={(to) => {
          edit((current) => renameSkill(current, name, to));
          onRenamed(to);
          return null;
        }} help="Renaming updates the nodes that use it. Press Enter to apply." />
        <SelectField label="Type" value={skill.type} options={SKILL_TYPE_NAMES} apply={(type) => {
          edit((current) => setSkill(current, name, { ...newSkill(type as Skill['type']), access: skill.access }));
          return null;
        }} />
        <SelectField label="Access" value={skill.access} options={ACCESS_LEVELS} apply={apply('access')} />
        <NumberField label="Tokens per attempt" value={skill.tokens} optional apply={apply('tokens')} />
        <SkillSettings name={name} skill={skill} apply={apply} />
        {confirmDelete ? (
          <div role="alert" className="confirm">
            <p>
              {name} is used by {users.join(', ')}; deleting it leaves them with an unknown skill.
            </p>
            <button type="button" onClick={remove}>Delete anyway</button>
            <button type="button" onClick={() => setConfirmDelete(false)}>Keep it</button>
          </div>
        ) : (
          <button type="button" onClick={() => (users.length > 0 ? setConfirmDelete(true) : remove())}>
            Delete skill {name}
          </button>
        )}
      </details>
    </li>
  );
}

export function SkillsEditor() {
  const skills = useApp((state) => state.graph.skills);
  const edit = useApp((state) => state.edit);
  // Kept here rather than in each item: an item is keyed by its name, so a rename remounts it. A
  // skill's link (an Act's list of the skills it runs) opens the form with that skill open.
  const { asked } = useOpenPart();
  const [openNames, setOpenNames] = useState<ReadonlySet<string>>(() => new Set(Object.keys(skills).filter((name) => asked === skillPart(name))));
  const setOpen = (name: string, open: boolean) =>
    setOpenNames((names) => {
      if (names.has(name) === open) return names;
      const next = new Set(names);
      if (open) next.add(name);
      else next.delete(name);
      return next;
    });
  return (
    <section className="inspector-section" aria-label="Skills">
      <h3>Skills</h3>
      <ul className="skill-list">
        {Object.entries(skills).map(([name, skill]) => (
          <SkillItem
            key={name}
            name={name}
            skill={skill}
            open={openNames.has(name)}
            onToggle={(open) => setOpen(name, open)}
            onRenamed={(to) => setOpen(to, true)}
          />
        ))}
      </ul>
      <button type="button" onClick={() => edit((current) => setSkill(current, nextSkillName(current), newSkill('mock')))}>
        Add skill
      </button>
    </section>
  );
}
