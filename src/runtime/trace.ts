/**
 * The trace of one run (SPEC §2). Plain data, serialisable, never rendered here. The field names
 * of SPEC §2 are fixed; extra fields are optional additions. Defined once as zod schemas, since an
 * imported trace is untrusted input, with the types inferred from them.
 */
import { z } from '../graph/zod.ts';
import { CallOutcome } from '../graph/commonSchemas.ts';
import { NODE_KINDS, TRACE_LIMITS, type ParseResult } from '../graph/index.ts';
import { parseUntrusted } from '../graph/parse.ts';
import type { Reason as ReasonData } from '../graph/reason.ts';
import { Access } from '../graph/skills.ts';
import { OPS } from '../graph/when.ts';

export const TRACE_FORMAT = 'loopscope/trace';
export const TRACE_VERSION = 1;

/** `completed`, `max_rounds`, `max_steps`, `budget_exhausted`, `no_route`, `denied`, `user_stopped`, `error`, or a stop node's reason. */
export const StopReason = z.string();
export type StopReason = z.infer<typeof StopReason>;

const State = z.record(z.string(), z.unknown());
const Count = z.int().check(z.gte(0));

/** One try of one skill call inside a node: the action level. */
export const Attempt = z.strictObject({
  n: z.int().check(z.gte(1)),
  skill: z.string(),
  outcome: CallOutcome,
  tokens: z.number().check(z.gte(0)),
  error: z.optional(z.string()),
  records: z.optional(Count),
  durationMs: z.optional(z.number().check(z.gte(0))),
  /** Why this attempt was (not) followed by another: `timeout is in retryOn (attempt 1 of 3)`. */
  retry: z.optional(z.string()),
  /** Index of the action in the plan this attempt belongs to (in an inner loop: the call of the step). */
  action: z.optional(Count),
  /** The inner-loop iteration this attempt belongs to. */
  iteration: z.optional(z.int().check(z.gte(1))),
  /**
   * The records the skill call returned, as it returned them (absent when no call was made: a
   * permission refusal, an unknown skill). With `text`, what "Save as scenario" turns into a mock script.
   */
  returned: z.optional(z.array(z.unknown())),
  /** The raw text an llm answered. */
  text: z.optional(z.string()),
  /** The arguments of a call to a tool whose service tells its access (an MCP tool): what was sent, or would have been. */
  args: z.optional(State),
  /** The access that tool needed, from its annotations and the skill's own stricter `access`. */
  access: z.optional(Access),
});
export type Attempt = z.infer<typeof Attempt>;

/**
 * One iteration of a node's inner loop (think → act → observe): the decider's reply, the tool call
 * it asked for, and the attempts of both. `outcome` is `done`, the tool call's outcome, or the
 * decider's failure.
 */
export const Iteration = z.strictObject({
  n: z.int().check(z.gte(1)),
  /** The decider's parsed reply; absent when it gave none that parses. */
  reply: z.optional(z.unknown()),
  tool: z.optional(z.string()),
  args: z.optional(State),
  outcome: z.string(),
  attempts: z.array(Attempt),
  /** What came of the iteration (Note, defined below), or in a sentence, as a trace made before notes were data holds it. */
  note: z.optional(z.lazy(() => StepNote)),
});
export type Iteration = z.infer<typeof Iteration>;

/** What a decider or judge was given: only the node's declared reads (context isolation). */
export const Given = z.strictObject({ skill: z.string(), reads: z.array(z.string()), state: State });
export type Given = z.infer<typeof Given>;

const Judged = { matched: z.optional(z.boolean()) };

