import type { Action, NodeKind, NodeOfKind, RetryPolicy } from '../../graph/index.ts';
import type { GraphFile } from '../../graph/schema.ts';
import type { ToolDescription } from '../../skills/index.ts';
import type { ActionRun, Interpret, RetryArgs } from '../retry.ts';
import type { Attempt, Given, Guard, Iteration, StepNote } from '../trace.ts';

export interface NodeContext<K extends NodeKind = NodeKind> {
  node: NodeOfKind<K>;
  graph: GraphFile;
  /** The state before the node; a node returns its writes instead of changing it. */
  state: Readonly<Record<string, unknown>>;
  round: number;
  /** How many times this node ran before. */
  visits: number;
  /** The step at which each field group was last written (0: initial state), to tell what happened since. */
  lastWritten: Readonly<Record<string, number>>;
  runAction: (action: Action, policy: RetryPolicy, index: number, interpret?: Interpret, retryArgs?: RetryArgs) => Promise<ActionRun>;
  /** What a decider is told of a tool: its name, description and (an MCP tool's) input schema. */
  describeTool?: (skill: string) => Promise<ToolDescription>;
  /** Tells about an attempt recorded without a call (a tool the loop refused), as runAction's are told. */
  tell?: (attempt: Attempt) => void;
  /** Tokens left under the budget; null without one. */
  budgetLeft: () => number | null;
  /** The person's answer when an approve node runs interactively; undefined when headless. */
  decision?: 'approved' | 'denied';
  /** Grants the skill one call; `byPerson`: a live person decided it (`decision`), which may lift the person's own grant. */
  grant: (skill: string, byPerson: boolean) => void;
}

export interface NodeResult {
  outcome: string | null;
  writes: Record<string, unknown>;
  attempts: Attempt[];
  /** What the node concluded: as data, or in a sentence. */
  note: StepNote;
  blindRetry?: boolean;
  /** Terminal kinds end the run. */
  stop?: Guard;
  /** The budget ran out inside the node, before a retry attempt. */
  budgetStop?: Guard | null;
  /** An inner loop's iterations, its bound, and what its decider was given (a judge's too). */
  iterations?: Iteration[];
  maxIter?: number;
  given?: Given;
}

export type Executor<K extends NodeKind> = (context: NodeContext<K>) => Promise<NodeResult>;

export const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The `results` entry of one action, as the state's field shapes (fieldShapesOf) describe it. */
export const resultOf = (run: ActionRun) => ({
  skill: run.skill, args: run.args, outcome: run.outcome, records: run.records,
  ...(run.error ? { error: run.error } : {}), attempts: run.attempts.length,
});
