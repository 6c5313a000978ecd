import { lazy, Suspense, useState } from 'react';
import { own, type Skill } from '../../graph/index.ts';
import { originOf } from '../../graph/hosts.ts';
import { HTTP_METHODS, ACCESS_LEVELS, SKILL_SCHEMAS, type LlmSkill, type MockSkill, type TypesWithOwnFields } from '../../graph/skills.ts';
import { SKILL_TYPE_NAMES, type SkillOf, type SkillType } from '../../graph/skillTypes/index.ts';
import { checkSkillName, newSkill, nextSkillName, removeSkill, renameSkill, setSkill, skillUsers } from '../../graph/inspectorOps.ts';
import { useApp } from '../../store/index.ts';
import { getKey, keyNameOf, originsWithKey, setKey } from '../../hooks/keys.ts';
import { applyAt, DraftField, JsonField, NumberField, SelectField, TextField, type Apply, type Parsed } from './fields.tsx';
import { skillPart, useOpenPart } from './openPart.ts';
import { answersWithReply, MockScriptForm } from './MockScriptForm.tsx';

// An MCP server's tools come with the MCP client: loaded when an mcp skill is opened.
const McpSkillSettings = lazy(() => import('./McpSkillSettings.tsx').then((module) => ({ default: module.McpSkillSettings })));

/** The key is typed for the origin of the skill's base URL and is sent nowhere else. */
function ApiKeyField({ name, skill, origin }: { name: string; skill: LlmSkill; origin: string | null }) {
  const keyName = keyNameOf(name, skill.apiKeyName);
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
        {skill.apiKeyName ? '' : 'Runs send the key only to a skill with an API key name. '}
        Kept in memory only: never saved, exported or logged. A reload forgets it.
      </p>
    </div>
  );
}

type ApplyKey = (key: string, editKey?: string | null) => Apply<unknown>;
type SettingsOf<T extends SkillType> = (props: { name: string; skill: SkillOf<T>; apply: ApplyKey }) => React.ReactNode;

function MockSettings({ name, skill, apply }: { name: string; skill: MockSkill; apply: ApplyKey }) {
  const graph = useApp((state) => state.graph);
  return <MockScriptForm script={skill.script} replies={answersWithReply(graph, name)} apply={(script, editKey) => apply('script', editKey)(script)} />;
}

/**
 * Each skill type's settings under Skills (beside its name, type, access and tokens), for a type
 * whose skills have fields of their own: a registered type (graph/skillTypes) with fields and no
 * settings does not compile.
 */
const SKILL_SETTINGS: { [T in TypesWithOwnFields]: SettingsOf<T> } = {
  mock: MockSettings,
  http: ({ skill, apply }) => (
    <>
      <TextField label="URL" value={skill.url} optional={false} apply={apply('url')} help="{{args.x}} and {{state.x}} are filled in." />
      <SelectField label="Method" value={skill.method} options={HTTP_METHODS} apply={apply('method')} />
      <JsonField label="Headers (JSON)" value={skill.headers} optional apply={apply('headers')} />
      <TextField label="Body" value={skill.body} multiline apply={apply('body')} />
      <NumberField label="Timeout (ms)" value={skill.timeoutMs} apply={apply('timeoutMs')} />
      <TextField label="Records path" value={skill.recordsPath} apply={apply('recordsPath')} help="Where the records array is in the answer; empty: the answer itself." />
    </>
  ),
  llm: ({ name, skill, apply }) => (
    <>
      <TextField label="Base URL" value={skill.baseUrl} optional={false} apply={apply('baseUrl')} help="An OpenAI-compatible endpoint, e.g. http://localhost:11434/v1" />
      <TextField label="Model" value={skill.model} optional={false} apply={apply('model')} />
      <TextField label="API key name" value={skill.apiKeyName} apply={apply('apiKeyName')} help="The command line reads the key from this environment variable." />
      {/* Keyed by where the key is kept: a new key name or origin shows the key kept there, if any. */}
      <ApiKeyField key={`${keyNameOf(name, skill.apiKeyName)} ${originOf(skill.baseUrl)}`} name={name} skill={skill} origin={originOf(skill.baseUrl)} />
      <NumberField label="Temperature" value={skill.temperature} optional apply={apply('temperature')} />
      <NumberField label="Timeout (ms)" value={skill.timeoutMs} apply={apply('timeoutMs')} />
    </>
  ),
  mcp: ({ skill, apply }) => (
    <Suspense fallback={null}>
      <McpSkillSettings skill={skill} apply={apply} />
    </Suspense>
  ),
};

function SkillSettings({ name, skill, apply }: { name: string; skill: Skill; apply: ApplyKey }) {
  const Settings = (SKILL_SETTINGS as Partial<Record<SkillType, SettingsOf<SkillType>>>)[skill.type];
  return Settings ? <Settings name={name} skill={skill as never} apply={apply} /> : null;
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
