import { type Action } from '../../graph/index.ts';
import { EVALUATION_REASONS, HUMAN_ACTION, type RecoveryRule } from '../../graph/inspectorOps.ts';
import { JsonField, NumberField, ordinal, SelectField, TextField, type Apply } from './fields.tsx';

const RECOVERY_ACTIONS = ['expand_search_scope', 'fallback_tool', HUMAN_ACTION];
const RULE_REASONS = [...EVALUATION_REASONS, 'otherwise'];


const replaceAt = <T,>(items: readonly T[], index: number, item: T) => items.map((existing, at) => (at === index ? item : existing));
const removeAt = <T,>(items: readonly T[], index: number) => items.filter((_, at) => at !== index);

/** Recovery rules as a list: one reason, what to do, and the skill the next plan switches to. */
export function RecoverRulesEditor({ rules, skills, apply }: { rules: readonly RecoveryRule[]; skills: readonly string[]; apply: Apply<unknown> }) {
  const setRule = (index: number, key: keyof RecoveryRule, value: unknown) => {
    const rule: Record<string, unknown> = { ...rules[index], [key]: value };
    if (value === undefined) delete rule[key];
    return apply(replaceAt(rules, index, rule));
  };
  return (
    <div className="list-editor" role="group" aria-label="Recovery rules">
      <datalist id="recovery-actions">
        {RECOVERY_ACTIONS.map((action) => (
          <option key={action} value={action} />
        ))}
      </datalist>
      {rules.length === 0 ? <p className="field-help">No rules: every failure ends in no_path.</p> : null}
      {rules.map((rule, index) => (
        <fieldset key={index} className="list-item">
          <legend>Rule {index + 1}</legend>
          <SelectField label="When the reason is" value={rule.reason} options={RULE_REASONS} apply={(value) => setRule(index, 'reason', value)} />
          <TextField label="Recovery action" value={rule.action} optional={false} list="recovery-actions" apply={(value) => setRule(index, 'action', value)} />
          <SelectField label="Switch to skill" value={rule.skill} options={skills} optional apply={(value) => setRule(index, 'skill', value)} />
          <NumberField label="Estimated tokens" value={rule.estTokens} optional apply={(value) => setRule(index, 'estTokens', value)} help="A rule that costs more than the budget left does not apply." />
          <button type="button" onClick={() => apply(removeAt(rules, index))}>
            Remove rule {index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => apply([...rules, { reason: rules.length === 0 ? 'empty_result' : 'otherwise', action: 'expand_search_scope' }])}>
        Add rule
      </button>
    </div>
  );
}

interface PlanInput {
  actions: Action[];
}

/** Scripted plans by round: each round's actions with their skill and arguments. */
export function PlansEditor({ plans, skills, apply }: { plans: readonly PlanInput[]; skills: readonly string[]; apply: Apply<unknown> }) {
  const setActions = (index: number, actions: Action[]) => apply(replaceAt(plans, index, { actions }));
  const newAction = (): Action => ({ skill: skills[0] ?? 'skill', args: {} });
  return (
    <div className="list-editor" role="group" aria-label="Plans by round">
      {plans.length === 0 ? <p className="field-help">No plans: the planner plans nothing.</p> : null}
      {plans.map((plan, index) => (
        <fieldset key={index} className="list-item">
          <legend>
            Round {index + 1}
            {index === plans.length - 1 && index > 0 ? ' and after' : ''}
          </legend>
          {plan.actions.map((action, at) => (
            <div key={at} className="sub-item">
              <SelectField
                label={`${ordinal(at + 1)} action’s skill`}
                value={action.skill}
                options={skills}
                apply={(skill) => setActions(index, replaceAt(plan.actions, at, { ...action, skill: skill ?? '' }))}
              />
              <JsonField label="Arguments (JSON)" value={action.args} apply={(args) => setActions(index, replaceAt(plan.actions, at, { ...action, args: args as Action['args'] }))} />
              <button type="button" onClick={() => setActions(index, removeAt(plan.actions, at))}>
                Remove action
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setActions(index, [...plan.actions, newAction()])}>
            Add action
          </button>
          <button type="button" onClick={() => apply(removeAt(plans, index))}>
            Remove round {index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => apply([...plans, { actions: plans.at(-1)?.actions.map((action) => structuredClone(action)) ?? [newAction()] }])}>
        Add round
      </button>
    </div>
  );
}