/** Why an edge was (not) taken, as data (src/graph/reason.ts, where each form is told); src/graph/reasonWords.ts words it. */
export const Reason: z.ZodMiniType<ReasonData> = z.lazy(() =>
  z.discriminatedUnion('is', [
    z.strictObject({ is: z.literal('always'), ...Judged }),
    z.strictObject({ is: z.literal('otherwise'), ...Judged }),
    z.strictObject({ is: z.literal('outcome'), expected: z.string(), actual: z.optional(z.nullable(z.string())), ...Judged }),
    z.strictObject({ is: z.literal('field'), path: z.string(), operator: z.enum(OPS), expected: z.optional(z.unknown()), actual: z.optional(z.unknown()), ...Judged }),
    z.strictObject({ is: z.literal('all'), parts: z.array(Reason), ...Judged }),
    z.strictObject({ is: z.literal('any'), parts: z.array(Reason), ...Judged }),
    z.strictObject({ is: z.literal('not'), part: Reason, ...Judged }),
    z.strictObject({ is: z.literal('too_deep'), limit: Count, ...Judged }),
    z.strictObject({ is: z.literal('not_tried'), fired: z.string(), ...Judged }),
    z.strictObject({
      is: z.literal('route'), conditional: z.boolean(), drawn: z.optional(z.boolean()), label: z.optional(z.string()),
      chose: z.optional(z.array(z.string())), of: z.optional(z.array(z.string())), ...Judged,
    }),
    z.strictObject({
      is: z.literal('router'), node: z.string(), returned: z.unknown(),
      router: z.optional(z.strictObject({ name: z.nullable(z.string()), file: z.string(), lines: z.array(z.int()) })),
      missing: z.optional(z.string()), ...Judged,
    }),
    z.strictObject({ is: z.literal('command'), node: z.string(), goto: z.unknown(), update: z.unknown(), ...Judged }),
    z.strictObject({ is: z.literal('said'), words: z.string(), ...Judged }),
  ]),
);

const EdgeCheckFields = {
  id: z.string(),
  target: z.optional(z.string()),
  matched: z.boolean(),
  /** True when the edge was not tried because an earlier one fired. */
  skipped: z.optional(z.boolean()),
};

/**
 * One edge condition tried after a node ran: the task level. `why` holds what it compared, with the
 * values read; a trace made before reasons were data holds them in words (`explain`:
 * `evaluation.plan_exhausted eq true (was true)`), read as they were said (reasonWords.ts `storedReason`).
 */
export const EdgeCheck = z.union([
  z.strictObject({ ...EdgeCheckFields, why: Reason }),
  z.strictObject({ ...EdgeCheckFields, explain: z.string() }),
]);
export type EdgeCheck = z.infer<typeof EdgeCheck>;

/** The edge that fired, and why (in words, `reason`, in a trace made before reasons were data). */
export const Fired = z.union([
  z.strictObject({ id: z.string(), target: z.string(), why: Reason }),
  z.strictObject({ id: z.string(), target: z.string(), reason: z.string() }),
]);
export type Fired = z.infer<typeof Fired>;

const GuardName = z.enum(['max_rounds', 'max_steps', 'budget_exhausted']);

/**
 * A system-level check before a node: round, steps, budget, as data (guards.ts words it). A trace
 * made before checks were data holds their words too (`explain`), read as they were.
 */
export const GuardCheck = z.strictObject({
  name: GuardName,
  value: z.number(),
  limit: z.nullable(z.number()),
  passed: z.boolean(),
  /** A spent budget passed: under `limits.onBudget: "evaluate"` the node judges what was gathered without a call. */
  judges: z.optional(z.literal(true)),
  explain: z.optional(z.string()),
});
export type GuardCheck = z.infer<typeof GuardCheck>;

/** The guard that stopped the run before a node, as data: its check's numbers (guards.ts words it). */
export const GuardHit = z.strictObject({ reason: GuardName, value: z.number(), limit: z.nullable(z.number()) });
export type GuardHit = z.infer<typeof GuardHit>;

/**
 * A spent budget under `limits.onBudget: "evaluate"` (seed 001 §6), as data (guards.ts words it):
 * `spent` on the step that spent it, `node` being the next; `evaluated` on the Verify that judged
 * what was gathered, after which the run stops; `stopped` on the step the run stopped before.
 */
