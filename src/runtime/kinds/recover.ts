import { HUMAN_ACTION } from '../../graph/kinds/recover.ts';
import type { RecoveryRule } from '../../graph/kinds/recover.schema.ts';
import { asRecord, type Executor } from './types.ts';

/**
 * Diagnoses the evaluation's reason and picks a different path for the next round; the failure is
 * appended to `failures`, the evidence the next round plans with. Recovery sees the budget.
 */
export const executeRecover: Executor<'recover'> = async (context) => {
  const { node, state, round } = context;
  const reason = String(asRecord(state.evaluation)?.reason ?? 'unknown');
  const candidates = [
    ...node.config.rules.filter((rule) => rule.reason === reason),
    ...node.config.rules.filter((rule) => rule.reason === 'otherwise'),
  ];
  const left = context.budgetLeft();
  const skipped: string[] = [];
  let chosen: RecoveryRule | undefined;
  for (const rule of candidates) {
    if (rule.estTokens !== undefined && left !== null && rule.estTokens > left) {
      skipped.push(`rule ${rule.reason} → ${rule.action} needs ~${rule.estTokens} tokens but only ${left} are left, so it does not apply`);
      continue;
    }
    chosen = rule;
    break;
  }
  const before = Array.isArray(state.failures) ? state.failures : [];
  // What was tried before stays tried (seed 001: a recovery that did not help is not a path left); `none` is no action taken.
  const triedBefore = asRecord(state.recovery)?.tried;
  const earlier = Array.isArray(triedBefore) ? triedBefore.filter((action): action is string => typeof action === 'string') : [];
  const tried = chosen && !earlier.includes(chosen.action) ? [...earlier, chosen.action] : earlier;
  const recovery = { action: chosen?.action ?? 'none', skill: chosen?.skill ?? null, reason, tried };
  const writes = { recovery, failures: [...before, { round, reason, action: recovery.action, skill: recovery.skill }] };
  const why = skipped.length > 0 ? `; ${skipped.join('; ')}` : '';
  if (!chosen) return { outcome: 'no_path', writes, attempts: [], note: `no rule applies to ${reason}${why}` };
  if (chosen.action === HUMAN_ACTION) return { outcome: 'needs_human', writes, attempts: [], note: `${reason}: the rule hands the run to a person${why}` };
  return { outcome: 'recovered', writes, attempts: [], note: `${reason} → ${chosen.action}${chosen.skill ? ` with ${chosen.skill} next round` : ''}${why}` };
};
