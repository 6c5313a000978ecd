/**
 * The contract between the runtime and whoever drives it (the debugger's store slice, the command
 * line). The runtime implements it (`createController` in run.ts); nothing here renders.
 *
 * A controller drives one run of the graph compiled to LangGraph (compile.ts), on its own thread
 * of a checkpointer: every step is a checkpoint, so the run can be read at any step, forked from
 * any step and continued later without calling a skill again for a step that already ran.
 *
 * Status: `idle` → (`step()` → `paused`) | (`run()` → `running` → `paused` at a breakpoint or
 * pause(), `awaiting_approval` at an approve node, `stopped` at the end). `decide()` answers an
 * approval and leaves the run `paused`: call `step()` or `run()` to go on. An interactive run
 * always asks a person at an approve node; headless runs (`runGraph`, scenarios, the command line)
 * take the node's `config.auto`, and without one they deny (the safe default; the graph routes
 * `denied`). `trace` is a snapshot taken when read.
 */
import type { KeyRing, McpConnector } from '../skills/index.ts';
import type { GraphFile, PermissionMode } from '../graph/schema.ts';
import type { MockEntry } from '../graph/skills.ts';
import type { RetentionPolicy } from './checkpointer.ts';
import type { Attempt, StopReason, StopWhy, Trace, TraceStep } from './trace.ts';
import type { PauseRules } from './pauseRules.ts';
import type { RunSession } from './session.ts';

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
  /**
   * A node ran: its step, with the states before and after it and where the run stands after it
   * when the run has them at hand (a run in the page), so whoever shows the step reads nothing back
   * from the run.
   */
  | { type: 'step'; step: TraceStep; states?: StepStates; run?: RunAfterStep }
  /** An attempt of the node that is running, as soon as it ends (its step follows when the node is done); not told in headless runs. */
  | { type: 'attempt'; node: string; step: number; attempt: Attempt }
  | { type: 'status'; status: RunStatus }
  | { type: 'approval'; pending: PendingApproval }
  /** A breakpoint or condition held the run, and why (the pause rules answer with it: the runtime tells it, it writes nowhere). */
  | { type: 'paused'; reason: string }
  | { type: 'stopped'; reason: StopReason; why: StopWhy; trace: Trace };

/** Where a run stands after a step: its trace but for the steps (the step event carries the new one) and the node that runs next. */
export interface RunAfterStep {
  trace: Omit<Trace, 'steps'>;
  next: string | null;
}

/** The agent's state before and after one step. */
export interface StepStates {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * One recorded change of a run's channels, in order: the first is the whole initial state, then
 * each node's update and each edit (a decision, a stop, a fork's changes). Folding them gives the
 * run's values at any step; the journal is what a run session stores to come back after a reload.
 */
export interface JournalEntry {
  /** The trace step the run is at after this entry. */
  step: number;
  update: Record<string, unknown>;
}

export interface RunOptions {
  seed?: number;
  /** The name of one of the graph's scenarios: its skills and state are applied (and its seed, unless `seed` is given). */
  scenario?: string;
  /** Keys for llm skills, by `apiKeyName` and the origin each was given for; kept in memory only. */
  keys?: KeyRing;
  /** Injected for exact replays. */
  now?: () => number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** MCP servers by name, for mcp skills: the command line's from `.mcp.json`, the page's from the URLs the person gave. */
  mcp?: McpConnector;
  /** The permission mode the person granted for real skill calls (RunDeps.granted); absent: read-only. */
  granted?: PermissionMode;
  /** Leaves `stateBefore` out of the steps (the state of any step is read from its checkpoint instead). */
  compact?: boolean;
  /** Approvals take `config.auto` instead of waiting for a person; no `attempt` events (each step carries its attempts), no states with a `step` event. */
  headless?: boolean;
  /** Keeps the trace's steps (default); a run measured over 100,000 rounds keeps none. */
  keepSteps?: boolean;
  /** Keeps the journal (default): needed to read a step whose checkpoint was dropped, and to store the run. */
  record?: boolean;
  /** How many checkpoints the run's checkpointer keeps. */
  retention?: Partial<RetentionPolicy>;
  /** Continues a run recorded earlier (a session restored after a reload) from its last step. */
  journal?: readonly JournalEntry[];
  /** Set on a restored fork: where it branched, as its trace says. */
  forkedFrom?: Trace['forkedFrom'];
}

