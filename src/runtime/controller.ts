/**
 * The contract between the runtime and whoever drives it (the debugger's store slice, the command
 * line). The runtime implements it; nothing here renders.
 */
import type { GraphFile } from '../graph/index.ts';
import type { StopReason, Trace, TraceStep } from './trace.ts';

export type RunStatus = 'idle' | 'running' | 'paused' | 'awaiting_approval' | 'stopped';

export interface PendingApproval {
  node: string;
  prompt: string;
  /** The skill the approval would grant once, and the action that was denied. */
  skill?: string;
  args?: Record<string, unknown>;
  reason?: string;
}

/** Plain events, in order, as the run goes. */
export type RunEvent =
  | { type: 'step'; step: TraceStep }
  | { type: 'status'; status: RunStatus }
  | { type: 'approval'; pending: PendingApproval }
  | { type: 'stopped'; reason: StopReason; explain: string; trace: Trace };

export interface RunOptions {
  seed?: number;
  /** Overrides of skills and state, as a scenario gives them. */
  scenario?: string;
  /** Secrets for llm skills, by `apiKeyName`; kept in memory only. */
  secrets?: Record<string, string>;
  /** Injected for exact replays. */
  now?: () => number;
  /** Returns true to pause before this node runs (breakpoints). */
  shouldPauseBefore?: (nodeId: string, state: Record<string, unknown>) => boolean;
  /** Returns true to pause after this step (edge breakpoints, conditions). */
  shouldPauseAfter?: (step: TraceStep) => boolean;
  /** A delay between steps, for animated runs. */
  stepDelayMs?: number;
}

export interface RunController {
  readonly status: RunStatus;
  readonly trace: Trace;
  /** The state after the last executed step. */
  readonly state: Record<string, unknown>;
  readonly pendingApproval: PendingApproval | null;
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** Runs one node (and its edge choice); resolves with the step, or null when the run has stopped. */
  step(): Promise<TraceStep | null>;
  /** Runs until the end, a breakpoint, an approval or pause(). */
  run(): Promise<void>;
  pause(): void;
  stop(): void;
  /** Answers a pending approval; the run continues with `step()` or `run()`. */
  decide(decision: 'approved' | 'denied'): void;
}

export type CreateController = (graph: GraphFile, options?: RunOptions) => RunController;
