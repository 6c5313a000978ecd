/**
 * A fork of a thread of a LangGraph graph Loopscope did not make, as LangGraph itself (and Studio)
 * forks: the step's node is run again in the person's words. A step's own writes are what its node
 * returned (the task's `result` in the checkpoint it ran from), not the whole state; the fork is an
 * `updateState` of that checkpoint with the edited writes `asNode` the node, so each reducer applies
 * them once, in place of what the node wrote (a concat reducer is not given its list again). A
 * node that routes with `Command({ goto })` leaves no route in its writes: the edit says where to
 * go, and the run goes there. Every fork is a new child of the checkpoint the step ran from: the
 * branches of a step are that checkpoint's children, each reachable.
 */
import type { CheckpointState } from './serverTrace.ts';
import type { TraceStep } from './trace.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The writes a step's node returned, from the checkpoint it ran from (its task of that name), or
 * null when the server did not keep them (an edit, a server that lists no results).
 */
export const ownWrites = (fetched: readonly CheckpointState[], step: Pick<TraceStep, 'server'>): Record<string, unknown> | null => {
  const server = step.server;
  if (!server || server.edit || !server.parentCheckpoint) return null;
  const ranFrom = fetched.find((state) => state.checkpoint.checkpoint_id === server.parentCheckpoint);
  const tasks = (Array.isArray(ranFrom?.tasks) ? ranFrom.tasks : []).filter((task) => task.name === server.name);
  const task = tasks[(server.parallel?.index ?? 1) - 1] ?? tasks[0];
  return task && isRecord(task.result) ? task.result : null;
};

/** What the server is asked for a fork of `step`: `updateState` of the checkpoint it ran from, as its node; then, for a Command's route, where to go. */
export interface ForkRequest {
  checkpointId: string;
  asNode: string;
  values: Record<string, unknown>;
  /** Where the run goes after the edit when the node routes with `Command({ goto })` (a routing function chooses again by itself). */
  goto: string | null;
}

/** The fork of `step` with its own writes edited to `values` (the writes to apply, whole), or why there is none. */
export const forkRequest = (step: Pick<TraceStep, 'server' | 'step'>, values: Record<string, unknown>, goto: string | null = null): ForkRequest | { refused: string } => {
  const server = step.server;
  if (!server?.parentCheckpoint) return { refused: `step ${step.step} has no checkpoint it ran from on the server` };
  if (goto !== null && !server.targets.includes(goto)) return { refused: `${goto} is not one of the places ${server.name} can go to (${server.targets.join(', ')})` };
  return { checkpointId: server.parentCheckpoint, asNode: server.name, values, goto };
};

/** A branch of a thread: a child of the checkpoint a step ran from, and the newest checkpoint that descends from it. */
export interface Branch {
  /** The first checkpoint of the branch (a child of the checkpoint the step ran from). */
  first: string;
  /** The branch's newest checkpoint: showing the branch shows the run that ends there. */
  head: string;
  /** How it started: the node's run as it went, or an edit (a fork). */
  edited: boolean;
}

/**
 * The branches that part at checkpoint `parent`, oldest first, from the checkpoints read (any
 * branch, newest first as the server lists them); none when only one goes on from it.
 */
export const branchesAt = (fetched: readonly CheckpointState[], parent: string): Branch[] => {
  const parentOf = new Map(fetched.map((state) => [state.checkpoint.checkpoint_id, state.parent_checkpoint?.checkpoint_id ?? null]));
  const children = fetched.filter((state) => state.parent_checkpoint?.checkpoint_id === parent);
  if (children.length < 2) return [];
  /** Whether `id` descends from `ancestor` (bounded: a server's parents may go round). */
  const descends = (id: string | null | undefined, ancestor: string) => {
    for (let at = id, hops = 0; at && hops <= fetched.length; at = parentOf.get(at) ?? null, hops += 1) if (at === ancestor) return true;
    return false;
  };
  return children.reverse().map((child) => {
    const first = String(child.checkpoint.checkpoint_id);
    const head = fetched.find((state) => descends(state.checkpoint.checkpoint_id, first))?.checkpoint.checkpoint_id ?? first;
    return { first, head: String(head), edited: child.metadata?.source === 'update' };
  });
};
