/**
 * The inner agent loop of reason, collect, act and verify (seed 003, where every node runs the same
 * `_execute_node`): up to `maxIter` iterations of think → act → observe. Each iteration asks the
 * decider (with the node's declared reads only, and what its tools returned so far) and gets a tool
 * call or `done`. A reply that does not parse is a `parse_error`, retried in place by the node's
 * retry policy; a tool outside `tools` is an `error` attempt; every tool call goes through
 * runAction, so the permission check runs before each attempt and each call has the node's local
 * retry, and a refusal ends the loop at once. A tool call that still fails ends it too, unless the
 * loop observes failures: then the failure is the tool's answer the decider reads. A `done` output
 * carrying `error` ends it as an error (the article's `_route`). The kind decides what each ending means.
 */
import type * as z from 'zod/mini';
import { DeciderReply } from '../../graph/kinds/loop.schema.ts';
import { kindDefinition, own, type LoopConfig, type NodeKind, type RetryPolicy } from '../../graph/index.ts';
import { parseWith } from '../../graph/parse.ts';
import { argsProblems, type SkillResult, type ToolDescription } from '../../skills/index.ts';
import { isFailure, type ActionRun } from '../retry.ts';
import { noteWords } from '../stepWords.ts';
import type { Attempt, Given, Guard, Iteration, Note } from '../trace.ts';
import type { NodeContext } from './types.ts';

/** How the loop ended. */
export type LoopEnding =
  | { type: 'done'; output: Record<string, unknown> }
  /** `done` with an output carrying `error`: the node ends with the outcome `error`. */
  | { type: 'error'; message: string; output: Record<string, unknown> }
  /** The decider or a tool call failed (after its retries), or the decider asked for a tool it does not have. */
  | { type: 'failed'; by: 'decider' | 'tool'; run: ActionRun }
  | { type: 'budget'; guard: Guard }
  | { type: 'max_iter' };

export interface LoopRun {
  ending: LoopEnding;
  iterations: Iteration[];
  /** Every attempt, decider's and tools', in order: the step's flat list. */
  attempts: Attempt[];
  /** The tool calls that ran, in order. */
  calls: ActionRun[];
  /** The failed tool calls the decider read as answers and went on (`onToolFailure: "observe"`). */
  observed: ActionRun[];
  given: Given;
}

/** Python's truthiness, as the article's `if result.get("error")` reads it: None, False, 0, "", [] and {} are no error. */
const pythonFalsy = (value: unknown) =>
  value === undefined || value === null || value === false || value === 0 || value === ''
  || (Array.isArray(value) && value.length === 0)
  || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/** The error a `done` output carries, if any: a result with a truthy `error` takes the error edge (seed 003's `_route`). */
export const outputError = (output: Record<string, unknown>): string | undefined => {
  const { error } = output;
  if (pythonFalsy(error)) return undefined;
  return typeof error === 'string' ? error : JSON.stringify(error);
};

/** The JSON in a model's text: a fenced block or the outermost braces. */
const jsonText = (text: string): string => {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : text;
};

/**
 * A planner's, decider's or judge's answer as a value of `schema`: the JSON in the text an llm
 * wrote (a mock's scripted `reply` arrives as that text too, with no records, so `empty` is read as
 * well as `ok`). Anything else is a `parse_error`, which the retry policy may retry in place.
 */
export const replyAs = <T>(schema: z.ZodMiniType<T>, what: string, shape = `${what} reply`) => (result: SkillResult): SkillResult => {
  if (result.outcome !== 'ok' && result.outcome !== 'empty') return result;
  let value: unknown;
  try {
    value = JSON.parse(jsonText(result.text ?? ''));
  } catch {
    return { ...result, outcome: 'parse_error', records: [], error: `the ${what} did not answer with JSON` };
  }
  const parsed = parseWith(schema, value);
  if (!parsed.ok) return { ...result, outcome: 'parse_error', records: [], error: `not a ${shape}: ${parsed.problems.map((problem) => `${problem.path || 'reply'}: ${problem.message}`).join('; ')}` };
  return { ...result, outcome: 'ok', records: [parsed.value] };
};

/** The node's declared reads, with their values: all a decider or judge is shown of the state. */
export const givenTo = <K extends NodeKind>(context: NodeContext<K>, skill: string): Given => {
  const reads = kindDefinition(context.node.kind).reads;
  const state: Record<string, unknown> = {};
  for (const field of reads) {
    const value = own(context.state, field);
    if (value !== undefined) state[field] = value;
  }
  return { skill, reads: [...reads], state };
};

