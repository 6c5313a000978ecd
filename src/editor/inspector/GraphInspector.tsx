import { BUDGET_ENDINGS } from '../../graph/budget.ts';
import { type GraphFile as GraphDocument } from '../../graph/index.ts';
import { GraphFile, Limits, PERMISSION_MODES } from '../../graph/schema.ts';
import { LIMIT_NAMES } from '../../graph/settings.ts';
import { useApp } from '../../store/index.ts';
import { applyAt, JsonField, NumberField, SelectField, TextField, type Apply } from './fields.tsx';
import { SkillsEditor } from './SkillsEditor.tsx';

export function GraphInspector() {
  const graph = useApp((state) => state.graph);
  const edit = useApp((state) => state.edit);
  const commit = (key: string) => (next: GraphDocument) => edit(() => next, `graph:${key}`);
  // Graph settings are checked against the whole file schema, so the document stays a valid file.
  const set = (key: string): Apply<unknown> => (value) => applyAt(GraphFile, graph as unknown as Record<string, unknown>, key, value, commit(key));
  const setLimit = (key: keyof typeof Limits.shape): Apply<number | undefined> => (value) => set(`limits.${key}`)(value);

  return (
    <div className="inspector-body">
      <p className="inspector-kind">Graph settings</p>
      <TextField label="Name" value={graph.name} optional={false} apply={set('name')} />
      <TextField label="Description" value={graph.description} multiline apply={set('description')} />
      <SelectField label="Entry" value={graph.entry || undefined} options={graph.nodes.map((node) => node.id)} apply={(value) => set('entry')(value ?? '')} help="Runs start here; entering it again starts a new round." />
      <section className="inspector-section" aria-label="Limits">
        <h3>Limits</h3>
        <NumberField label={LIMIT_NAMES.maxRounds} value={graph.limits.maxRounds} apply={setLimit('maxRounds')} />
        <NumberField label={LIMIT_NAMES.maxSteps} value={graph.limits.maxSteps} apply={setLimit('maxSteps')} />
        <NumberField label={LIMIT_NAMES.tokenBudget} value={graph.limits.tokenBudget} optional apply={setLimit('tokenBudget')} placeholder="unlimited" help="Empty means unlimited." />
        <SelectField label={LIMIT_NAMES.onBudget} value={graph.limits.onBudget} options={BUDGET_ENDINGS} optional apply={set('limits.onBudget')} help="stop (empty): before the next node. evaluate: no further skill call; the next Verify that judges without a call still runs on what was gathered, then the run stops." />
      </section>
      <SelectField label="Permission mode" value={graph.permissions.mode} options={PERMISSION_MODES} apply={set('permissions.mode')} help="read-only allows read skills; workspace also write; full also exec." />
      <JsonField label="Initial state (JSON)" value={graph.state} apply={(value) => set('state')(value ?? {})} optional />
      <SkillsEditor />
    </div>
  );
}
