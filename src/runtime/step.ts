/**
 * One node of a run, as a function of the graph file and the run's channel values: the guards,
 * the kind's executor, the edge choice. It returns the channel update (the node's writes, the
 * runtime fields, the ledger `_run` and the trace step `_step`); it changes nothing it is given.
 * Skill calls are its only effects, with the ledger deciding what a mock or a fork's override serves.
 */
import { END, NodeInterrupt, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { kindDefinition, nodeById, own, type GraphFile, type GraphNode, type MockEntry, type PermissionMode, type Skill } from '../graph/index.ts';
import { DEFAULT_GRANT } from '../skills/grant.ts';
import { isScripted, STAND_IN_TYPE } from '../graph/skillTypes/index.ts';
import { createSkill, resultOfEntry, type KeyRing, type McpConnector, type SkillRunner } from '../skills/index.ts';
import { chooseEdge, type EdgeChoice } from './conditions.ts';
import { budgetLeaves, onBudgetOf, type BudgetLeaves } from '../graph/budget.ts';
import { checkGuards } from './guards.ts';
import { EXECUTORS, type NodeContext, type NodeResult } from './kinds/index.ts';
import { runAction, type ActionEnv } from './retry.ts';
import { stepStartValues } from './langgraphInternals.ts';
import { writtenByRuntime } from './outsideWrites.ts';
import { agentState, initialValues, RUN_CHANNEL, STEP_CHANNEL, type RunLedger, type RunValues, type Stop } from './state.ts';
import type { Attempt, BudgetNote, TraceStep } from './trace.ts';

/** What a run takes from outside; none of it is state, all of it is optional. */
export interface RunDeps {
  now?: () => number;
  fetch?: typeof fetch;
  /** Keys for llm skills, each bound to the origin it was given for; kept in memory only. */
  keys?: KeyRing;
  /** MCP servers by name, for mcp skills (none: their calls are errors that say so). */
  mcp?: McpConnector;
  /** The permission mode the person granted for real (not mock) skill calls: the graph file's `permissions.mode` only asks for it. Absent: read-only. */
  granted?: PermissionMode;
  /** Told about every attempt as it ends (the `custom` stream), so attempts show while the node runs. */
  onAttempt?: (attempt: Attempt, where: { node: string; step: number }) => void;
}

/** What a caller passes in `config.configurable.loopscope` (attempts come back on the `custom` stream). */
export interface LoopscopeConfig extends Omit<RunDeps, 'onAttempt'> {
  /**
   * Asked before every node, before its guards: a reason pauses the run there (an interrupt) and
   * resuming runs the node. Used for Pause, condition breakpoints and animated runs: a Run's nodes
   * are handed it, a Step's are not (run.ts).
   */
  beforeNode?: (node: string, values: RunValues) => string | null | Promise<string | null>;
}

/** The runners of a graph's http and llm skills: they hold no state, so one set serves every run. */
export type RealRunners = ReadonlyMap<string, SkillRunner>;

export const realRunners = (graph: GraphFile): RealRunners =>
  new Map(Object.entries(graph.skills).flatMap(([name, skill]) => (isScripted(skill) ? [] : [[name, createSkill(name, skill)] as const])));

/** The part of the ledger a node's skill calls move: copied once per node, written back as `_run`. */
interface CallLedger {
  scripts: Record<string, number>;
  grants: Record<string, number>;
  /** Of `grants`, those a live person decided (RunLedger.personGrants). */
  personGrants: Record<string, number>;
  overrides: Record<string, MockEntry[]>;
  tokensUsed: number;
  simulatedMs: number;
}

/** The ledger's person grants, left out until a person gave one (the ledgers of other runs stay as they were). */
const personGrantsOf = (ledger: CallLedger): Pick<RunLedger, 'personGrants'> =>
  Object.keys(ledger.personGrants).length > 0 ? { personGrants: ledger.personGrants } : {};

/** A mock skill or a fork's override, served from the ledger's positions instead of a closure. */
const scriptedRunner = (name: string, skill: Skill, ledger: CallLedger): SkillRunner | undefined => {
  const queue = own(ledger.overrides, name);
  if (queue?.length)
    return {
      name, access: skill.access, simulated: true,
      call: async (_args, context) => {
        ledger.overrides[name] = queue.slice(1);
        return resultOfEntry(queue[0], skill.tokens, context);
      },
    };
  if (skill.type !== STAND_IN_TYPE) return undefined;
  return {
    name, access: skill.access, simulated: true,
    call: async (_args, context) => {
      const served = own(ledger.scripts, name) ?? 0;
      ledger.scripts[name] = served + 1;
      return resultOfEntry(skill.script[Math.min(served, skill.script.length - 1)], skill.tokens, context);
    },
  };
};

const actionEnv = (
  graph: GraphFile, node: GraphNode, real: RealRunners, ledger: CallLedger, run: RunLedger, state: Record<string, unknown>, deps: RunDeps, onAttempt?: (attempt: Attempt) => void,
): ActionEnv => ({
  runner: (skill) => {
    const definition = own(graph.skills, skill);
    if (!definition) return undefined;
    const scripted = scriptedRunner(skill, definition, ledger);
    const service = real.get(skill);
    // A fork's override of an MCP tool serves the answer, but the tool's access is still the server's to tell.
    return scripted && service?.learnAccess ? { ...scripted, learnAccess: service.learnAccess, describe: service.describe } : (scripted ?? service);
  },
  mode: graph.permissions.mode,
  granted: deps.granted ?? DEFAULT_GRANT,
  consumeGrant: (skill, byPerson) => {
    const left = own(ledger.grants, skill) ?? 0;
    const byPeople = own(ledger.personGrants, skill) ?? 0;
    if (left === 0) return 'none';
    if (byPerson && byPeople === 0) return 'not by a person';
    ledger.grants[skill] = left - 1;
    // The file's grants go first when either serves: a person's is kept for what only it may lift.
    if (byPerson || byPeople > left - 1) ledger.personGrants[skill] = byPeople - 1;
    return 'used';
  },
  tokensUsed: () => ledger.tokensUsed,
  charge: (tokens) => {
    ledger.tokensUsed += tokens;
  },
  limits: graph.limits,
  ...(kindDefinition(node.kind).readsOnly ? { onlyReads: `${node.id} is a ${kindDefinition(node.kind).title} node, which only reads` } : {}),
  wait: async (ms, simulated) => {
    if (simulated) ledger.simulatedMs += ms;
    else await new Promise((resolve) => setTimeout(resolve, ms));
  },
  context: { state, seed: run.seed, keys: deps.keys, fetch: deps.fetch, mcp: deps.mcp },
  onAttempt,
});

/** The edge out of `source` for this outcome and state, or the stop when none can be taken. */
export const routeAfter = (graph: GraphFile, source: string, outcome: string | null, state: Readonly<Record<string, unknown>>): EdgeChoice & { stop: Stop | null } => {
  const choice = chooseEdge(graph, source, { outcome, state });
  if (!choice.fired) return { ...choice, stop: { reason: 'no_route', why: { is: 'no_route', node: source, outcome } } };
  if (!nodeById(graph, choice.fired.target)) return { ...choice, stop: { reason: 'error', why: { is: 'no_node', target: choice.fired.target } } };
  return { ...choice, stop: null };
};

/** Stops that end a run without a final response: it answered already, a person ended it, or it broke. */
const NO_FINAL_RESPONSE = new Set(['completed', 'user_stopped', 'error']);

/** The graph's `finally` node, when it names a node whose kind writes a final response (`finalResponse`). */
export const finallyNode = (graph: GraphFile): GraphNode | undefined => {
  const node = graph.finally === undefined ? undefined : nodeById(graph, graph.finally);
  return node && kindDefinition(node.kind).finalResponse ? node : undefined;
};

/**
 * A stop as ledger fields: `stop` ends the run, `closing` first runs the graph's `finally` node,
 * which then ends it with this same stop (seed 000: a final response on every stop).
 */
export const stopFields = (graph: GraphFile, stop: Stop | null): Pick<RunLedger, 'stop' | 'closing'> =>
  stop && finallyNode(graph) && !NO_FINAL_RESPONSE.has(stop.reason) ? { stop: null, closing: stop } : { stop, closing: null };

/** Runs the `finally` node: no guards, its kind's executor, and the stop it closes stays the run's stop. */
const executeFinally = async (graph: GraphFile, node: GraphNode, values: RunValues, closing: Stop, deps: RunDeps): Promise<Record<string, unknown>> => {
  const now = deps.now ?? Date.now;
  const run = values._run;
  const stepNumber = run.step + 1;
  const started = now();
  const state = agentState(values);
  const context = { node, graph, state, round: values.round as number, visits: own(run.visits, node.id) ?? 0, lastWritten: run.lastWritten } as NodeContext;
  const result = await (EXECUTORS[node.kind] as (context: NodeContext) => Promise<NodeResult>)(context);
  // A stop the finally node closes is never a final response's (it ends the run), so `after` is always the stop itself.
  const after = closing.why.is === 'final_response' ? closing.why.after : closing.why;
  const stop: Stop = { reason: closing.reason, why: { is: 'final_response', after, node: node.id } };
  const lastWritten = { ...run.lastWritten };
  for (const key of Object.keys(result.writes)) lastWritten[key] = stepNumber;
  const step: TraceStep = {
    step: stepNumber, round: values.round as number, node: node.id, kind: node.kind, outcome: null, attempts: [], reads: [...kindDefinition(node.kind).reads],
    writes: result.writes, edges: [], fired: null, guard: null, durationMs: Math.max(0, now() - started), note: { is: 'final_response', after: closing.reason },
    tokensUsed: values.tokensUsed as number, stop, finally: true,
  };
  return {
    ...result.writes, steps: (values.steps as number) + 1,
    _run: { ...run, step: stepNumber, visits: { ...run.visits, [node.id]: (own(run.visits, node.id) ?? 0) + 1 }, lastWritten, outcome: null, stop, closing: null },
    _step: step,
  };
};

/** A spent budget's note on `node`, when `leaves` is asked (onBudget "evaluate") and `tokens` reach the budget. */
const spentNote = (graph: GraphFile, tokens: number, node: string, leaves: BudgetLeaves | null): Omit<BudgetNote, 'at'> | null => {
  const limit = graph.limits.tokenBudget;
  return leaves && limit !== undefined && tokens >= limit ? { used: tokens, limit, node, ...leaves } : null;
};

/** Runs `node` on the values; the update it returns is all that changes. */
export const executeNode = async (graph: GraphFile, node: GraphNode, values: RunValues, real: RealRunners, deps: RunDeps): Promise<Record<string, unknown>> => {
  if (values._run.closing && node.id === finallyNode(graph)?.id) return executeFinally(graph, node, values, values._run.closing, deps);
  const now = deps.now ?? Date.now;
  const run = values._run;
  const stepNumber = run.step + 1;
  const currentRound = values.round as number;
  const round = node.id === graph.entry && run.step > 0 ? currentRound + 1 : currentRound;
  const tokensBefore = values.tokensUsed as number;
  const base: TraceStep = {
    step: stepNumber, round, node: node.id, kind: node.kind, outcome: null, attempts: [], reads: [...kindDefinition(node.kind).reads],
    writes: {}, edges: [], fired: null, guard: null, durationMs: 0,
  };
  // onBudget "evaluate": a spent budget still lets a node run that judges the evidence without a call (then the run stops).
  const spentBefore = spentNote(graph, tokensBefore, node.id, onBudgetOf(graph.limits) === 'evaluate' ? budgetLeaves(node) : null);
  const guards = checkGuards({ round, steps: values.steps as number, tokensUsed: tokensBefore, limits: graph.limits, evaluates: spentBefore?.evaluates });
  base.guards = guards.checks;
  if (guards.stop) {
    const budget = guards.stop.reason === 'budget_exhausted' && spentBefore ? { ...spentBefore, at: 'stopped' as const } : undefined;
    // The step keeps the guard's numbers; the run's stop keeps them too, with the spent budget.
    const stop = guards.stop;
    const guarded: TraceStep = {
      ...base, round: stop.reason === 'max_rounds' ? currentRound : round, reads: [], guard: stop, tokensUsed: tokensBefore,
      note: { is: 'guard_stopped', before: node.id }, stop, ...(budget ? { budget } : {}),
    };
    return { _run: { ...run, step: stepNumber, outcome: null, ...stopFields(graph, { reason: stop.reason, why: { is: 'guard', hit: stop, ...(budget ? { budget } : {}) } }) }, _step: guarded };
  }

  // The node's own copy of the state: the executor reads it, then the edge choice reads it with the writes applied.
  const state = agentState(values);
  state.round = round;
  const ledger: CallLedger = { scripts: { ...run.scripts }, grants: { ...run.grants }, personGrants: { ...run.personGrants }, overrides: { ...run.overrides }, tokensUsed: tokensBefore, simulatedMs: 0 };
  const onAttempt = deps.onAttempt && ((attempt: Attempt) => deps.onAttempt?.(attempt, { node: node.id, step: stepNumber }));
  const env = actionEnv(graph, node, real, ledger, run, state, deps, onAttempt);
  const visits = own(run.visits, node.id) ?? 0;
  const context: NodeContext = {
    node, graph, state, round, visits, lastWritten: run.lastWritten,
    runAction: (action, policy, index, interpret, retryArgs) => runAction(action, policy, env, index, interpret, retryArgs),
    describeTool: async (skill) => {
      const runner = env.runner(skill);
      if (runner?.describe) return runner.describe({ ...env.context, attempt: 1 });
      const description = own(graph.skills, skill)?.description;
      return { name: skill, ...(description ? { description } : {}) };
    },
    tell: onAttempt,
    budgetLeft: () => (graph.limits.tokenBudget === undefined ? null : Math.max(0, graph.limits.tokenBudget - ledger.tokensUsed)),
    decision: run.decision ?? undefined,
    grant: (skill, byPerson) => {
      ledger.grants[skill] = (own(ledger.grants, skill) ?? 0) + 1;
      if (byPerson) ledger.personGrants[skill] = (own(ledger.personGrants, skill) ?? 0) + 1;
    },
  };
  const started = now();
  const spent = { scripts: ledger.scripts, grants: ledger.grants, overrides: ledger.overrides, decision: null, roundsRan: round };
  let result: NodeResult;
  try {
    result = await (EXECUTORS[node.kind] as (context: NodeContext) => Promise<NodeResult>)(context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const stop: Stop = { reason: 'error', why: { is: 'node_failed', node: node.id, message } };
    return {
      round, tokensUsed: ledger.tokensUsed,
      _run: { ...run, ...spent, ...personGrantsOf(ledger), step: stepNumber, outcome: null, stop },
      _step: { ...base, note: { is: 'threw', message }, tokensUsed: ledger.tokensUsed, stop },
    };
  }
  const { writes, outcome } = result;
  const durationMs = Math.max(0, now() - started) + ledger.simulatedMs;
  const lastWritten = { ...run.lastWritten };
  for (const key of Object.keys(writes)) lastWritten[key] = stepNumber;
  // Only what changed goes to LangGraph: every channel written costs it a version and a write.
  const update: Record<string, unknown> = { ...writes, steps: (values.steps as number) + 1 };
  if (round !== currentRound) update.round = round;
  if (ledger.tokensUsed !== tokensBefore) update.tokensUsed = ledger.tokensUsed;
  // A node a spent budget let run judged what was gathered: the run stops there (seed 001 §5.2).
  const evaluated: BudgetNote | undefined = spentBefore ? { ...spentBefore, at: 'evaluated' } : undefined;
  let stop: Stop | null = result.budgetStop ?? result.stop ?? (evaluated ? { reason: 'budget_exhausted', why: { is: 'budget_evaluated', budget: evaluated } } : null);
  const route = stop ? null : routeAfter(graph, node.id, outcome, Object.assign(state, update));
  stop ??= route?.stop ?? null;
  // This node spent the budget: say what the next node may still do.
  const next = !stop && tokensBefore < (graph.limits.tokenBudget ?? Infinity) && onBudgetOf(graph.limits) === 'evaluate' && route?.fired ? nodeById(graph, route.fired.target) : undefined;
  const spentHere = next && spentNote(graph, ledger.tokensUsed, next.id, budgetLeaves(next));
  const budget = evaluated ?? (spentHere ? { ...spentHere, at: 'spent' as const } : undefined);
  // Built in one go, in the trace's field order (a step is the largest object a run makes per node).
  const step: TraceStep = {
    step: stepNumber, round, node: node.id, kind: node.kind, outcome, attempts: result.attempts, reads: base.reads, writes,
    edges: route?.edges ?? [], fired: route?.fired ?? null, guard: result.budgetStop ?? null, durationMs, guards: guards.checks,
    note: result.note, tokensUsed: ledger.tokensUsed,
  };
  if (result.blindRetry) step.blindRetry = true;
  if (budget) step.budget = budget;
  if (result.iterations) step.iterations = result.iterations;
  if (result.maxIter !== undefined) step.maxIter = result.maxIter;
  if (result.given) step.given = result.given;
  // A missing target is the next node's failure, not this step's: its step keeps the edge that fired.
  if (stop && route?.stop?.reason !== 'error') step.stop = stop;
  const ran: RunLedger = {
    ...run, ...spent, ...personGrantsOf(ledger), step: stepNumber, visits: { ...run.visits, [node.id]: visits + 1 }, lastWritten, outcome, ...stopFields(graph, stop),
  };
  update._run = ran;
  update._step = step;
  return update;
};

/**
 * The values a node runs on. A run started from outside Loopscope (a LangGraph server's client
 * sending `{question: …}`, or nothing) has no ledger yet: it starts from the graph's initial values
 * with the input over them, the seed from `configurable.seed`, and the first node writes them all.
 */
const startingValues = (graph: GraphFile, values: Record<string, unknown>, config: LangGraphRunnableConfig | undefined): { run: RunValues; fresh: boolean } => {
  if (values._run) return { run: values as RunValues, fresh: false };
  const seed = config?.configurable?.seed;
  const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  return { run: { ...initialValues(graph, Number.isInteger(seed) ? (seed as number) : 1), ...given } as RunValues, fresh: true };
};

/** Values LangGraph read, without the fields nothing has written (a FieldChannel reads them as undefined). */
export const presentValues = (values: Record<string, unknown>): Record<string, unknown> => {
  for (const key in values) if (values[key] === undefined) return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  return values;
};

/**
 * A graph node as LangGraph runs it (compile.ts makes one per node): the values it reads, the pause
 * asked between nodes (`beforeNode`: a reason is a LangGraph interrupt), then the node itself
 * (`executeNode`), each attempt going out on the `custom` stream as it ends (LangGraph's retries
 * would hide them). `served`: the graph runs for clients outside Loopscope, whose writes are checked.
 */
export const runNode = (graph: GraphFile, node: GraphNode, real: RealRunners, configOf: (config: LangGraphRunnableConfig) => LoopscopeConfig, served: boolean) =>
  async (values: Record<string, unknown>, config: LangGraphRunnableConfig): Promise<Record<string, unknown>> => {
    const loopscope = configOf(config);
    const { run, fresh } = startingValues(graph, presentValues(values), config);
    const pause = await loopscope.beforeNode?.(node.id, run);
    if (pause) throw new NodeInterrupt(pause);
    const writer = config.writer;
    const update = await executeNode(graph, node, run, real, { ...loopscope, onAttempt: writer && ((attempt, where) => writer({ type: 'attempt', ...where, attempt })) });
    const written = fresh ? { ...run, ...update } : update;
    return served ? writtenByRuntime(written) : written;
  };

/**
 * The conditional edge out of `source` (compile.ts): the LangGraph node its run goes to next, from
 * the update alone when the node ran (it chose its edge once, `executeNode`).
 */
export const routeOf = (graph: GraphFile, source: string, names: ReadonlyMap<string, string>, fieldNames: string[], closingName: string | undefined) =>
  (update: Record<string, unknown> | null, config: LangGraphRunnableConfig): string => {
    const ran = update !== null && RUN_CHANNEL in update && STEP_CHANNEL in update;
    const run = ran ? (update as RunValues) : (presentValues({ ...stepStartValues(config, fieldNames), ...update }) as RunValues);
    if (!run._run || run._run.stop) return END;
    // A stop that gets a final response goes to the finally node: an edge of the compiled graph, not a side path.
    if (run._run.closing) return closingName ?? END;
    // An update made as this node from outside (updateState: a decision, a server's fork) ran no node: its edge is chosen for the state it leaves.
    const target = (ran ? run._step?.fired : routeAfter(graph, source, run._run.outcome, run).fired)?.target;
    return (target !== undefined && names.get(target)) || END;
  };
