/**
 * The action level: one action, tried up to `maxAttempts` times in place. A retry never re-plans,
 * never re-runs other actions and never moves `round` or `steps`; every attempt is recorded with
 * a sentence saying why it was or was not followed by another.
 */
import { SKILL_LIMITS, type Action, type CallOutcome, type Limits, type PermissionMode, type RetryPolicy } from '../graph/index.ts';
import { accessAllowed } from '../graph/validate.ts';
import type { Access } from '../graph/skills.ts';
import { howToGrant, modeFor } from '../skills/grant.ts';
import type { SkillContext, SkillResult, SkillRunner } from '../skills/index.ts';
import { budgetCheck, guardCheckWords } from './guards.ts';
import type { Attempt, Guard } from './trace.ts';

export interface ActionEnv {
  runner: (skill: string) => SkillRunner | undefined;
  /** What the graph file asks for: mock skills simulate it, and real calls must fit it too. */
  mode: PermissionMode;
  /** What the person granted (RunDeps.granted): a real (not simulated) call must fit it as well as the graph's mode. */
  granted: PermissionMode;
  /**
   * Uses up a one-time grant from an approval: 'used' when there was one. `byPerson`: only one a live
   * person decided counts (it is to lift what the person granted, which nothing in the file may);
   * 'not by a person' when there were grants, all from the file's `auto` or `answers`.
   */
  consumeGrant: (skill: string, byPerson: boolean) => 'used' | 'none' | 'not by a person';
  tokensUsed: () => number;
  charge: (tokens: number) => void;
  limits: Limits;
  /** Lets time pass: on the run's simulated clock for simulated skills, really for the others. */
  wait: (ms: number, simulated: boolean) => Promise<void>;
  context: Omit<SkillContext, 'attempt' | 'timeoutMs'>;
  /** Why the node may only read (its kind only reads): a write or exec skill is refused before the call. */
  onlyReads?: string;
  /** Told about each attempt as soon as it is recorded. */
  onAttempt?: (attempt: Attempt) => void;
}

export interface ActionRun {
  skill: string;
  args: Record<string, unknown>;
  outcome: CallOutcome;
  records: unknown[];
  error?: string;
  attempts: Attempt[];
  /** The permission check refused the action. */
  denied: boolean;
  /** The budget ran out before an attempt: the run must stop. */
  budgetStop: Guard | null;
}

/** Turns a raw skill answer into the attempt's outcome, e.g. a planner rejecting text that is not a plan. */
export type Interpret = (result: SkillResult) => SkillResult;

/**
 * The args of a retry, from the action's own and the attempt before it: a decider is told why its
 * answer was refused, so that it can answer better in place. The same action all the same.
 */
export type RetryArgs = (args: Record<string, unknown>, previous: Attempt) => Record<string, unknown>;

const retriable = (policy: RetryPolicy, outcome: CallOutcome) => (policy.retryOn as readonly CallOutcome[]).includes(outcome);

const retrySentence = (outcome: CallOutcome, n: number, policy: RetryPolicy): string => {
  if (outcome === 'ok') return 'ok: nothing to retry';
  if (outcome === 'empty') return 'empty is never retried: an empty result is a signal for recovery, not a failure to repeat';
  if (!retriable(policy, outcome)) return `${outcome} is not in retryOn [${policy.retryOn.join(', ')}]: not retried`;
  if (n >= policy.maxAttempts) return `${outcome} is in retryOn but the attempts are used up (${n} of ${policy.maxAttempts})`;
  return `${outcome} is in retryOn (attempt ${n} of ${policy.maxAttempts}): retrying in place`;
};

const permissionSentence = (mode: PermissionMode, skill: string, access: string) =>
  `permission check: ${mode} does not allow ${access} access (${skill}); a denial is not retried`;

/** Why a real call the graph's mode allows was refused: the person did not grant it, and how they would. */
const grantError = (granted: PermissionMode, access: Access) =>
  `the person granted ${granted}, which does not allow ${access} access for real calls (the graph's permissions.mode only asks; ${howToGrant(modeFor(access))} grants ${access})`;

const grantSentence = (granted: PermissionMode, skill: string, access: Access) =>
  `permission check: the person granted ${granted}, not ${modeFor(access)} (${skill} needs ${access} access); only a person's approval lifts that, not the file's auto or answers; a denial is not retried`;

/** The wait before attempt `n`: doubling from `backoffMs`, capped so that no file can stall a run for days. */
export const backoffBefore = (n: number, backoffMs: number) => Math.min(SKILL_LIMITS.maxBackoffMs, backoffMs * 2 ** (n - 2));