/** The prompt an llm decider reads; a mock decider ignores it. */
const deciderPrompt = <K extends NodeKind>(context: NodeContext<K>, tools: readonly ToolDescription[], given: Given, observations: unknown[], outputHint: string) =>
  [
    `You run the inner loop of the ${context.node.kind} node "${context.node.id}". Each turn, call one tool or finish.`,
    `Tools (name, description, input schema): ${tools.length > 0 ? JSON.stringify(tools) : '(none)'}.`,
    `Answer with JSON only: {"tool": NAME, "args": {...}} or {"done": true, "output": ${outputHint}}.`,
    `State (this node's reads): ${JSON.stringify(given.state)}`,
    `Observations so far: ${JSON.stringify(observations)}`,
  ].join('\n');

/** The longest a refused answer is quoted back to its decider. */
const QUOTED_CHARS = 2_000;

/**
 * A decider's retry after a reply that was refused (not JSON, not a reply, args that do not fit the
 * tool's input schema): the same prompt, with why, so that it can correct itself in place.
 */
const toldWhy = (args: Record<string, unknown>, previous: Attempt): Record<string, unknown> => {
  if (previous.outcome !== 'parse_error' || !previous.error) return args;
  const answered = previous.text === undefined ? '' : ` You answered: ${previous.text.slice(0, QUOTED_CHARS)}${previous.text.length > QUOTED_CHARS ? '…' : ''}`;
  return { ...args, prompt: `${String(args.prompt)}\nYour previous answer was refused (${previous.error}).${answered}\nAnswer again, with JSON only.` };
};

const tagged = (attempts: Attempt[], n: number) => attempts.map((attempt) => Object.assign(attempt, { iteration: n }));

/**
 * Runs the loop. `output` checks a `done` reply's output (reason needs a plan, verify a judgement):
 * an output that does not fit is the decider's parse error like any other, retried in place; one
 * carrying `error` is not checked, it ends the loop as an error.
 */
