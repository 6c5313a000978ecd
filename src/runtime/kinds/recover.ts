import { HUMAN_ACTION } from '../../graph/kinds/recover.ts';
import type { RecoveryRule } from '../../graph/kinds/recover.schema.ts';
import type { Note } from '../trace.ts';
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
  const skipped: { reason: string; action: string; estTokens: number; left: number }[] = [];
  let chosen: RecoveryRule | undefined;
  for (const rule of candidates) {
    if (rule.estTokens !== undefined && left !== null && rule.estTokens > left) {
      skipped.push({ reason: rule.reason, action: rule.action, estTokens: rule.estTokens, left });
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
  const note = (chose: Extract<Note, { is: 'recovery' }>['chose']): Note => ({ is: 'recovery', reason, chose, skipped });
  if (!chosen) return { outcome: 'no_path', writes, attempts: [], note: note(null) };
  if (chosen.action === HUMAN_ACTION) return { outcome: 'needs_human', writes, attempts: [], note: note('person') };
  return { outcome: 'recovered', writes, attempts: [], note: note({ action: chosen.action, ...(chosen.skill ? { skill: chosen.skill } : {}) }) };
};
