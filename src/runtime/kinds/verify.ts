import { MAX_ITER, type LoopConfig } from '../../graph/index.ts';
import { RetryPolicy } from '../../graph/commonSchemas.ts';
import { z } from '../../graph/zod.ts';
import { countedVerdict, reasonOfFailure } from '../../graph/kinds/counting.ts';
import { Judgement } from '../../graph/kinds/verify.schema.ts';
import { isFailure, type ActionRun } from '../retry.ts';
import type { Note } from '../trace.ts';
import { erred, failedEnd, givenTo, loopNote, loopTrace, observedOf, replyAs, runLoop, type LoopRun } from './loop.ts';
import { asRecord, type Executor, type NodeContext, type NodeResult } from './types.ts';
import { noteWords } from '../stepWords.ts';

const recordCount = (state: Readonly<Record<string, unknown>>): number => {
  if (Array.isArray(state.results))
    return state.results.reduce((sum: number, result) => {
      const records = asRecord(result)?.records;
      return sum + (Array.isArray(records) ? records.length : 0);
    }, 0);
  return Array.isArray(state.collected) ? state.collected.length : 0;
};

type Verdict = 'sufficient' | 'exhausted' | 'continue';

/** The loop's endings that are no verdict: the plan is exhausted, and the outcome says how the loop ended. */
type LoopFailure = typeof MAX_ITER | 'error' | 'denied';

/** What a Verify's note says, for the kinds a verdict and its loop's ending are (trace.ts `Note`). */
type VerifyNote = Extract<Note, { is: 'verdict' | 'loop' }>;

/** The evaluation written to state, its `reasoning` the words of the step's note (stepWords.ts). */
const evaluated = (outcome: Verdict | LoopFailure, reason: string, note: VerifyNote, records: number, extra: Partial<NodeResult> = {}): NodeResult => ({
  outcome,
  writes: { evaluation: { evidence_sufficient: outcome === 'sufficient', plan_exhausted: outcome !== 'sufficient' && outcome !== 'continue', reason, reasoning: noteWords(note), records } },
  attempts: [],
  note,
  ...extra,
});

const verdict = (from: Extract<Note, { is: 'verdict' }>['from']): VerifyNote => ({ is: 'verdict', from });

/** A judge's (or a verify loop's) judgement as the evaluation. */
const fromJudgement = (judgement: Judgement, by: { judge: string } | { decider: string; iterations: number }, records: number, extra: Partial<NodeResult>): NodeResult => {
  const outcome: Verdict = judgement.sufficient ? 'sufficient' : judgement.exhausted ? 'exhausted' : 'continue';
  const reason = judgement.reason ?? (judgement.sufficient ? 'sufficient' : 'insufficient');
  return evaluated(outcome, reason, verdict({ is: 'judgement', ...by, said: judgement.reasoning ?? reason }), records, extra);
};

/** The SPEC's default retry policy, for a verify node that sets none. */
const retryOf = (config: { retry?: RetryPolicy }): RetryPolicy => config.retry ?? RetryPolicy.parse({});

const JUDGEMENT_HINT = '{"sufficient": bool, "exhausted": bool, "reason": text, "reasoning": text}';

/** A judge asked once (an llm, or a mock whose script carries the replies). */
const executeJudge: Executor<'verify'> = async (context) => {
  const judge = context.node.config.judge as string;
  const given = givenTo(context, judge);
  const prompt = `Judge whether the evidence is sufficient. Answer with JSON only: ${JUDGEMENT_HINT}.\nState (this node's reads): ${JSON.stringify(given.state)}`;
  const run = await context.runAction({ skill: judge, args: { prompt } }, retryOf(context.node.config), 0, replyAs(Judgement, 'judge'));
  const extra = { attempts: run.attempts, given };
  const records = recordCount(context.state);
  if (run.budgetStop) return { outcome: null, writes: {}, attempts: run.attempts, given, note: { is: 'stopped', why: run.budgetStop.why }, budgetStop: run.budgetStop };
  if (run.outcome !== 'ok') {
    const reason = reasonOfFailure(run.outcome);
    return evaluated('exhausted', reason, verdict({ is: 'judge_failed', judge, outcome: run.outcome, ...erred(run), reason }), records, extra);
  }
  return fromJudgement(run.records[0] as Judgement, { judge }, records, extra);
};

/** What a verify loop's `done` output may add when the verdict comes from a tool: the rest of the evaluation. */
const ToolVerdictNote = z.looseObject({
  exhausted: z._default(z.boolean(), false),
  reason: z.optional(z.string()),
  reasoning: z.optional(z.string()),
});
type ToolVerdictNote = z.infer<typeof ToolVerdictNote>;

const TOOL_VERDICT_HINT = '{"exhausted": bool, "reason": text, "reasoning": text} (the verdict is the last tool answer\'s "ok")';

/**
 * The last tool call of the visit that answered: the one whose `ok` is the verdict. A failure the
 * decider observed (`onToolFailure: "observe"`) is an answer too, with no `ok` (seed 003 sets
 * `state.verified = out.get("ok", False)` from the `{"error": …}` it reads), so it verifies nothing.
 */
const lastAnswer = (run: LoopRun) => run.calls.filter((call) => !isFailure(call.outcome) || run.observed.includes(call)).at(-1);

/** What a tool answered as its verdict: the `ok` field of the last record it returned. */
const okOf = (call: ActionRun) => asRecord(call.records.at(-1))?.ok;