export const runAction = async (action: Action, policy: RetryPolicy, env: ActionEnv, actionIndex: number, interpret: Interpret = (result) => result, retryArgs?: RetryArgs): Promise<ActionRun> => {
  const attempts: Attempt[] = [];
  const run: ActionRun = { skill: action.skill, args: action.args, outcome: 'error', records: [], attempts, denied: false, budgetStop: null };
  const record = (attempt: Attempt) => {
    attempts.push(attempt);
    env.onAttempt?.(attempt);
  };
  const runner = env.runner(action.skill);
  if (!runner) {
    run.error = `unknown skill "${action.skill}"`;
    record({ n: 1, skill: action.skill, outcome: 'error', tokens: 0, error: run.error, action: actionIndex, retry: 'an unknown skill is not retried' });
    return run;
  }
  // An approval grants the call, not its first attempt: once a grant is used, the call's in-place
  // retries run under it (seed 000: a timeout is retried in place, the person approved the action).
  // `byPerson`: whether it was a person's, which alone lifts what the person granted.
  let held: { byPerson: boolean } | null = null;
  for (let n = 1; n <= policy.maxAttempts; n += 1) {
    const budget = budgetCheck(env.tokensUsed(), env.limits);
    if (!budget.passed) {
      const previous = attempts.at(-1);
      const spent = guardCheckWords(budget);
      if (previous) previous.retry = `${previous.retry ?? ''}; stopped before attempt ${n}: ${spent}, the budget is used up`;
      run.budgetStop = { reason: 'budget_exhausted', why: { is: 'budget_spent', used: budget.value, limit: budget.limit, attempt: n, skill: action.skill } };
      return run;
    }
    if (n > 1 && policy.backoffMs) await env.wait(backoffBefore(n, policy.backoffMs), runner.simulated === true);
    const previous = attempts.at(-1);
    const args = retryArgs && previous ? retryArgs(action.args, previous) : action.args;
    const context = { ...env.context, attempt: n, timeoutMs: policy.timeoutMs };
    // A tool's access is what its server says (MCP annotations): asked before the check, so the call itself waits for it.
    const learned = runner.learnAccess ? await runner.learnAccess(context) : runner.access;
    // A call that asks a service for its access shows what it was asked with and what it needed, allowed or not.
    const told = runner.learnAccess ? { args, ...(typeof learned === 'string' ? { access: learned } : {}) } : {};
    if (env.onlyReads && typeof learned === 'string' && learned !== 'read') {
      run.outcome = 'permission_denied';
      run.denied = true;
      run.error = `${env.onlyReads}: ${action.skill} needs ${learned} access`;
      record({ n, skill: action.skill, outcome: 'permission_denied', tokens: 0, error: run.error, action: actionIndex, durationMs: 0, retry: 'refused before the call, whatever the permission mode or an approval; a refusal is not retried', ...told });
      return run;
    }
    // A mock reaches nothing: it simulates the graph's mode alone. A real call needs the person's grant too.
    const modeAllows = typeof learned !== 'string' || accessAllowed(env.mode, learned);
    const personAllows = typeof learned !== 'string' || runner.simulated === true || accessAllowed(env.granted, learned);
    const covered = held !== null && (personAllows || held.byPerson);
    const grant = modeAllows && personAllows ? null : covered ? 'used' : env.consumeGrant(action.skill, !personAllows);
    if (grant === 'used' && !covered) held = { byPerson: !personAllows };
    if (typeof learned === 'string' && grant !== null && grant !== 'used') {
      // The person's grant refused it when the graph's mode allowed it, or when the file's own approval would have.
      const ceiling = modeAllows || grant === 'not by a person';
      run.outcome = 'permission_denied';
      run.denied = true;
      run.error = ceiling ? grantError(env.granted, learned) : `${env.mode} mode does not allow ${learned} access`;
      const retry = ceiling ? grantSentence(env.granted, action.skill, learned) : permissionSentence(env.mode, action.skill, learned);
      record({ n, skill: action.skill, outcome: 'permission_denied', tokens: 0, error: run.error, action: actionIndex, durationMs: 0, retry, ...told });
      return run;
    }
    const raw = typeof learned === 'string' ? await runner.call(args, context) : learned;
    const result = interpret(raw);
    env.charge(result.tokens);
    if (runner.simulated) await env.wait(result.durationMs ?? 0, true);
    const attempt: Attempt = {
      n, skill: action.skill, outcome: result.outcome, tokens: result.tokens, records: result.records.length,
      durationMs: result.durationMs ?? 0, action: actionIndex, retry: retrySentence(result.outcome, n, policy),
      ...(result.error ? { error: result.error } : {}),
      ...told,
      // What the skill itself answered, before a planner read it: enough to replay the call as a mock.
      returned: raw.records,
      ...(raw.text === undefined ? {} : { text: raw.text }),
    };
    record(attempt);
    run.outcome = result.outcome;
    run.records = result.records;
    run.error = result.error;
    const retried = retriable(policy, result.outcome) && n < policy.maxAttempts;
    if (!retried) break;
  }
  if (run.error === undefined) delete run.error;
  return run;
};

export const isFailure = (outcome: CallOutcome) => outcome !== 'ok' && outcome !== 'empty';
