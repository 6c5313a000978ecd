import { onBudgetOf } from '../../graph/budget.ts';
import { MAX_ITER } from '../../graph/index.ts';
import { isFailure, type ActionRun } from '../retry.ts';
import type { Attempt, Note } from '../trace.ts';
import { callEnd, failedEnd, loopNote, loopTrace, runLoop } from './loop.ts';
import type { Executor } from './types.ts';

/** The inner loop: a decider picks each read-only tool; what they return is appended to `collected`. */
const executeCollectLoop: Executor<'collect'> = async (context) => {
  const loop = context.node.config.loop as NonNullable<typeof context.node.config.loop>;
  const before = Array.isArray(context.state.collected) ? context.state.collected : [];
  const run = await runLoop(context, loop, context.node.config.retry);
  const gathered = run.calls.filter((call) => !isFailure(call.outcome)).flatMap((call) => call.records);
  const writes = { collected: [...before, ...gathered] };
  const base = { writes, attempts: run.attempts, ...loopTrace(run, loop) };
  const { ending } = run;
  if (ending.type === 'budget' && onBudgetOf(context.graph.limits) === 'evaluate') {
    // What was gathered goes on to the Verify; a tool the budget cut between its retries ends as its failure.
    const failed = run.calls.at(-1)?.budgetStop && run.calls.at(-1)?.attempts.length ? 'error' : undefined;
    return { ...base, outcome: failed ?? (gathered.length ? 'ok' : 'empty'), note: loopNote('collect', run, { is: 'budget', stop: ending.guard, records: gathered.length }) };
  }
  if (ending.type === 'budget') return { ...base, outcome: null, note: { is: 'stopped', why: ending.guard.why }, budgetStop: ending.guard };
  if (ending.type === 'failed') return { ...base, outcome: 'error', note: loopNote('collect', run, failedEnd(ending)) };
  if (ending.type === 'error') return { ...base, outcome: 'error', note: loopNote('collect', run, { is: 'done_error', decider: loop.decider, message: ending.message }) };
  if (ending.type === 'max_iter') return { ...base, outcome: MAX_ITER, note: loopNote('collect', run, { is: 'max_iter', maxIter: loop.maxIter, records: gathered.length }) };
  return { ...base, outcome: gathered.length === 0 ? 'empty' : 'ok', note: loopNote('collect', run, { is: 'done', records: gathered.length }) };
};

/** Runs its skills (at most `maxIter`) and appends their records to `collected`. */
export const executeCollect: Executor<'collect'> = async (context) => {
  if (context.node.config.loop) return executeCollectLoop(context);
  const { node, state } = context;
  const skills = node.config.skills.slice(0, node.config.maxIter);
  const over = node.config.skills.length > skills.length ? { over: { count: node.config.skills.length - skills.length, maxIter: node.config.maxIter } } : {};
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
  // onBudget "evaluate": no further call, and what was gathered goes on to the Verify.
  const spent = last?.budgetStop && onBudgetOf(context.graph.limits) === 'evaluate' ? { spent: true as const } : {};
  const note = (ended: Extract<Note, { is: 'collected' }>['ended'], after = spent): Note => ({ is: 'collected', ended, ...after, ...over });
  if (last?.budgetStop && !spent.spent) return { outcome: null, writes, attempts, note: note({ is: 'budget', stop: last.budgetStop }, {}), budgetStop: last.budgetStop };
  // A skill the budget cut before its first attempt was not called: no failure of its own.
  if (last && last.attempts.length > 0 && isFailure(last.outcome)) return { outcome: 'error', writes, attempts, note: note({ is: 'failed', ...callEnd(last) }) };
  if (gathered.length === 0) return { outcome: 'empty', writes, attempts, note: note({ is: 'nothing', skills: skills.length }) };
  // The skills called: all of them, unless the budget cut the list short.
  const called = [...new Set(attempts.map((attempt) => attempt.skill))];
  return { outcome: 'ok', writes, attempts, note: note({ is: 'gathered', records: gathered.length, from: called }) };
};
