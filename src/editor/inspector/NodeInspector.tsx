import { lazy, Suspense } from 'react';
import { kindDefinition, type GraphNode, type InspectorField, type InspectorListEditor, type McpSkill } from '../../graph/index.ts';
import { kindSchemas } from '../../graph/kinds/schemas.ts';
import { toolOfSkill } from '../../graph/skillTypes/index.ts';
import { checkNodeId, getAt, renameNode, setSkill, updateNode, type RecoveryRule } from '../../graph/inspectorOps.ts';
import { useApp } from '../../store/index.ts';
import { applyAt, CheckboxesField, DraftField, JsonField, NumberField, SelectField, TextField, type Apply, type Parsed } from './fields.tsx';
import { PlansEditor, RecoverRulesEditor } from './ListEditors.tsx';
import { SkillField, type DefineSkill } from './SkillField.tsx';
import { KindIcon } from '../../ui/icons.tsx';
import { PlanSkills } from './PlanSkills.tsx';

// Loaded with an MCP tool's node: it brings the MCP client, to read the tool's input schema.
const McpArgsForm = lazy(() => import('./McpArgsForm.tsx').then((module) => ({ default: module.McpArgsForm })));

/** The friendly list editors a kind's `json` field may name (`list`): each comes first, with the JSON field kept as a fallback. */
const LIST_EDITORS: Record<InspectorListEditor, (props: { value: unknown; skills: readonly string[]; apply: Apply<unknown>; define: DefineSkill }) => React.ReactNode> = {
  recoveryRules: ({ value, skills, apply, define }) => <RecoverRulesEditor rules={value as RecoveryRule[]} skills={skills} apply={apply} define={define} />,
  plans: ({ value, skills, apply, define }) => <PlansEditor plans={value as { actions: [] }[]} skills={skills} apply={apply} define={define} />,
};

function ConfigField({ field, node, skills, apply, define }: { field: InspectorField; node: GraphNode; skills: readonly string[]; apply: Apply<unknown>; define: DefineSkill }) {
  const value = getAt(node.config, field.key);
  const common = { label: field.label, help: field.help, apply };
  switch (field.type) {
    case 'number':
      return <NumberField {...common} value={value as number | undefined} optional={field.optional} />;
    case 'text':
      return <TextField {...common} value={value as string | undefined} optional={field.optional ?? false} />;
    case 'select':
      return <SelectField {...common} value={value as string | undefined} options={field.options} optional={field.optional} />;
    case 'multiselect':
      return <CheckboxesField {...common} value={(value as string[] | undefined) ?? []} options={field.options} />;
    case 'skill':
      return <SkillField {...common} value={value as string | undefined} skills={skills} define={define} optional={field.optional} replies={field.replies} />;
    case 'skills':
      return <CheckboxesField {...common} value={(value as string[] | undefined) ?? []} options={skills} />;
    case 'json': {
      const listEditor = field.list && LIST_EDITORS[field.list];
      if (!listEditor) return <JsonField {...common} label={`${field.label} (JSON)`} value={value} optional />;
      return (
        <div className="field" data-part={field.key}>
          <span className="field-title">{field.label}</span>
          {listEditor({ value: value ?? [], skills, apply, define })}
          <details>
            <summary>Edit {field.label.toLowerCase()} as JSON</summary>
            <JsonField {...common} label={`${field.label} (JSON)`} value={value} optional />
          </details>
        </div>
      );
    }
  }
}

