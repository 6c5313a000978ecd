import { isFailure, type ActionRun } from '../retry.ts';
import type { Attempt } from '../trace.ts';
import type { Executor } from './types.ts';

/** Runs its skills (at most `maxIter`) and appends their records to `collected`. */
export const executeCollect: Executor<'collect'> = async (context) => {
  const { node, state } = context;
  const skills = node.config.skills.slice(0, node.config.maxIter);
  const before = Array.isArray(state.collected) ? state.collected : [];
  const gathered: unknown[] = [];
  const attempts: Attempt[] = [];
  let last: ActionRun | undefined;
  for (const [index, skill] of skills.entries()) {
    last = await context.runAction({ skill, args: node.config.args }, node.config.retry, index);
    attempts.push(...last.attempts);
    if (last.budgetStop || isFailure(last.outcome)) break;
    gathered.push(...last.records);
  }
  const writes = { collected: [...before, ...gathered] };
  if (last?.budgetStop) return { outcome: null, writes, attempts, note: last.budgetStop.explain, budgetStop: last.budgetStop };
  if (last && isFailure(last.outcome)) return { outcome: 'error', writes, attempts, note: `${last.skill} failed with ${last.outcome}` };
  if (gathered.length === 0) return { outcome: 'empty', writes, attempts, note: `${skills.length} skill(s) gathered nothing` };
  return { outcome: 'ok', writes, attempts, note: `gathered ${gathered.length} record(s) from ${skills.join(', ')}` };
};