/** What a person changes when they fork from a step. */
export interface ForkEdits {
  /** State fields replaced (shallow: a field is replaced as a whole); checked against the state schema. */
  state?: Record<string, unknown>;
  /** Served as these skills' next attempt results before their scripts (or real calls) go on. */
  nextResults?: Record<string, MockEntry[]>;
  /** Another of its kind's outcomes for the step forked from: the edges that route on the outcome read it. */
  outcome?: string;
}

/**
 * An operation a run cannot do where it runs, and why: a run on a LangGraph server cannot be
 * paused from here, nor forked with scripted skill results. The debugger shows the reason instead
 * of doing it; nothing throws.
 */
export interface Unsupported {
  unsupported: string;
}

export const isUnsupported = (value: unknown): value is Unsupported =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Unsupported>).unsupported === 'string';

/**
 * The contract of a run the debugger drives, wherever it runs: here (`createController`, run.ts)
 * or on a LangGraph server (`ServerRun`, src/server/serverRun.ts), each step a checkpoint either way.
 * The debugger's actions (Step, Run/Continue, approvals, forks, a step's state) are written once
 * against it.
 */
export interface RunController {
  /** Where the run stands (session.ts): the one session of the run, which its executor changes and `ask` reads. */
  readonly session: RunSession;
  readonly trace: Trace;
  /** The node that runs next, or null when the run has stopped. */
  readonly next: string | null;
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** Runs one node (and its edge choice); resolves with the step, or null when none ran. */
  step(): Promise<TraceStep | null>;
  /** Runs until the end, a breakpoint, an approval or pause(); the breakpoints, conditions and speed are `rules`, data read between nodes. */
  run(rules?: PauseRules): Promise<void>;
  pause(): void | Unsupported;
  stop(): void | Unsupported;
  /** Answers a pending approval; the run continues with `step()` or `run()`. */
  decide(decision: 'approved' | 'denied'): void | Promise<void>;
  /** The state after `step` (0: the initial state); null if not kept. */
  stateAt(step: number): Promise<Record<string, unknown> | null>;
  /**
   * A run that keeps steps 1..`atStep` of this one as they ran (no skill is called again), takes
   * the state after `atStep` with the edits (as if that step's node had written them, so its edge
   * is chosen again) and is ready to go on with `run()` or `step()`. Throws when an edit does not
   * fit the state schema, naming the path.
   */
  fork(atStep: number, edits: ForkEdits): Promise<RunController | Unsupported>;
}

/** The run in this page: everything the contract says, and its journal and checkpoints to keep and restore it. */
export interface LocalRunController extends RunController {
  /** The state after the last executed step. */
  readonly state: Record<string, unknown>;
  /** The recorded changes of the run (empty when `record` is off). */
  readonly journal: readonly JournalEntry[];
  pause(): void;
  stop(): void;
  decide(decision: 'approved' | 'denied'): void;
  /** Read from its checkpoint or rebuilt from the journal. */
  stateAt(step: number): Promise<Record<string, unknown> | null>;
  /** A new run of this page (forks are always supported here). */
  fork(atStep: number, edits: ForkEdits): Promise<LocalRunController>;
  /** Settles when every change asked of the run so far has reached its checkpointer. */
  settled(): Promise<void>;
}

/** Whether a controller is a run in this page, with a journal to keep it by. */
export const isLocalRun = (controller: RunController): controller is LocalRunController => 'journal' in controller;

export type CreateController = (graph: GraphFile, options?: RunOptions) => LocalRunController;
