/**
 * The engine makes every decision of a run, one node at a time: guards, the node's work, the edge.
 * The controller drives it step by step; `compile.ts` runs it through a LangGraph StateGraph.
 * All it needs from outside (clock, seed, fetch, keys) is injected so that a run replays exactly.
 */
import { kindDefinition, nodeById, own, type GraphFile, type MockEntry } from '../graph/index.ts';
import { createSkills, resultOfEntry, type KeyRing, type SkillRunner } from '../skills/index.ts';
import { chooseEdge } from './conditions.ts';
import { checkGuards } from './guards.ts';
import { EXECUTORS, deniedAction, type NodeContext, type NodeResult } from './kinds/index.ts';
import { runAction, type ActionEnv } from './retry.ts';
import { TRACE_FORMAT, TRACE_VERSION, type StopReason, type Trace, type TraceStep } from './trace.ts';
import type { PendingApproval } from './controller.ts';

export interface EngineOptions {
  seed?: number;
  keys?: KeyRing;
  now?: () => number;
  fetch?: typeof fetch;
  /** Approvals take `config.auto` instead of waiting for a person. */
  headless?: boolean;
  /** Leaves `stateBefore` out of the steps, for long runs. */
  compact?: boolean;
  /** The scenario the graph was prepared for, named in the trace. */
  scenario?: string;
}

export type Advance =
  | { type: 'step'; step: TraceStep }
  | { type: 'approval'; pending: PendingApproval }
  | { type: 'stopped' };

export class Engine {
  readonly graph: GraphFile;
  readonly seed: number;
  state: Record<string, unknown>;
  readonly steps: TraceStep[] = [];
  /** The node that runs next; null once stopped. */
  next: string | null;
  stop: { reason: StopReason; explain: string } | null = null;
  private readonly options: EngineOptions;
  private readonly runners: Map<string, SkillRunner>;
  private readonly overrides = new Map<string, MockEntry[]>();
  private readonly grants = new Map<string, number>();
  private readonly visits = new Map<string, number>();
  private readonly lastWritten: Record<string, number> = {};
  private roundsRan = 0;
  private tokensUsed = 0;
  private simulatedMs = 0;
  private decision: 'approved' | 'denied' | undefined;

  constructor(graph: GraphFile, options: EngineOptions = {}) {
    this.graph = graph;
    this.options = options;
    this.seed = options.seed ?? 1;
    this.runners = createSkills(graph);
    this.state = { ...structuredClone(graph.state), round: 1, steps: 0, tokensUsed: 0 };
    for (const key of Object.keys(graph.state)) this.lastWritten[key] = 0;
    this.next = graph.entry;
  }

  get stopped() {
    return this.stop !== null;
  }

  /** Serves these entries as the skill's next results before it is called again (forks). */
  overrideNext(skill: string, entries: readonly MockEntry[]) {
    this.overrides.set(skill, [...(this.overrides.get(skill) ?? []), ...entries]);
  }

  /** Replaces state fields, as a fork's edit does; the edit counts as written now. */
  editState(patch: Record<string, unknown>) {
    this.state = { ...this.state, ...structuredClone(patch) };
    for (const key of Object.keys(patch)) this.lastWritten[key] = this.steps.length;
    if (typeof patch.tokensUsed === 'number') this.tokensUsed = patch.tokensUsed;
  }

  /** The answer to the pending approval; the next advance runs the approve node with it. */
  decide(decision: 'approved' | 'denied') {
    this.decision = decision;
  }

  /** Ends the run from outside (a person pressing Stop); `overrule` replaces a stop already reached. */
  halt(reason: StopReason, explain: string, overrule = false) {
    if (this.stop && !overrule) return;
    this.stop = { reason, explain };
    this.next = null;
  }

  /** A snapshot: later steps do not change a trace already taken. */
  trace(): Trace {
    return {
      format: TRACE_FORMAT, version: TRACE_VERSION, graph: this.graph.name, seed: this.seed,
      stopReason: this.stop?.reason ?? null, rounds: this.roundsRan, tokensUsed: this.tokensUsed,
      finalState: this.state, steps: [...this.steps], ...(this.stop ? { stopExplain: this.stop.explain } : {}),
      ...(this.options.scenario === undefined ? {} : { scenario: this.options.scenario }),
    };
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }

  private runner(skill: string): SkillRunner | undefined {
    const real = this.runners.get(skill);
    if (!real) return undefined;
    const queue = this.overrides.get(skill);
    if (!queue?.length) return real;
    const defaultTokens = own(this.graph.skills, skill)?.tokens;
    return { ...real, simulated: true, call: async (_args, context) => resultOfEntry(queue.shift() as MockEntry, defaultTokens, context) };
  }

