import { MAX_ITER, type Action, type LoopConfig } from '../../graph/index.ts';
import { Plan } from '../../graph/kinds/reason.schema.ts';
import { z } from '../../graph/zod.ts';
import type { Note } from '../trace.ts';
import { erred, failedEnd, loopNote, loopTrace, observedOf, replyAs, runLoop } from './loop.ts';
import { asRecord, type Executor, type NodeContext, type NodeResult } from './types.ts';

const stableJson = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(stableJson).join(',')}]`
    : asRecord(value) ? `{${Object.keys(value as object).sort().map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`).join(',')}}`
      : JSON.stringify(value) ?? 'null';

const planSignature = (actions: readonly Action[]): string =>
  actions.map((action) => `${action.skill}(${stableJson(action.args)})`).join(' → ') || '(no actions)';

/** The llm planner's answer, read as deciders and judges are read: a plan as JSON (in the text), else a parse error, retried locally. */
const asPlan = replyAs(Plan, 'planner', 'plan');

/** Where a plan came from (trace.ts `Note`, `plan`). */
type PlanSource = Extract<Note, { is: 'plan' }>['source'];

const PLAN_HINT = '{"actions": [{"skill": NAME, "args": {...}}]}';

/**
 * With `loop.output: "any"`, a done output is a plan when it says `actions` (and must then be one,
 * else it is retried as any malformed plan is), and the decider's reasoning when it does not.
 */
const PlanOrReasoning = z.union([Plan, z.looseObject({ actions: z.optional(z.never()) })]);
const ANY_HINT = `${PLAN_HINT}, or any other object (your reasoning, e.g. {"hypothesis": text})`;

/** Whether a done output is the plan: with `loop.output: "any"`, one without `actions` is reasoning instead. */
const isPlanOutput = (output: Record<string, unknown>) => Object.hasOwn(output, 'actions');

/**
 * The inner loop: the decider may look with its read tools, then its `done` output is the plan,
 * checked as a plan (a malformed one is the decider's parse_error, retried in place), or, with
 * `loop.output: "any"`, written to `reasoning` when it is not one. The tools' answers are the
 * decider's observations only: Reason writes nothing but `plan` (or `reasoning`).
 */
const planByLoop = async (context: NodeContext<'reason'>, loop: LoopConfig): Promise<{ actions: Action[]; source: PlanSource; trace: Partial<NodeResult> } | { ended: NodeResult }> => {
  const free = loop.output === 'any';
  const run = await runLoop(context, loop, context.node.config.retry, free ? { schema: PlanOrReasoning, hint: ANY_HINT } : { schema: Plan, hint: PLAN_HINT });
  const trace = { attempts: run.attempts, ...loopTrace(run, loop) };
  const { ending } = run;
  if (ending.type === 'budget') return { ended: { ...trace, outcome: null, writes: {}, note: { is: 'stopped', why: ending.guard.why }, budgetStop: ending.guard } };
  if (ending.type === 'failed') return { ended: { ...trace, outcome: ending.run.denied ? 'denied' : 'error', writes: {}, note: loopNote('reason', run, failedEnd(ending)) } };
  if (ending.type === 'error') return { ended: { ...trace, outcome: 'error', writes: {}, note: loopNote('reason', run, { is: 'done_error', decider: loop.decider, message: ending.message }) } };
  if (ending.type === 'max_iter') return { ended: { ...trace, outcome: MAX_ITER, writes: {}, note: loopNote('reason', run, { is: 'max_iter', maxIter: loop.maxIter }) } };
  if (free && !isPlanOutput(ending.output))
    return { ended: { ...trace, outcome: 'ok', writes: { reasoning: ending.output }, note: loopNote('reason', run, { is: 'reasoning', decider: loop.decider }) } };
  const { actions } = Plan.parse(ending.output);
  return { actions, source: { is: 'decider', decider: loop.decider, iterations: run.iterations.length, ...observedOf(run) }, trace };
};

/**
 * The scripted planner walks `plans` by round (a loop back that stays inside one round takes the
 * node's next plan, so that a VERIFY → REASON loop can widen its scope); a recovery since the
 * last plan overrides the script: recovery changes the path.
 */
export const executeReason: Executor<'reason'> = async (context) => {
  const { node, state, lastWritten } = context;
  const previous = asRecord(state.plan);
  const previousActions = (Array.isArray(previous?.actions) ? previous.actions : []) as Action[];
  const recovery = asRecord(state.recovery);
  // A recovery in between counts even when it names only an action (expand_search_scope, a person's confirmation): the next plan is no blind retry.
  const recoveredSincePlan = (lastWritten.recovery ?? -1) > (lastWritten.plan ?? -1) && recovery !== undefined && recovery.action !== 'none';
  const recoverySkill = recoveredSincePlan && typeof recovery?.skill === 'string' ? recovery.skill : undefined;
  let actions: Action[];
  let source: PlanSource;
  const attempts = [];
  let loopSteps: Partial<NodeResult> = {};
  if (recoverySkill) {
    const failed = asRecord(state.execution_error)?.skill;
    const basis = previousActions.find((action) => action.skill === failed) ?? previousActions[0];
    actions = [{ skill: recoverySkill, args: basis?.args ?? {} }];
    source = { is: 'recovery', skill: recoverySkill, action: String(recovery?.action), reason: String(recovery?.reason) };
  } else if (node.config.loop) {
    const planned = await planByLoop(context, node.config.loop);
    if ('ended' in planned) return planned.ended;
    ({ actions, source, trace: loopSteps } = planned);
  } else if (node.config.planner === 'llm') {
    if (!node.config.skill) return { outcome: 'error', writes: {}, attempts: [], note: { is: 'no_plan', why: 'no_skill' } };
    const prompt = `${node.config.prompt ?? 'Plan the next actions.'}\nAnswer with JSON {"actions":[{"skill":"…","args":{}}]}.\nState: ${JSON.stringify(state)}`;
    const run = await context.runAction({ skill: node.config.skill, args: { prompt } }, node.config.retry, 0, asPlan);
    attempts.push(...run.attempts);
    if (run.budgetStop) return { outcome: null, writes: {}, attempts, note: { is: 'stopped', why: run.budgetStop.why }, budgetStop: run.budgetStop };
    if (run.outcome !== 'ok') return { outcome: 'error', writes: {}, attempts, note: { is: 'no_plan', why: 'llm_failed', outcome: run.outcome, ...erred(run) } };
    actions = (run.records[0] as { actions: Action[] }).actions;
    source = { is: 'model', skill: node.config.skill };
  } else {
    const plans = node.config.plans;
    if (plans.length === 0) return { outcome: 'error', writes: {}, attempts: [], note: { is: 'no_plan', why: 'no_plans' } };
    const index = Math.min(Math.max(context.round - 1, context.visits), plans.length - 1);
    actions = plans[index].actions;
    const lastRepeats = index === plans.length - 1 && plans.length <= Math.max(context.round - 1, context.visits);
    source = { is: 'scripted', index: index + 1, of: plans.length, ...(lastRepeats ? { lastRepeats } : {}) };
  }
  const after = recoveredSincePlan && !recoverySkill ? { after: { action: String(recovery?.action), reason: String(recovery?.reason) } } : {};
  const signature = planSignature(actions);
  const repeated = !recoveredSincePlan && previous?.signature === signature;
  const newEvidence = ['failures', 'collected'].some((field) => (lastWritten[field] ?? -1) > (lastWritten.plan ?? -1));
  const blindRetry = repeated && !newEvidence;
  const note: Note = { is: 'plan', source, ...after, signature, ...(repeated ? { repeated: { blind: blindRetry } } : {}) };
  return { attempts, ...loopSteps, outcome: repeated ? 'repeated' : 'ok', writes: { plan: { actions, signature, repeated } }, note, ...(blindRetry ? { blindRetry } : {}) };
};