export const runLoop = async <K extends NodeKind>(
  context: NodeContext<K>, loop: LoopConfig, retry: RetryPolicy, output?: { schema: z.ZodMiniType; hint: string },
): Promise<LoopRun> => {
  const given = givenTo(context, loop.decider);
  const iterations: Iteration[] = [];
  const attempts: Attempt[] = [];
  const calls: ActionRun[] = [];
  const observed: ActionRun[] = [];
  const observations: unknown[] = [];
  let index = 0;
  const finish = (ending: LoopEnding): LoopRun => ({ ending, iterations, attempts, calls, observed, given });
  // Told to the decider in its prompt, and as native tools to an llm that calls them (`toolCalls`).
  const tools: ToolDescription[] = await Promise.all(loop.tools.map((tool) => context.describeTool?.(tool) ?? { name: tool }));
  const inputSchemas = new Map(tools.flatMap((tool) => (tool.inputSchema ? [[tool.name, tool.inputSchema] as const] : [])));
  // Args that do not fit the tool's input schema (an MCP tool's) are the decider's parse error, retried in place: the decider may answer better.
  const replySchema = DeciderReply.check((check) => {
    if (!('done' in check.value)) {
      const schema = inputSchemas.get(check.value.tool);
      for (const problem of schema ? argsProblems(schema, check.value.args) : [])
        check.issues.push({ code: 'custom', input: check.value.args, path: [], message: `the args do not fit ${check.value.tool}'s input schema (${problem})` });
    } else if (output && outputError(check.value.output) === undefined && !output.schema.safeParse(check.value.output).success)
      check.issues.push({ code: 'custom', input: check.value.output, path: ['output'], message: `the output must be ${output.hint}` });
  });
  for (let n = 1; n <= loop.maxIter; n += 1) {
    const prompt = deciderPrompt(context, tools, given, observations, output?.hint ?? '{...}');
    const decided = await context.runAction({ skill: loop.decider, args: { prompt, tools } }, retry, index++, replyAs(replySchema, 'decider'), toldWhy);
    const iteration: Iteration = { n, outcome: decided.outcome, attempts: tagged(decided.attempts, n) };
    iterations.push(iteration);
    attempts.push(...iteration.attempts);
    if (decided.budgetStop) return finish({ type: 'budget', guard: decided.budgetStop });
    if (decided.outcome !== 'ok') {
      iteration.note = { is: 'decider_failed', skill: loop.decider, outcome: decided.outcome, ...erred(decided) };
      return finish({ type: 'failed', by: 'decider', run: decided });
    }
    const reply = decided.records[0] as DeciderReply;
    iteration.reply = reply;
    if ('done' in reply) {
      iteration.outcome = 'done';
      const error = outputError(reply.output);
      if (error !== undefined) {
        iteration.note = { is: 'answered_done', iterations: n, error };
        return finish({ type: 'error', message: error, output: reply.output });
      }
      iteration.note = { is: 'answered_done', iterations: n };
      return finish({ type: 'done', output: reply.output });
    }
    iteration.tool = reply.tool;
    iteration.args = reply.args;
    if (!loop.tools.includes(reply.tool)) {
      iteration.note = { is: 'not_a_tool', tool: reply.tool, tools: loop.tools };
      // The refused attempt's error says it in the note's words.
      const error = noteWords(iteration.note);
      const refused: Attempt = { n: 1, skill: reply.tool, outcome: 'error', tokens: 0, error, action: index++, iteration: n, retry: 'a tool outside the loop\'s tools is never called' };
      const run: ActionRun = { skill: reply.tool, args: reply.args, outcome: 'error', records: [], error, attempts: [refused], denied: false, budgetStop: null };
      iteration.attempts.push(refused);
      attempts.push(refused);
      context.tell?.(refused);
      iteration.outcome = 'error';
      calls.push(run);
      return finish({ type: 'failed', by: 'tool', run });
    }
    const called = await context.runAction({ skill: reply.tool, args: reply.args }, retry, index++);
    calls.push(called);
    iteration.attempts.push(...tagged(called.attempts, n));
    attempts.push(...called.attempts);
    iteration.outcome = called.outcome;
    if (called.budgetStop) return finish({ type: 'budget', guard: called.budgetStop });
    if (isFailure(called.outcome)) {
      // A refusal always ends the loop (seed 003 returns at once), the check's or a tool's own; any other failure may be the decider's to read.
      if (!called.denied && called.outcome !== 'permission_denied' && loop.onToolFailure === 'observe') {
        iteration.note = { is: 'tool_failed', ...callEnd(called), attempts: called.attempts.length, loop: 'observed' };
        observed.push(called);
        observations.push({ n, tool: reply.tool, args: reply.args, outcome: called.outcome, error: called.error ?? called.outcome });
        continue;
      }
      iteration.note = { is: 'tool_failed', ...callEnd(called), attempts: called.attempts.length, loop: called.denied ? 'denied' : 'ended' };
      return finish({ type: 'failed', by: 'tool', run: called });
    }
    iteration.note = { is: 'tool_returned', tool: reply.tool, records: called.records.length };
    observations.push({ n, tool: reply.tool, args: reply.args, outcome: called.outcome, records: called.records });
  }
  return finish({ type: 'max_iter' });
};

/** A call's error, when it has one: a note's field (trace.ts `Note`). */
export const erred = (run: { error?: string }) => (run.error === undefined ? {} : { error: run.error });

/** The call a note names as ended or failed: its skill, outcome and error. */
export const callEnd = (run: ActionRun) => ({ skill: run.skill, outcome: run.outcome, ...erred(run) });

/** The failed calls a loop observed and went on, for its step's note; none when there were none. */
export const observedOf = (run: LoopRun) => (run.observed.length === 0 ? {} : { observed: run.observed.map((call) => ({ skill: call.skill, outcome: call.outcome })) });

/** A step's note of how the loop ended (trace.ts `Note`, `loop`), for the kind `node`. */
export const loopNote = (node: Extract<Note, { is: 'loop' }>['node'], run: LoopRun, ended: Extract<Note, { is: 'loop' }>['ended'], observed = observedOf(run)): Note =>
  ({ is: 'loop', node, iterations: run.iterations.length, ended, ...observed });

/** The loop's failed call, as its step's note has it: who called it, and a refusal. */
export const failedEnd = (ending: Extract<LoopEnding, { type: 'failed' }>) => ({ is: 'failed' as const, by: ending.by, ...callEnd(ending.run), ...(ending.run.denied ? { denied: true as const } : {}) });

/** The trace fields every loop step carries. */
export const loopTrace = (run: LoopRun, loop: LoopConfig) => ({ iterations: run.iterations, maxIter: loop.maxIter, given: run.given });