export function NodeInspector({ node }: { node: GraphNode }) {
  const graph = useApp((state) => state.graph);
  const edit = useApp((state) => state.edit);
  const select = useApp((state) => state.select);
  const definition = kindDefinition(node.kind);
  const skills = Object.keys(graph.skills);
  const isEntry = graph.entry === node.id;
  const runsPlan = (definition.needs as ((config: unknown) => readonly (readonly string[])[]) | undefined)?.(node.config).some((group) => group.includes('plan')) ?? false;
  // A node's own skill that is an MCP tool gets its args as a form of the tool's input schema.
  const ownSkill = getAt(node.config, 'skill');
  const ownMcpSkill = typeof ownSkill === 'string' && Object.hasOwn(graph.skills, ownSkill) && toolOfSkill(graph.skills[ownSkill]) ? graph.skills[ownSkill] as McpSkill : undefined;

  const setNode = (key: string, update: (node: GraphNode) => GraphNode) => edit((current) => updateNode(current, node.id, update), `node:${node.id}:${key}`);
  const setConfig = (key: string): Apply<unknown> => (value) =>
    // The whole config is re-checked against the kind's schema, so no field can make it invalid.
    applyAt(kindSchemas(node.kind).config, node.config as Record<string, unknown>, key, value, (config) => setNode(`config.${key}`, (current) => ({ ...current, config }) as GraphNode));
  // A skill made with "New skill…" and the field that picks it are one edit: one Undo takes both back.
  // The pick that follows shares the definition's key, and the definition starts an edit of its own
  // (an earlier edit of the same field is not merged into it).
  const defineSkill = (key: string): DefineSkill => (name, skill) => {
    useApp.setState({ lastEditKey: null });
    edit((current) => setSkill(current, name, skill), `node:${node.id}:config.${key}`);
  };
  const setText = (key: 'label' | 'description'): Apply<string | undefined> => (value) => {
    setNode(key, (current) => {
      const next = { ...current, [key]: value };
      if (value === undefined) delete next[key];
      return next;
    });
    return null;
  };
  const rename: Apply<string> = (to) => {
    const problem = checkNodeId(graph, to, node.id);
    if (problem) return problem;
    edit((current) => renameNode(current, node.id, to));
    select({ nodes: [to], edges: [] });
    return null;
  };
  const parseId = (text: string): Parsed<string> => {
    const problem = checkNodeId(graph, text, node.id);
    return problem ? { ok: false, message: problem } : { ok: true, value: text };
  };

  return (
    <div className="inspector-body">
      <p className="inspector-kind">
        <KindIcon name={definition.icon} style={{ color: definition.color }} /> {definition.title} node <span className="muted">({definition.seedName})</span>
      </p>
      <p className="field-help">{definition.description}</p>
      <TextField label="Label" value={node.label} apply={setText('label')} />
      {/* A node that runs the plan's actions (an Act without a skill of its own): where their skills are chosen is the first thing it is asked. */}
      {runsPlan && <PlanSkills act={node.id} />}
      {definition.fields.length > 0 ? (
        <section className="inspector-section" aria-label={`${definition.title} settings`}>
          <h3>Settings</h3>
          {definition.fields.map((field) => (
            <ConfigField key={field.key} field={field} node={node} skills={skills} apply={setConfig(field.key)} define={defineSkill(field.key)} />
          ))}
          {ownMcpSkill && (
            <Suspense fallback={null}>
              <McpArgsForm skill={ownMcpSkill} args={(getAt(node.config, 'args') as Record<string, unknown> | undefined) ?? {}} apply={setConfig('args')} />
            </Suspense>
          )}
        </section>
      ) : null}
      {/* What the node does comes first, at the top of the side; what names it and where runs start, after. */}
      <section className="inspector-section" aria-label="Node">
        <h3>Node</h3>
        <DraftField label="Id" value={node.id} parse={parseId} apply={rename} commitOnBlur help="Renaming updates its edges and the entry. Press Enter to apply." />
        <TextField label="Description" value={node.description} apply={setText('description')} multiline />
        <div className="field">
          {isEntry ? (
            <p className="entry-badge">This node is the entry: runs start here.</p>
          ) : (
            <button type="button" onClick={() => edit((current) => ({ ...current, entry: node.id }))}>
              Set as entry
            </button>
          )}
        </div>
        {definition.finalResponse && (
          <div className="field">
            <label>
              <input
                type="checkbox"
                checked={graph.finally === node.id}
                onChange={(event) => {
                  const checked = event.target.checked;
                  edit((current) => {
                    const { finally: _previous, ...rest } = current;
                    return checked ? { ...rest, finally: node.id } : rest;
                  });
                }}
              />{' '}
              Final response on every stop (finally)
            </label>
            <p className="field-help">Runs once after a stop other than completed, user_stopped or error (max_rounds, a budget, a stop node…), keeping the stop reason.</p>
          </div>
        )}
      </section>
    </div>
  );
}
