import { onBudgetOf } from '../../graph/budget.ts';
import { MAX_ITER, type Action } from '../../graph/index.ts';
import { isFailure, type ActionRun } from '../retry.ts';
import type { Attempt, Note } from '../trace.ts';
import { failedEnd, loopNote, loopTrace, runLoop } from './loop.ts';
import { asRecord, resultOf, type Executor, type NodeResult } from './types.ts';
import { maxIterWords, stopWords } from '../stepWords.ts';

/** The failure `execution_error` holds: the call that ended the visit. */
const executionError = (run: ActionRun, message?: string) => ({ outcome: run.outcome, skill: run.skill, message: message ?? run.error ?? run.outcome });

/** A budget stop between retries still says which action it cut short. */
const budgetError = (run: ActionRun) => ({ outcome: run.attempts.at(-1)?.outcome ?? 'error', skill: run.skill, message: run.budgetStop ? stopWords(run.budgetStop) : 'the budget ran out' });

const recordsOf = (runs: readonly ActionRun[]) => runs.reduce((sum, run) => sum + run.records.length, 0);

/**
 * onBudget "evaluate" (seed 001 §6: `consume()` says no, no further call): the calls that ran are
 * what was gathered, for the Verify next. A call the budget cut before its first attempt is
 * dropped; one cut between its retries ends as the failure its last attempt had.
 */
const gatheredAtBudget = (runs: readonly ActionRun[]): { runs: ActionRun[]; failed?: ActionRun } => {
  const cut = runs.at(-1);
  if (!cut?.budgetStop) return { runs: [...runs] };
  return cut.attempts.length === 0 ? { runs: runs.slice(0, -1) } : { runs: [...runs], failed: cut };
};

/** The inner loop: a decider picks each tool; the tool calls are the visit's `results`. */
const executeActLoop: Executor<'act'> = async (context) => {
  const loop = context.node.config.loop as NonNullable<typeof context.node.config.loop>;
  const run = await runLoop(context, loop, context.node.config.retry);
  const trace = loopTrace(run, loop);
  const results = run.calls.map(resultOf);
  const { ending } = run;
  const base = { attempts: run.attempts, ...trace };
  if (ending.type === 'budget' && onBudgetOf(context.graph.limits) === 'evaluate') {
    const gathered = gatheredAtBudget(run.calls);
    const records = recordsOf(gathered.runs);
    const writes = { results: gathered.runs.map(resultOf), execution_error: gathered.failed ? executionError(gathered.failed) : null };
    const note = loopNote('act', run, { is: 'budget', stop: ending.guard, records, calls: gathered.runs.length });
    return { ...base, outcome: gathered.failed ? 'error' : records > 0 ? 'ok' : 'empty', writes, note };
  }
  if (ending.type === 'budget') {
    const cut = run.calls.at(-1)?.budgetStop ? run.calls.at(-1) : undefined;
    return { ...base, outcome: null, writes: { results, execution_error: cut ? budgetError(cut) : { outcome: 'error', skill: loop.decider, message: stopWords(ending.guard) } }, note: { is: 'stopped', why: ending.guard.why }, budgetStop: ending.guard };
  }
  if (ending.type === 'failed') {
    const outcome = ending.run.denied ? 'denied' : 'error';
    return { ...base, outcome, writes: { results, execution_error: executionError(ending.run) }, note: loopNote('act', run, failedEnd(ending)) };
  }
  if (ending.type === 'error')
    return { ...base, outcome: 'error', writes: { results, execution_error: { outcome: 'error', skill: loop.decider, message: ending.message } }, note: loopNote('act', run, { is: 'done_error', decider: loop.decider, message: ending.message }) };
  if (ending.type === 'max_iter')
    return { ...base, outcome: MAX_ITER, writes: { results, execution_error: { outcome: 'error', skill: loop.decider, message: maxIterWords(loop.maxIter) } }, note: loopNote('act', run, { is: 'max_iter', maxIter: loop.maxIter }) };
  const records = recordsOf(run.calls);
  return {
    ...base, outcome: records > 0 ? 'ok' : 'empty', writes: { results, execution_error: null },
    note: loopNote('act', run, { is: 'done', records, calls: run.calls.length }),
  };
};

/** Runs the plan's actions (or the node's own skill) in order; a fatal action stops the rest. */
export const executeAct: Executor<'act'> = async (context): Promise<NodeResult> => {
  if (context.node.config.loop) return executeActLoop(context);
  const { node, state } = context;
  const planned = node.config.skill
    ? [{ skill: node.config.skill, args: node.config.args ?? {} }]
    : ((asRecord(state.plan)?.actions ?? []) as Action[]);
  const actions = planned.slice(0, node.config.maxIter);
  const over = planned.length > actions.length ? { over: { count: planned.length - actions.length, maxIter: node.config.maxIter } } : {};
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
  const evaluate = runs.at(-1)?.budgetStop && onBudgetOf(context.graph.limits) === 'evaluate' ? gatheredAtBudget(runs) : undefined;
  if (evaluate) {
    runs.splice(0, runs.length, ...evaluate.runs);
    fatal = evaluate.failed;
  }
  const cut = runs.at(-1)?.budgetStop && !evaluate ? runs.at(-1) : undefined;
  const writes = {
    results: runs.map(resultOf),
    execution_error: cut ? budgetError(cut) : fatal ? executionError(fatal) : null,
  };
  const records = recordsOf(runs);
  const skipped = (fatal || evaluate) && runs.length < actions.length ? { notRun: { count: actions.length - runs.length, spent: evaluate !== undefined } } : {};
  const note = (ended: Extract<Note, { is: 'actions' }>['ended'], after = skipped): Note => ({ is: 'actions', ended, ...after, ...over });
  if (cut?.budgetStop) return { outcome: null, writes, attempts, note: note({ is: 'budget', why: cut.budgetStop.why }, {}), budgetStop: cut.budgetStop };
  if (actions.length === 0) return { outcome: 'empty', writes, attempts, note: note({ is: 'no_actions' }, {}) };
  if (fatal?.denied) return { outcome: 'denied', writes, attempts, note: note({ is: 'denied', skill: fatal.skill, ...(fatal.error === undefined ? {} : { error: fatal.error }) }) };
  if (fatal) return { outcome: 'error', writes, attempts, note: note({ is: 'failed', skill: fatal.skill, outcome: fatal.outcome, attempts: fatal.attempts.length }) };
  return { outcome: records === 0 ? 'empty' : 'ok', writes, attempts, note: note({ is: 'returned', actions: runs.length, records }) };
};
