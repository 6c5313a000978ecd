/**
 * Why a run pauses: its breakpoints on nodes and edges, and the conditions on its numbers. The
 * rules are data the person's Run, Continue or Step round hands the run (`PauseRules`), which the
 * run reads between its nodes: nothing of whoever asked is called while it goes.
 */
import type { GraphFile } from '../graph/schema.ts';
import { storedWords } from '../graph/reasonWords.ts';
import type { TraceStep } from './trace.ts';

/** A breakpoint on the run's numbers rather than on one node or edge. */
export type BreakCondition =
  | { type: 'tokens_percent'; percent: number }
  | { type: 'round'; round: number }
  | { type: 'attempt_failed' };

export interface Breakpoints {
  nodes: string[];
  edges: string[];
  conditions: BreakCondition[];
}

/** What a Run or Continue is handed: where it pauses, and how long it waits between steps (an animated run). */
export interface PauseRules {
  breakpoints: Breakpoints;
  /** Step round: pause before the entry starts the next round. */
  untilNextRound?: boolean;
  stepDelayMs?: number;
}

export const NO_PAUSE_RULES: PauseRules = { breakpoints: { nodes: [], edges: [], conditions: [] } };

/** Skill call outcomes that mean the call failed (the `attempt_failed` condition's, and the canvas's chips). */
export const FAILED_OUTCOMES: ReadonlySet<string> = new Set(['timeout', 'parse_error', 'permission_denied', 'error']);

export const describeCondition = (condition: BreakCondition): string => {
  switch (condition.type) {
    case 'tokens_percent':
      return `tokens pass ${condition.percent}% of the budget`;
    case 'round':
      return `round reaches ${condition.round}`;
    case 'attempt_failed':
      return 'an attempt fails';
  }
};

/** The round the node would run in: entering the entry again starts the next one. */
export const roundOf = (graph: GraphFile, nodeId: string, state: Record<string, unknown>) => {
  const round = Number(state.round ?? 1);
  return nodeId === graph.entry && Number(state.steps ?? 0) > 0 ? round + 1 : round;
};

/** Why the run should pause before `nodeId` runs, or null. */
export const pauseBeforeReason = (breakpoints: Breakpoints, graph: GraphFile, nodeId: string, state: Record<string, unknown>): string | null => {
  if (breakpoints.nodes.includes(nodeId)) return `breakpoint on node ${nodeId}: paused before it runs`;
  for (const condition of breakpoints.conditions)
    if (condition.type === 'round' && nodeId === graph.entry && roundOf(graph, nodeId, state) === condition.round)
      return `condition "${describeCondition(condition)}": paused before round ${condition.round} starts`;
  return null;
};

/** Why the run should pause after this step, or null; `previous` is the step before it. */
export const pauseAfterReason = (breakpoints: Breakpoints, graph: GraphFile, step: TraceStep, previous: TraceStep | undefined): string | null => {
  if (step.fired && breakpoints.edges.includes(step.fired.id)) return `breakpoint on edge ${step.fired.id}: it fired (${storedWords(step.fired)})`;
  for (const condition of breakpoints.conditions) {
    if (condition.type === 'attempt_failed') {
      const failed = step.attempts.find((attempt) => FAILED_OUTCOMES.has(attempt.outcome));
      if (failed) return `condition "${describeCondition(condition)}": attempt ${failed.n} of ${failed.skill} was ${failed.outcome}`;
    }
    if (condition.type === 'tokens_percent' && graph.limits.tokenBudget !== undefined) {
      const threshold = (graph.limits.tokenBudget * condition.percent) / 100;
      const before = previous?.tokensUsed ?? Number(step.stateBefore?.tokensUsed ?? 0);
      const after = step.tokensUsed ?? before;
      if (before < threshold && after >= threshold)
        return `condition "${describeCondition(condition)}": tokens ${after}/${graph.limits.tokenBudget}`;
    }
  }
  return null;
};


/**
 * Why a Run pauses before `nodeId`, beside its node breakpoints (LangGraph interrupts before the
 * node, which say nothing): Step round's next round, or a condition.
 */
export const pauseBeforeByRules = (rules: PauseRules, graph: GraphFile, nodeId: string, state: Record<string, unknown>): string | null => {
  if (rules.untilNextRound && nodeId === graph.entry && Number(state.steps ?? 0) > 0) return `Step round: paused before round ${roundOf(graph, nodeId, state)} starts`;
  return pauseBeforeReason({ ...rules.breakpoints, nodes: [] }, graph, nodeId, state);
};
