import { useState } from 'react';
import { type Action } from '../../graph/index.ts';
import { EVALUATION_REASONS, HUMAN_ACTION, type RecoveryRule } from '../../graph/inspectorOps.ts';
import { JsonField, NumberField, ordinal, SelectField, TextField, type Apply } from './fields.tsx';
import { NewSkillForm, SkillField, type DefineSkill } from './SkillField.tsx';

const RECOVERY_ACTIONS = ['expand_search_scope', 'fallback_tool', HUMAN_ACTION];
const RULE_REASONS = [...EVALUATION_REASONS, 'otherwise'];


const replaceAt = <T,>(items: readonly T[], index: number, item: T) => items.map((existing, at) => (at === index ? item : existing));
const removeAt = <T,>(items: readonly T[], index: number) => items.filter((_, at) => at !== index);

/** Recovery rules as a list: one reason, what to do, and the skill the next plan switches to. */
export function RecoverRulesEditor({ rules, skills, apply, define }: { rules: readonly RecoveryRule[]; skills: readonly string[]; apply: Apply<unknown>; define: DefineSkill }) {
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
          <SkillField label="Switch to skill" value={rule.skill} skills={skills} define={define} optional apply={(value) => setRule(index, 'skill', value)} />
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

/**
 * Scripted plans by round: each round's actions with their skill and arguments. An action only ever
 * names a skill the graph has: with none yet, Add action asks for a new one first, and Add round
 * adds an empty round.
 */
export function PlansEditor({ plans, skills, apply, define }: { plans: readonly PlanInput[]; skills: readonly string[]; apply: Apply<unknown>; define: DefineSkill }) {
  const setActions = (index: number, actions: Action[]) => apply(replaceAt(plans, index, { actions }));
  /** The round whose Add action waits for a new skill (there is none to pick). */
  const [needsSkill, setNeedsSkill] = useState<number | null>(null);
  const addAction = (index: number) => (skills.length > 0 ? setActions(index, [...plans[index].actions, { skill: skills[0], args: {} }]) : setNeedsSkill(index));
  return (
    <div className="list-editor" role="group" aria-label="Plans by round">
      {plans.length === 0 ? <p className="field-help">No plans: the planner plans nothing, and the run stops at its first step.</p> : null}
      {plans.map((plan, index) => (
        <fieldset key={index} className="list-item">
          <legend>
            Round {index + 1}
            {index === plans.length - 1 && index > 0 ? ' and after' : ''}
          </legend>
          {plan.actions.map((action, at) => (
            <div key={at} className="sub-item">
              <SkillField
                label={`${ordinal(at + 1)} action’s skill`}
                value={action.skill}
                skills={skills}
                define={define}
                apply={(skill) => setActions(index, replaceAt(plan.actions, at, { ...action, skill: skill ?? '' }))}
              />
              <JsonField label="Arguments (JSON)" value={action.args} apply={(args) => setActions(index, replaceAt(plan.actions, at, { ...action, args: args as Action['args'] }))} />
              <button type="button" onClick={() => setActions(index, removeAt(plan.actions, at))}>
                Remove action
              </button>
            </div>
          ))}
          {needsSkill === index ? (
            <NewSkillForm
              onCancel={() => setNeedsSkill(null)}
              onCreate={(name, skill) => {
                define(name, skill);
                setActions(index, [...plan.actions, { skill: name, args: {} }]);
                setNeedsSkill(null);
              }}
            />
          ) : (
            <button type="button" onClick={() => addAction(index)}>
              Add action
            </button>
          )}
          <button type="button" onClick={() => apply(removeAt(plans, index))}>
            Remove round {index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => apply([...plans, { actions: plans.at(-1)?.actions.map((action) => structuredClone(action)) ?? (skills.length > 0 ? [{ skill: skills[0], args: {} }] : []) }])}>
        Add round
      </button>
    </div>
  );
}
