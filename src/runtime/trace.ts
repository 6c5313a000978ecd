/**
 * The trace of one run (SPEC §2). Plain data, serialisable, never rendered here. The field names
 * of SPEC §2 are fixed; extra fields are optional additions.
 */
import type { CallOutcome, NodeKind } from '../graph/index.ts';

export const TRACE_FORMAT = 'loopscope/trace';
export const TRACE_VERSION = 1;

export type StopReason =
  | 'completed' | 'max_rounds' | 'max_steps' | 'budget_exhausted' | 'no_route' | 'denied' | 'user_stopped' | 'error'
  | (string & {});

/** One try of one skill call inside a node: the action level. */
export interface Attempt {
  n: number;
  skill: string;
  outcome: CallOutcome;
  tokens: number;
  error?: string;
  records?: number;
  durationMs?: number;
  /** Why this attempt was (not) followed by another: `timeout is in retryOn (attempt 1 of 3)`. */
  retry?: string;
  /** Index of the action in the plan this attempt belongs to. */
  action?: number;
}

/** One edge condition tried after a node ran: the task level. */
export interface EdgeCheck {
  id: string;
  target?: string;
  matched: boolean;
  /** With the values read: `evaluation.plan_exhausted eq true (was true)`. */
  explain: string;
  /** True when the edge was not tried because an earlier one fired. */
  skipped?: boolean;
}

export interface Fired {
  id: string;
  target: string;
  reason: string;
}

/** A system-level check before a node: round, steps, budget. */
export interface GuardCheck {
  name: 'max_rounds' | 'max_steps' | 'budget_exhausted';
  value: number;
  limit: number | null;
  passed: boolean;
  explain: string;
}

export interface Guard {
  reason: StopReason;
  explain: string;
}

export interface TraceStep {
  step: number;
  round: number;
  node: string;
  kind: NodeKind;
  outcome: string | null;
  attempts: Attempt[];
  reads: string[];
  /** The fields this node wrote, with their new values. */
  writes: Record<string, unknown>;
  edges: EdgeCheck[];
  fired: Fired | null;
  guard: Guard | null;
  durationMs: number;
  /** The guard checks that ran before the node, with their numbers. */
  guards?: GuardCheck[];
  /** What the node concluded, in a sentence: `zero records: an empty result is not a success`. */
  note?: string;
  tokensUsed?: number;
  /** The state before the node ran (absent in compact traces). */
  stateBefore?: Record<string, unknown>;
  /** Set when the node repeats the last round's plan with no new evidence (a blind retry). */
  blindRetry?: boolean;
  /** Set on the terminal step: the run's stop. */
  stop?: { reason: StopReason; explain: string };
}

export interface Trace {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_VERSION;
  graph: string;
  seed: number;
  stopReason: StopReason | null;
  rounds: number;
  tokensUsed: number;
  finalState: Record<string, unknown>;
  steps: TraceStep[];
  /** A sentence explaining the stop. */
  stopExplain?: string;
  scenario?: string;
  /** Set on a forked run: the step of the original run it continues from. */
  forkedFrom?: { step: number; edited: string[]; overridden: string[] };
}
