/**
 * A LangGraph server thread read back as a Loopscope trace. A thread of a Loopscope export keeps
 * the whole run in each checkpoint: `_step` is the trace step of the node that ran last (attempts,
 * edges tried and why, the edge that fired) and `_run` the ledger. So the run's timeline is the
 * `_step` of each checkpoint along the thread's current branch (a fork made with `updateState`
 * starts a new branch from an older checkpoint), read newest first, a page at a time.
 */
import { describeProblems, parseUntrusted } from '../graph/index.ts';
import { agentState } from './state.ts';
import { Trace, TRACE_FORMAT, TRACE_VERSION, type TraceStep } from './trace.ts';

/** The part of an SDK `ThreadState` the trace is read from. */
export interface CheckpointState {
  values: Record<string, unknown>;
  next: string[];
  checkpoint: { checkpoint_id?: string | null };
  parent_checkpoint?: { checkpoint_id?: string | null } | null;
}

/** Whether a checkpoint's values come from a Loopscope graph (they carry the ledger). */
export const isLoopscopeState = (values: Readonly<Record<string, unknown>> | undefined): boolean =>
  typeof values?._run === 'object' && values._run !== null;

/**
 * The checkpoints of the branch that ends at `head`, newest first, from the pages fetched so far
 * (all of a thread's checkpoints, any branch, in any order); `complete` when it reaches the run's start.
 */
export const branchOf = (head: CheckpointState, fetched: readonly CheckpointState[]): { chain: CheckpointState[]; missing: string | null } => {
  const byId = new Map(fetched.map((state) => [state.checkpoint.checkpoint_id, state]));
  const chain = [head];
  let current = head;
  for (;;) {
    const parent = current.parent_checkpoint?.checkpoint_id;
    if (!parent) return { chain, missing: null };
    const found = byId.get(parent);
    if (!found) return { chain, missing: parent };
    // A run's first step needs nothing older: the checkpoints before it hold only the input.
    if (((current.values._step as TraceStep | null | undefined)?.step ?? 0) <= 1 && !(found.values._step as TraceStep | null | undefined)) return { chain, missing: null };
    chain.push(found);
    current = found;
  }
};

/**
 * The trace of a branch (newest first). Each step is the newest checkpoint's version of it (an
 * edit after a step, an approval, replaces its record); the result is checked like an imported
 * trace, since a server is another program's word.
 */
export const traceFromBranch = (graphName: string, chain: readonly CheckpointState[]): Trace => {
  const byStep = new Map<number, TraceStep>();
  for (const state of chain) {
    const step = state.values._step as TraceStep | null | undefined;
    if (step && !byStep.has(step.step)) byStep.set(step.step, step);
  }
  const steps = [...byStep.values()].sort((a, b) => a.step - b.step);
  const values = chain[0]?.values ?? {};
  const run = values._run as { seed?: number; roundsRan?: number; stop?: { reason: string; explain: string } | null } | undefined;
  const trace = {
    format: TRACE_FORMAT, version: TRACE_VERSION, graph: graphName, seed: run?.seed ?? 1,
    stopReason: run?.stop?.reason ?? null, rounds: run?.roundsRan ?? 0, tokensUsed: Number(values.tokensUsed ?? 0),
    finalState: agentState(values), steps, ...(run?.stop ? { stopExplain: run.stop.explain } : {}),
  };
  const parsed = parseUntrusted(Trace, trace);
  if (!parsed.ok) throw new Error(`the server's checkpoints are not a Loopscope run: ${describeProblems(parsed.problems)}`);
  return parsed.value;
};