export const BudgetNote = z.strictObject({
  at: z.enum(['spent', 'evaluated', 'stopped']),
  used: z.number().check(z.gte(0)),
  limit: z.number().check(z.gte(0)),
  node: z.string(),
  /** `node` judges the evidence without a call, so it still runs. */
  evaluates: z.boolean(),
  /** The skill `node`'s judging would call (a judge, a loop's decider), which the spent budget does not. */
  calls: z.optional(z.string()),
});
export type BudgetNote = z.infer<typeof BudgetNote>;

/**
 * Why a run stopped, as data (src/runtime/stepWords.ts words it): a guard's numbers (with the step's
 * spent budget under onBudget "evaluate"), a node's stop, an error, a person's stop.
 */
const STOP_CAUSES = [
  z.strictObject({ is: z.literal('guard'), hit: GuardHit, budget: z.optional(BudgetNote) }),
  /** A budget spent inside a node: before a retry's attempt of a skill, or when a Verify judged what was gathered. */
  z.strictObject({ is: z.literal('budget_spent'), used: z.number(), limit: z.nullable(z.number()), attempt: z.int(), skill: z.string() }),
  z.strictObject({ is: z.literal('budget_evaluated'), budget: BudgetNote }),
  z.strictObject({ is: z.literal('no_route'), node: z.string(), outcome: z.nullable(z.string()) }),
  z.strictObject({ is: z.literal('no_node'), target: z.string() }),
  z.strictObject({ is: z.literal('node_failed'), node: z.string(), message: z.string() }),
  z.strictObject({ is: z.literal('executor_failed'), message: z.string() }),
  /** The run could not start: a state field it cannot keep (`rename`), or no entry. */
  z.strictObject({ is: z.literal('cannot_start'), problem: z.string(), rename: z.optional(z.literal(true)) }),
  z.strictObject({ is: z.literal('stop_node'), node: z.string(), reason: z.string() }),
  z.strictObject({ is: z.literal('responded'), node: z.string() }),
  z.strictObject({ is: z.literal('user') }),
  /** A LangGraph server's thread: `__end__` reached, or a task that threw. */
  z.strictObject({ is: z.literal('end_reached') }),
  z.strictObject({ is: z.literal('server_error'), node: z.string(), error: z.string() }),
  /** A run stored by the page before stops were data (its journal) keeps its stop in words. */
  z.strictObject({ is: z.literal('said'), words: z.string() }),
] as const;
const StopCause = z.discriminatedUnion('is', [...STOP_CAUSES]);
/** A stop, or (`final_response`) the one the graph's `finally` node closed, which is never a final response itself. */
export const StopWhy = z.discriminatedUnion('is', [...STOP_CAUSES, z.strictObject({ is: z.literal('final_response'), after: StopCause, node: z.string() })]);
export type StopWhy = z.infer<typeof StopWhy>;

/** A stop as data: a node's, an error's, a budget spent inside a node. */
export const Guard = z.strictObject({ reason: StopReason, why: StopWhy });
export type Guard = z.infer<typeof Guard>;
/** A stop in words, as a trace made before stops were data holds it (stepWords.ts shows them as they were). */
const SaidStop = z.strictObject({ reason: StopReason, explain: z.string() });
/** A step's stop: a guard's numbers, any other as data, or words in a trace made before stops were data. */
export const StepStop = z.union([GuardHit, Guard, SaidStop]);
export type StepStop = z.infer<typeof StepStop>;

/**
 * What a step concluded, as data (stepWords.ts words it). A trace made before notes were data holds
 * a sentence instead, shown as it was said.
 */
