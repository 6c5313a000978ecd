import { onBudgetOf } from '../../graph/budget.ts';
import { MAX_ITER } from '../../graph/index.ts';
import { isFailure, type ActionRun } from '../retry.ts';
import type { Attempt } from '../trace.ts';
import { doneErrorNote, loopTrace, maxIterNote, observedNote, runLoop } from './loop.ts';
import type { Executor } from './types.ts';
import { stopWords } from '../stepWords.ts';

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
    return { ...base, outcome: failed ?? (gathered.length ? 'ok' : 'empty'), note: `gathered ${gathered.length} record(s); no further call, the budget is spent (${stopWords(ending.guard)})` };
  }
  if (ending.type === 'budget') return { ...base, outcome: null, note: { is: 'stopped', why: ending.guard.why }, budgetStop: ending.guard };
  if (ending.type === 'failed') return { ...base, outcome: 'error', note: `iteration ${run.iterations.length}: ${ending.by === 'decider' ? 'the decider ' : ''}${ending.run.skill} failed with ${ending.run.outcome}${ending.run.error ? ` (${ending.run.error})` : ''}` };
  if (ending.type === 'error') return { ...base, outcome: 'error', note: doneErrorNote(run, loop, ending.message) };
  if (ending.type === 'max_iter') return { ...base, outcome: MAX_ITER, note: `${maxIterNote(loop)}; ${gathered.length} record(s) gathered` };
  if (gathered.length === 0) return { ...base, outcome: 'empty', note: `done after ${run.iterations.length} iteration(s): nothing gathered${observedNote(run)}` };
  return { ...base, outcome: 'ok', note: `done after ${run.iterations.length} iteration(s): gathered ${gathered.length} record(s)${observedNote(run)}` };
};

/** Runs its skills (at most `maxIter`) and appends their records to `collected`. */
export const executeCollect: Executor<'collect'> = async (context) => {
  if (context.node.config.loop) return executeCollectLoop(context);
  const { node, state } = context;
  const skills = node.config.skills.slice(0, node.config.maxIter);
  const capped = node.config.skills.length > skills.length ? ` (${node.config.skills.length - skills.length} skill(s) over maxIter ${node.config.maxIter} not run)` : '';
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
  const spent = last?.budgetStop && onBudgetOf(context.graph.limits) === 'evaluate' ? '; no further call: the budget is spent' : '';
  if (last?.budgetStop && !spent) return { outcome: null, writes, attempts, note: `${stopWords(last.budgetStop)}${capped}`, budgetStop: last.budgetStop };
  // A skill the budget cut before its first attempt was not called: no failure of its own.
  if (last && last.attempts.length > 0 && isFailure(last.outcome)) return { outcome: 'error', writes, attempts, note: `${last.skill} failed with ${last.outcome}${last.error ? ` (${last.error})` : ''}${spent}${capped}` };
  if (gathered.length === 0) return { outcome: 'empty', writes, attempts, note: `${skills.length} skill(s) gathered nothing${spent}${capped}` };
  // The skills called: all of them, unless the budget cut the list short.
  const called = [...new Set(attempts.map((attempt) => attempt.skill))];
  return { outcome: 'ok', writes, attempts, note: `gathered ${gathered.length} record(s) from ${called.join(', ')}${spent}${capped}` };
};