  private actionEnv(): ActionEnv {
    return {
      runner: (skill) => this.runner(skill),
      mode: this.graph.permissions.mode,
      consumeGrant: (skill) => {
        const left = this.grants.get(skill) ?? 0;
        if (left === 0) return false;
        this.grants.set(skill, left - 1);
        return true;
      },
      tokensUsed: () => this.tokensUsed,
      charge: (tokens) => {
        this.tokensUsed += tokens;
      },
      limits: this.graph.limits,
      wait: async (ms, simulated) => {
        if (simulated) this.simulatedMs += ms;
        else await new Promise((resolve) => setTimeout(resolve, ms));
      },
      context: { state: this.state, seed: this.seed, keys: this.options.keys, fetch: this.options.fetch },
    };
  }

  private finish(step: TraceStep, reason: StopReason, explain: string): Advance {
    // A person may have pressed Stop while the node ran: their stop stands.
    this.stop ??= { reason, explain };
    step.stop = this.stop;
    this.next = null;
    this.steps.push(step);
    return { type: 'step', step };
  }

  async advance(): Promise<Advance> {
    if (this.stop || this.next === null) return { type: 'stopped' };
    const node = nodeById(this.graph, this.next);
    const stepNumber = this.steps.length + 1;
    const currentRound = this.state.round as number;
    const round = this.next === this.graph.entry && this.steps.length > 0 ? currentRound + 1 : currentRound;
    if (!node) {
      this.halt('error', `there is no node "${this.next}"`);
      return { type: 'stopped' };
    }
    const base: TraceStep = {
      step: stepNumber, round, node: node.id, kind: node.kind, outcome: null, attempts: [], reads: [...kindDefinition(node.kind).reads],
      writes: {}, edges: [], fired: null, guard: null, durationMs: 0,
      ...(this.options.compact ? {} : { stateBefore: structuredClone(this.state) }),
    };
    const guards = checkGuards({ round, steps: this.state.steps as number, tokensUsed: this.tokensUsed, limits: this.graph.limits });
    base.guards = guards.checks;
    if (guards.stop) {
      const guarded = { ...base, round: guards.stop.reason === 'max_rounds' ? currentRound : round, reads: [], guard: guards.stop, tokensUsed: this.tokensUsed, note: `stopped by a guard before ${node.id}` };
      return this.finish(guarded, guards.stop.reason, guards.stop.explain);
    }
    if (node.kind === 'approve' && !this.options.headless && this.decision === undefined) {
      const denied = deniedAction(this.state);
      return { type: 'approval', pending: { node: node.id, prompt: node.config.prompt ?? `Allow ${denied.skill ?? 'the action'} to run?`, ...denied, reason: denied.skill ? `${denied.skill} was refused by the permission check (${this.graph.permissions.mode})` : undefined } };
    }
    this.state = { ...this.state, round };
    this.roundsRan = round;
    const started = this.now();
    this.simulatedMs = 0;
    const visits = this.visits.get(node.id) ?? 0;
    const context: NodeContext = {
      node, graph: this.graph, state: this.state, round, visits, lastWritten: { ...this.lastWritten },
      runAction: (action, policy, index, interpret) => runAction(action, policy, this.actionEnv(), index, interpret),
      budgetLeft: () => (this.graph.limits.tokenBudget === undefined ? null : Math.max(0, this.graph.limits.tokenBudget - this.tokensUsed)),
      decision: this.decision,
      grant: (skill) => this.grants.set(skill, (this.grants.get(skill) ?? 0) + 1),
    };
    this.decision = undefined;
    let result: NodeResult;
    try {
      result = await (EXECUTORS[node.kind] as (context: NodeContext) => Promise<NodeResult>)(context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return this.finish({ ...base, note: `the node threw: ${message}`, tokensUsed: this.tokensUsed }, 'error', `${node.id} failed: ${message}`);
    }
    const writes = structuredClone(result.writes);
    this.visits.set(node.id, visits + 1);
    for (const key of Object.keys(writes)) this.lastWritten[key] = stepNumber;
    this.state = { ...this.state, ...writes, steps: (this.state.steps as number) + 1, tokensUsed: this.tokensUsed };
    const step: TraceStep = {
      ...base, outcome: result.outcome, attempts: result.attempts, writes, note: result.note, tokensUsed: this.tokensUsed,
      durationMs: Math.max(0, this.now() - started) + this.simulatedMs,
      ...(result.blindRetry ? { blindRetry: true } : {}),
    };
    if (result.budgetStop) return this.finish({ ...step, guard: result.budgetStop }, 'budget_exhausted', result.budgetStop.explain);
    if (result.stop) return this.finish(step, result.stop.reason, result.stop.explain);
    const choice = chooseEdge(this.graph, node.id, { outcome: result.outcome, state: this.state });
    step.edges = choice.edges;
    step.fired = choice.fired;
    if (!choice.fired) return this.finish(step, 'no_route', `no edge of ${node.id} matched outcome ${JSON.stringify(result.outcome)}`);
    // The narrowing from the start of advance() does not know the node awaited: Stop may have come meanwhile.
    const stoppedMeanwhile = this.stop as Engine['stop'];
    if (stoppedMeanwhile) return this.finish(step, stoppedMeanwhile.reason, stoppedMeanwhile.explain);
    this.next = choice.fired.target;
    this.steps.push(step);
    return { type: 'step', step };
  }
}