/** A call a node made that ended badly: its skill, outcome and error, as `ActionRun` (retry.ts) has them. */
const CallEnd = { skill: z.string(), outcome: z.string(), error: z.optional(z.string()) };
/** The failed tool calls an inner loop's decider read as answers and went on (`onToolFailure: "observe"`). */
const Observed = z.optional(z.array(z.strictObject({ skill: z.string(), outcome: z.string() })));
/** Where a Reason's plan came from: a recovery's skill, its loop's decider, its llm skill (`model`), or its script (`index` from 1). */
const PlanSource = z.discriminatedUnion('is', [
  z.strictObject({ is: z.literal('recovery'), skill: z.string(), action: z.string(), reason: z.string() }),
  z.strictObject({ is: z.literal('decider'), decider: z.string(), iterations: Count, observed: Observed }),
  z.strictObject({ is: z.literal('model'), skill: z.string() }),
  z.strictObject({ is: z.literal('scripted'), index: Count, of: Count, lastRepeats: z.optional(z.literal(true)) }),
]);
/** What a Verify's verdict was read from, with the evidence's `reason` where the verdict has one. */
const VerdictFrom = z.discriminatedUnion('is', [
  /** A judge, or the loop's decider after `iterations`, judged; `said` is its reasoning (its reason when it gave none). */
  z.strictObject({ is: z.literal('judgement'), judge: z.optional(z.string()), decider: z.optional(z.string()), iterations: z.optional(Count), said: z.string() }),
  z.strictObject({ is: z.literal('judge_failed'), judge: z.string(), outcome: z.string(), error: z.optional(z.string()), reason: z.string() }),
  /**
   * The last tool answer's `ok` (`tool`: it answered `ok`, or failed with `outcome`), none (`kept`:
   * the verdict kept in state, `verified` as it reads, written at `step`; no `verified`: none was
   * ever answered); `decider`, the decider's own reasoning.
   */
  z.strictObject({
    is: z.literal('tool'),
    answered: z.discriminatedUnion('is', [
      z.strictObject({ is: z.literal('ok'), skill: z.string(), ok: z.string() }),
      z.strictObject({ is: z.literal('failed'), skill: z.string(), outcome: z.string() }),
      z.strictObject({ is: z.literal('none') }),
      z.strictObject({ is: z.literal('kept'), verified: z.optional(z.string()), step: z.optional(Count) }),
    ]),
    decider: z.optional(z.string()),
  }),
  /** The act before failed (`execution_error`), as the state says it. */
  z.strictObject({ is: z.literal('failed_before'), skill: z.string(), outcome: z.string(), reason: z.string() }),
  /** Records counted against `minRecords`. */
  z.strictObject({ is: z.literal('counted'), verdict: z.enum(['sufficient', 'empty_result', 'coverage_low']), records: Count, minRecords: Count }),
]);

