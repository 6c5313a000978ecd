/**
 * The contract between the runtime and whoever drives it (the debugger's store slice, the command
 * line). The runtime implements it (`createController` in run.ts); nothing here renders.
 *
 * Status: `idle` → (`step()` → `paused`) | (`run()` → `running` → `paused` at a breakpoint or
 * pause(), `awaiting_approval` at an approve node, `stopped` at the end). `decide()` answers an
 * approval and leaves the run `paused`: call `step()` or `run()` to go on. An interactive run
 * always asks a person at an approve node; headless runs (`runGraph`, scenarios, the command line)
 * take the node's `config.auto`, and without one they deny (the safe default; the graph routes
 * `denied`). `trace` is a snapshot taken when read.
 */
import type { KeyRing } from '../skills/index.ts';
import type { GraphFile, MockEntry } from '../graph/index.ts';
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
  /** The name of one of the graph's scenarios: its skills and state are applied (and its seed, unless `seed` is given). */
  scenario?: string;
  /** Keys for llm skills, by `apiKeyName` and the origin each was given for; kept in memory only. */
  keys?: KeyRing;
  /** Injected for exact replays. */
  now?: () => number;
  /** Returns true to pause before this node runs (breakpoints). */
  shouldPauseBefore?: (nodeId: string, state: Record<string, unknown>) => boolean;
  /** Returns true to pause after this step (edge breakpoints, conditions). */
  shouldPauseAfter?: (step: TraceStep) => boolean;
  /** A delay between steps, for animated runs. */
  stepDelayMs?: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Leaves `stateBefore` out of the steps, for long runs. */
  compact?: boolean;
  /** Continue an earlier run from one of its steps, with changes: see ForkOptions. */
  fork?: ForkOptions;
}

/**
 * A fork re-runs `fromTrace`'s graph with its seed and scenario (unless the options give others) up to and including step `atStep`
 * (approvals answered as the trace answered them), then applies the edits, and the new
 * controller continues from there. Mock skills replay exactly; http and llm skills are called
 * again. The fork's trace holds the re-run steps 1..atStep followed by the new ones, and
 * `forkedFrom` says where it branched. The re-run must take the same path as the trace, or the
 * fork stops with `error` (the graph changed since the trace was made).
 */
export interface ForkOptions {
  fromTrace: Trace;
  /** The last step kept, 0 to fork before the first step. */
  atStep: number;
  /** State fields replaced before the next step (shallow: a field is replaced as a whole). */
  state?: Record<string, unknown>;
  /** Served as these skills' next attempt results before their scripts (or real calls) go on. */
  nextResults?: Record<string, MockEntry[]>;
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
  /** Settles when the controller can step: at once, or after a fork's re-run. */
  readonly ready?: Promise<void>;
}

export type CreateController = (graph: GraphFile, options?: RunOptions) => RunController;