/**
 * The verdict of the last tool answer (seed 003's `state.verified = out.get("ok")`): the `ok`
 * field of the last record the last tool call that answered returned. No tool answered: nothing
 * was verified, unless the verdict is kept (`loop.verdict: "state"`): then the channel `verified`
 * still holds what a tool of an earlier visit answered (`kept`, with the step that wrote it).
 */
const toolVerdict = (run: LoopRun, note: ToolVerdictNote, records: number, extra: Partial<NodeResult>, kept?: { verified: unknown; step: number | undefined }): NodeResult => {
  const answered = lastAnswer(run);
  const ok = (answered ? okOf(answered) : kept?.verified) === true;
  const outcome: Verdict = ok ? 'sufficient' : note.exhausted ? 'exhausted' : 'continue';
  const reason = ok ? 'sufficient' : (note.reason ?? 'insufficient');
  // A visit in which no tool answered still has a verdict when it is kept (`loop.verdict: "state"`).
  const from = !answered ? (kept ? { is: 'kept' as const, ...(kept.verified === undefined ? {} : { verified: String(kept.verified) }), ...(kept.step ? { step: kept.step } : {}) } : { is: 'none' as const })
    : isFailure(answered.outcome) ? { is: 'failed' as const, skill: answered.skill, outcome: answered.outcome }
    : { is: 'ok' as const, skill: answered.skill, ok: String(okOf(answered) ?? 'nothing') };
  return evaluated(outcome, reason, verdict({ is: 'tool', answered: from, ...(note.reasoning ? { decider: note.reasoning } : {}) }), records, extra);
};

/** The inner loop: the decider checks with tools, then answers done with a judgement (or the last tool's `ok` is the verdict). */
const executeVerifyLoop: Executor<'verify'> = async (context) => {
  const loop = context.node.config.loop as NonNullable<typeof context.node.config.loop>;
  const keep = loop.verdict === 'state';
  // A kept verdict is the tool's by definition: seed 003's tools alone set `state.verified`.
  const fromTool = context.node.config.verdictFrom === 'tool' || keep;
  const result = await judgeByLoop(context, loop, fromTool, keep);
  if (!keep) return result.step;
  // Every ending keeps what a tool answered before it (seed 003 updates the state at each tool call).
  const answered = lastAnswer(result.run);
  return answered ? { ...result.step, writes: { ...result.step.writes, verified: okOf(answered) === true } } : result.step;
};

/** The verify loop's evaluation, with the loop run it came from. */
const judgeByLoop = async (context: NodeContext<'verify'>, loop: LoopConfig, fromTool: boolean, keep: boolean): Promise<{ step: NodeResult; run: LoopRun }> => {
  const output = fromTool ? { schema: ToolVerdictNote, hint: TOOL_VERDICT_HINT } : { schema: Judgement, hint: JUDGEMENT_HINT };
  const run = await runLoop(context, loop, retryOf(context.node.config), output);
  const records = run.calls.filter((call) => !isFailure(call.outcome)).reduce((sum, call) => sum + call.records.length, 0);
  const extra = { attempts: run.attempts, ...loopTrace(run, loop) };
  // The step's note says the failures the decider observed; the evaluation's reasoning does not.
  const step = (result: NodeResult) => ({ step: run.observed.length > 0 ? { ...result, note: { ...(result.note as VerifyNote | Extract<Note, { is: 'stopped' }>), ...observedOf(run) } } : result, run });
  const ended = (end: Extract<Note, { is: 'loop' }>['ended']) => loopNote('verify', run, end, {}) as VerifyNote;
  const { ending } = run;
  if (ending.type === 'budget') return step({ outcome: null, writes: {}, ...extra, note: { is: 'stopped', why: ending.guard.why }, budgetStop: ending.guard });
  if (ending.type === 'failed') {
    const reason = reasonOfFailure(ending.run.outcome);
    // A refusal ends the loop at once with `denied` (seed 003 returns {"error": "permission denied"}); any other failure exhausts the plan.
    return step(evaluated(ending.run.denied ? 'denied' : 'exhausted', reason, ended({ ...failedEnd(ending), reason }), records, extra));
  }
  if (ending.type === 'error') return step(evaluated('error', 'execution_error', ended({ is: 'done_error', decider: loop.decider, message: ending.message }), records, extra));
  if (ending.type === 'max_iter') return step(evaluated(MAX_ITER, MAX_ITER, ended({ is: 'max_iter', maxIter: loop.maxIter }), records, extra));
  const kept = keep ? { verified: context.state.verified, step: context.lastWritten.verified } : undefined;
  if (fromTool) return step(toolVerdict(run, ToolVerdictNote.parse(ending.output), records, extra, kept));
  return step(fromJudgement(Judgement.parse(ending.output), { decider: loop.decider, iterations: run.iterations.length }, records, extra));
};

/** Judges the evidence of the latest act visit (or what was collected when nothing acted). */
export const executeVerify: Executor<'verify'> = async (context) => {
  if (context.node.config.loop) return executeVerifyLoop(context);
  if (context.node.config.judge) return executeJudge(context);
  const { node, state } = context;
  const failure = asRecord(state.execution_error);
  const records = recordCount(state);
  const { minRecords } = node.config;
  if (failure) {
    const reason = reasonOfFailure(String(failure.outcome));
    return evaluated('exhausted', reason, verdict({ is: 'failed_before', skill: String(failure.skill), outcome: String(failure.outcome), reason }), records);
  }
  const counted = countedVerdict(records, minRecords);
  return evaluated(counted.outcome, counted.reason, verdict({ is: 'counted', verdict: counted.reason, records, minRecords }), records);
};