export const Note = z.discriminatedUnion('is', [
  z.strictObject({ is: z.literal('final_response'), after: StopReason }),
  z.strictObject({ is: z.literal('guard_stopped'), before: z.string() }),
  z.strictObject({ is: z.literal('threw'), message: z.string() }),
  /** The node's own stop, said as the run's (a budget spent inside it; `observed`: a Verify loop's, after failures its decider read). */
  z.strictObject({ is: z.literal('stopped'), why: StopWhy, observed: Observed }),
  z.strictObject({ is: z.literal('forced_stop'), reason: z.string() }),
  z.strictObject({ is: z.literal('responded') }),
  /**
   * A Recover's choice for the evaluation's `reason`: a rule's action (and skill), a person, or no
   * rule; `skipped`, the rules the budget left could not pay.
   */
  z.strictObject({
    is: z.literal('recovery'), reason: z.string(), chose: z.nullable(z.union([z.strictObject({ action: z.string(), skill: z.optional(z.string()) }), z.literal('person')])),
    skipped: z.array(z.strictObject({ reason: z.string(), action: z.string(), estTokens: z.number(), left: z.number() })),
  }),
  /**
   * An Act's plan (or its own skill) run in order: how it ended (the budget spent, no action, an
   * action denied or failed, or the records returned), the later actions `notRun` (`spent`: the budget
   * was) and those `over` its maxIter.
   */
  z.strictObject({
    is: z.literal('actions'),
    ended: z.discriminatedUnion('is', [
      z.strictObject({ is: z.literal('budget'), why: StopWhy }),
      z.strictObject({ is: z.literal('no_actions') }),
      z.strictObject({ is: z.literal('denied'), skill: z.string(), error: z.optional(z.string()) }),
      z.strictObject({ is: z.literal('failed'), skill: z.string(), outcome: z.string(), attempts: Count }),
      z.strictObject({ is: z.literal('returned'), actions: Count, records: Count }),
    ]),
    notRun: z.optional(z.strictObject({ count: Count, spent: z.boolean() })),
    over: z.optional(z.strictObject({ count: Count, maxIter: Count })),
  }),
  /** An Approve's decision, who made it, the skill it grants (or keeps refused) and a loop's decider it cannot grant. */
  z.strictObject({ is: z.literal('approval'), decision: z.enum(['approved', 'denied']), by: z.string(), skill: z.optional(z.string()), decider: z.optional(z.string()) }),
  /** A step of a LangGraph server's graph: where it went and why (`ended`: nothing was left to run). */
  z.strictObject({ is: z.literal('server_route'), node: z.string(), to: z.array(z.string()), why: z.optional(Reason), ended: z.optional(z.enum(['run', 'subgraph'])) }),
  z.strictObject({ is: z.literal('server_edit'), node: z.string(), goto: z.array(z.string()) }),
  z.strictObject({ is: z.literal('server_failed'), node: z.string(), error: z.string() }),
  /** An inner loop's iteration (Iteration.note): the decider failed, answered done, or asked for a tool not its own; the tool returned or failed. */
  z.strictObject({ is: z.literal('decider_failed'), ...CallEnd }),
  z.strictObject({ is: z.literal('answered_done'), iterations: Count, error: z.optional(z.string()) }),
  z.strictObject({ is: z.literal('not_a_tool'), tool: z.string(), tools: z.array(z.string()) }),
  z.strictObject({ is: z.literal('tool_returned'), tool: z.string(), records: Count }),
  /** `loop`: the loop ended there, the decider read the failure and went on (`observed`), or the call was refused. */
  z.strictObject({ is: z.literal('tool_failed'), ...CallEnd, attempts: Count, loop: z.enum(['ended', 'observed', 'denied']) }),
  /**
   * How an Act's, Collect's, Reason's or Verify's inner loop (`node`, its kind) ended after
   * `iterations`: the budget spent under onBudget "evaluate" (the `calls` made, the `records`
   * gathered), a call that failed (`reason`: the plan exhausted, a Verify's), the decider's done
   * with an error, every iteration used, done (a Reason's output written to reasoning: `reasoning`).
   */
  z.strictObject({
    is: z.literal('loop'), node: z.enum(NODE_KINDS), iterations: Count,
    ended: z.discriminatedUnion('is', [
      z.strictObject({ is: z.literal('budget'), stop: Guard, records: Count, calls: z.optional(Count) }),
      z.strictObject({ is: z.literal('failed'), by: z.enum(['decider', 'tool']), ...CallEnd, denied: z.optional(z.literal(true)), reason: z.optional(z.string()) }),
      z.strictObject({ is: z.literal('done_error'), decider: z.string(), message: z.string() }),
      z.strictObject({ is: z.literal('max_iter'), maxIter: Count, records: z.optional(Count) }),
      z.strictObject({ is: z.literal('done'), records: Count, calls: z.optional(Count) }),
      z.strictObject({ is: z.literal('reasoning'), decider: z.string() }),
    ]),
    observed: Observed,
  }),
  /** A Collect's skills run in order (no loop): how it ended, `spent` (onBudget "evaluate" stopped it), `over` its maxIter. */
  z.strictObject({
    is: z.literal('collected'),
    ended: z.discriminatedUnion('is', [
      z.strictObject({ is: z.literal('budget'), stop: Guard }),
      z.strictObject({ is: z.literal('failed'), ...CallEnd }),
      z.strictObject({ is: z.literal('nothing'), skills: Count }),
      z.strictObject({ is: z.literal('gathered'), records: Count, from: z.array(z.string()) }),
    ]),
    spent: z.optional(z.literal(true)),
    over: z.optional(z.strictObject({ count: Count, maxIter: Count })),
  }),
  /**
   * A Reason's plan and where it came from (`after`: a recovery since the last plan), or `repeated`
   * (the same plan as last time; `blind`: with no new evidence either).
   */
  z.strictObject({
    is: z.literal('plan'), source: PlanSource, after: z.optional(z.strictObject({ action: z.string(), reason: z.string() })),
    signature: z.string(), repeated: z.optional(z.strictObject({ blind: z.boolean() })),
  }),
  /** A Reason with no plan to make: its llm planner has no skill or failed, or it has no scripted plans. */
  z.strictObject({ is: z.literal('no_plan'), why: z.enum(['no_skill', 'llm_failed', 'no_plans']), outcome: z.optional(z.string()), error: z.optional(z.string()) }),
  /** A Verify's verdict, and where it came from. */
  z.strictObject({ is: z.literal('verdict'), from: VerdictFrom, observed: Observed }),
]);
export type Note = z.infer<typeof Note>;
/** A step's note: data, or a sentence (a trace made before notes were data, or an executor's own words). */
export const StepNote = z.union([Note, z.string()]);
export type StepNote = z.infer<typeof StepNote>;

