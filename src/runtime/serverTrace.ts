/**
 * A LangGraph server thread read back as a Loopscope trace. A thread of a Loopscope export keeps
 * the whole run in each checkpoint: `_step` is the trace step of the node that ran last (attempts,
 * edges tried and why, the edge that fired) and `_run` the ledger. So the run's timeline is the
 * `_step` of each checkpoint along the thread's current branch (a fork made with `updateState`
 * starts a new branch from an older checkpoint), read newest first, a page at a time.
 */
import { describeProblems } from '../graph/index.ts';
import { agentState } from './state.ts';
import { parseTrace, TRACE_FORMAT, TRACE_VERSION, type Trace, type TraceStep } from './trace.ts';

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
    if (isLoopscopeState(current.values) && ((current.values._step as TraceStep | null | undefined)?.step ?? 0) <= 1 && !found.values._step) return { chain, missing: null };
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
  const values = chain[0]?.values ?? {};
  if (!isLoopscopeState(values)) return checked({
    format: TRACE_FORMAT, version: TRACE_VERSION, graph: graphName, seed: 0, stopReason: chain[0]?.next.length ? null : 'completed',
    rounds: 1, tokensUsed: 0, finalState: values, steps: plainSteps(chain),
  });
  const byStep = new Map<number, TraceStep>();
  for (const state of chain) {
    const step = state.values._step as TraceStep | null | undefined;
    if (step && !byStep.has(step.step)) byStep.set(step.step, step);
  }
  const steps = [...byStep.values()].sort((a, b) => a.step - b.step);
  const run = values._run as { seed?: number; roundsRan?: number; stop?: { reason: string; explain: string } | null } | undefined;
  return checked({
    format: TRACE_FORMAT, version: TRACE_VERSION, graph: graphName, seed: run?.seed ?? 1,
    stopReason: run?.stop?.reason ?? null, rounds: run?.roundsRan ?? 0, tokensUsed: Number(values.tokensUsed ?? 0),
    finalState: agentState(values), steps, ...(run?.stop ? { stopExplain: run.stop.explain } : {}),
  });
};

const checked = (trace: unknown): Trace => {
  const parsed = parseTrace(trace);
  if (!parsed.ok) throw new Error(`the server's thread does not read as a trace: ${describeProblems(parsed.problems)}`);
  return parsed.value;
};

/**
 * The steps of a graph that is not a Loopscope export, from what its checkpoints give: each
 * checkpoint's `next` names the nodes that ran to make the one after it, and the fields that
 * changed between the two are their writes.
 */
export const plainSteps = (chain: readonly CheckpointState[]): TraceStep[] => {
  const steps: TraceStep[] = [];
  for (let index = chain.length - 1; index > 0; index -= 1) {
    const before = chain[index];
    const after = chain[index - 1];
    const writes = Object.fromEntries(Object.entries(after.values).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before.values[key])));
    for (const node of before.next.filter((name) => !name.startsWith('__')))
      steps.push({
        step: steps.length + 1, round: 1, node, kind: 'act', outcome: null, attempts: [], reads: [], writes, edges: [], fired: null, guard: null, durationMs: 0,
        note: 'a graph that is not a Loopscope export: the server tells which node ran and what changed',
      });
  }
  return steps;
};
