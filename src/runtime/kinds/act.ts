import type { Action } from '../../graph/index.ts';
import { isFailure, type ActionRun } from '../retry.ts';
import type { Attempt } from '../trace.ts';
import { asRecord, resultOf, type Executor } from './types.ts';

/** Runs the plan's actions (or the node's own skill) in order; a fatal action stops the rest. */
export const executeAct: Executor<'act'> = async (context) => {
  const { node, state } = context;
  const planned = node.config.skill
    ? [{ skill: node.config.skill, args: node.config.args ?? {} }]
    : ((asRecord(state.plan)?.actions ?? []) as Action[]);
  const actions = planned.slice(0, node.config.maxIter);
  const capped = planned.length > actions.length ? ` (${planned.length - actions.length} over maxIter ${node.config.maxIter} not run)` : '';
  const runs: ActionRun[] = [];
  const attempts: Attempt[] = [];
  let fatal: ActionRun | undefined;
  for (const [index, action] of actions.entries()) {
    const run = await context.runAction(action, node.config.retry, index);
    runs.push(run);
    attempts.push(...run.attempts);
    if (run.budgetStop) break;
    if (isFailure(run.outcome)) {
      fatal = run;
      break;
    }
  }
  const budgetStop = runs.at(-1)?.budgetStop ?? null;
  const writes = {
    results: runs.map(resultOf),
    execution_error: fatal ? { outcome: fatal.outcome, skill: fatal.skill, message: fatal.error ?? fatal.outcome } : null,
  };
  const records = runs.reduce((sum, run) => sum + run.records.length, 0);
  const skipped = fatal && runs.length < actions.length ? `; ${actions.length - runs.length} later action(s) not run` : '';
  if (budgetStop) return { outcome: null, writes, attempts, note: budgetStop.explain, budgetStop };
  if (actions.length === 0) return { outcome: 'empty', writes, attempts, note: 'the plan has no actions' };
  if (fatal?.denied) return { outcome: 'denied', writes, attempts, note: `${fatal.skill} was denied: ${fatal.error}${skipped}` };
  if (fatal) return { outcome: 'error', writes, attempts, note: `${fatal.skill} failed with ${fatal.outcome} after ${fatal.attempts.length} attempt(s)${skipped}` };
  if (records === 0) return { outcome: 'empty', writes, attempts, note: `${runs.length} action(s) ran and returned zero records${capped}` };
  return { outcome: 'ok', writes, attempts, note: `${runs.length} action(s) returned ${records} record(s)${capped}` };
};