/**
 * What a LangGraph server told of a step of a graph Loopscope did not make (SPEC §8): the
 * checkpoints around it, where it ran (a subgraph's namespace and parent node), and what came next.
 */
export const ServerStep = z.strictObject({
  /** The LangGraph name of the node that ran (the step's `node` is its id on the server's drawing). */
  name: z.string(),
  /** The checkpoint the step made, and the one it ran from. */
  checkpoint: z.string(),
  parentCheckpoint: z.nullable(z.string()),
  /** Inside a subgraph: its checkpoint namespace (`research:<task id>`) and the parent graph's node running it. */
  ns: z.optional(z.string()),
  parent: z.optional(z.string()),
  /** The nodes the checkpoint after it names as next (empty: nothing is left to run). */
  next: z.array(z.string()),
  /** Where its edges could go, and where they went (`__end__` when the run ended there). */
  targets: z.array(z.string()),
  chose: z.array(z.string()),
  conditional: z.boolean(),
  /** One of several tasks of one superstep (parallel branches, `Send`). */
  parallel: z.optional(z.strictObject({ index: z.int().check(z.gte(1)), of: z.int().check(z.gte(1)) })),
  /** The values of the `interrupt()`s the node waited on before it went on. */
  interrupts: z.optional(z.array(z.unknown())),
  error: z.optional(z.string()),
  /** Not a node's run: state edited on the server as this node (`updateState`, a fork). */
  edit: z.optional(z.literal(true)),
  /** The task's id on the server, which its run's events name too. */
  task: z.optional(z.string()),
  /** A task a `Send` started (pushed), not one its node's edges pulled. */
  send: z.optional(z.literal(true)),
  /** What a `Send` task was given: the `Send`'s argument (from the run's event stream). */
  input: z.optional(z.unknown()),
  /** What the task returned: its own writes, before any reducer (the server's history keeps them per task). */
  result: z.optional(z.unknown()),
  /**
   * Each routing function that ran after the node: the state it was given and what it returned
   * (event stream); `leftOut`: characters of that state's long channels not kept (the step's state has them).
   */
  routes: z.optional(z.array(z.strictObject({ input: z.unknown(), returned: z.unknown(), leftOut: z.optional(z.number()) }))),
  /** The node returned a `Command`: where it goes and what it writes. */
  command: z.optional(z.strictObject({ goto: z.unknown(), update: z.unknown() })),
});
export type ServerStep = z.infer<typeof ServerStep>;

export const TraceStep = z.strictObject({
  step: z.int().check(z.gte(1)),
  round: Count,
  node: z.string(),
  kind: z.enum(NODE_KINDS),
  outcome: z.nullable(z.string()),
  attempts: z.array(Attempt),
  reads: z.array(z.string()),
  /** The fields this node wrote, with their new values. */
  writes: State,
  edges: z.array(EdgeCheck),
  fired: z.nullable(Fired),
  guard: z.nullable(StepStop),
  durationMs: z.number().check(z.gte(0)),
  /** The guard checks that ran before the node, with their numbers. */
  guards: z.optional(z.array(GuardCheck)),
  /** What the node concluded (Note), or in a sentence: `zero records: an empty result is not a success`. */
  note: z.optional(StepNote),
  tokensUsed: z.optional(z.number().check(z.gte(0))),
  /** The state before the node ran (absent in compact traces). */
  stateBefore: z.optional(State),
  /** Set when the node repeats the last round's plan with no new evidence (a blind retry). */
  blindRetry: z.optional(z.boolean()),
  /** Under `limits.onBudget: "evaluate"`: what the spent budget left to run (BudgetNote). */
  budget: z.optional(BudgetNote),
  /** Set on the terminal step: the run's stop. */
  stop: z.optional(StepStop),
  /** A node with an inner loop: its iterations (the flat `attempts` holds their attempts too) and its bound. */
  iterations: z.optional(z.array(Iteration)),
  maxIter: z.optional(Count),
  /** What the node's decider or judge was given. */
  given: z.optional(Given),
  /** The `finally` node, run once after the run stopped (the stop reason stays). */
  finally: z.optional(z.literal(true)),
  /** A step of a graph on a LangGraph server that Loopscope did not make, as the server told it. */
  server: z.optional(ServerStep),
});
export type TraceStep = z.infer<typeof TraceStep>;

// Whether a step's node ran: kept beside the step index, which the first screen reads without the trace's schemas.
export { nodeRan, stepsRan } from './traceIndex.ts';

export const Trace = z
  .strictObject({
    format: z.literal(TRACE_FORMAT),
    version: z.literal(TRACE_VERSION),
    graph: z.string(),
    seed: z.int(),
    stopReason: z.nullable(StopReason),
    rounds: Count,
    tokensUsed: z.number().check(z.gte(0)),
    finalState: State,
    steps: z.array(TraceStep),
    /** Why the run stopped, as data; `stopExplain`, its sentence, in a trace made before stops were data. */
    stopWhy: z.optional(StopWhy),
    stopExplain: z.optional(z.string()),
    scenario: z.optional(z.string()),
    /** The graph the run ran on, as a graph file (the app's export adds it): an imported trace opens on its own graph. */
    graphFile: z.optional(z.record(z.string(), z.unknown())),
    /** Set on a forked run: the step of the original run it continues from. */
    forkedFrom: z.optional(z.strictObject({ step: Count, edited: z.array(z.string()), overridden: z.array(z.string()) })),
  })
  .check((context) => {
    context.value.steps.forEach((step, index) => {
      if (step.step !== index + 1)
        context.issues.push({ code: 'custom', input: step.step, path: ['steps', index, 'step'], message: `expected step ${index + 1}, got ${step.step}: steps must be numbered in order` });
    });
  });
export type Trace = z.infer<typeof Trace>;

/** Untrusted text (or a value) to a trace, within the trace limits, or the problems with the paths that failed. */
export const parseTrace = (input: string | unknown): ParseResult<Trace> => parseUntrusted(Trace, input, [], TRACE_LIMITS);

/**
 * A trace as a file: JSON with each top-level field on a line of its own and one step a line, so a
 * long run's file reads and diffs by step and is about 40 % smaller than indented JSON.
 */
export const serializeTrace = (trace: Trace & { graphFile?: Record<string, unknown> }): string => {
  const lines = Object.entries(trace).map(([key, value]) =>
    key === 'steps' && Array.isArray(value) && value.length > 0
      ? `  "steps": [\n${value.map((step) => `    ${JSON.stringify(step)}`).join(',\n')}\n  ]`
      : `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{\n${lines.join(',\n')}\n}\n`;
};
