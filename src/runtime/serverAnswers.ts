/**
 * The answers a thread's `interrupt()`s were given, by the step that waited: the server keeps them
 * only in the runs that resumed the thread (`Command({resume})` in each run's kwargs), and each
 * checkpoint names the run that wrote it (its metadata's `run_id`). The step that waited is done by
 * the run that resumed it, so its answer is the resume value of the run that wrote its checkpoint:
 * matched by identity, never by order (a fork after an interrupt resumes a branch, and runs of
 * other branches come between). A step inside a subgraph waited with the parent node whose step
 * comes after it, which that run wrote.
 */
import type { TraceStep } from './trace.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The resume value of each run that resumed an interrupt, by run id. */
export const resumesByRun = (runs: readonly unknown[]): Map<string, unknown> =>
  new Map(runs.flatMap((run) => {
    if (!isRecord(run) || typeof run.run_id !== 'string' || !isRecord(run.kwargs) || !isRecord(run.kwargs.command)) return [];
    const { resume } = run.kwargs.command;
    return resume !== undefined && resume !== null ? [[run.run_id, resume] as const] : [];
  }));

/** The run that wrote each checkpoint, by checkpoint id (a checkpoint an edit made names none). */
export const writersOf = (states: readonly { checkpoint?: { checkpoint_id?: string | null } | null; metadata?: Record<string, unknown> | null }[]): Map<string, string> =>
  new Map(states.flatMap((state) => {
    const id = state.checkpoint?.checkpoint_id;
    const run = state.metadata?.run_id;
    return typeof id === 'string' && typeof run === 'string' ? [[id, run] as const] : [];
  }));

/** The answer each step that waited on an interrupt was given, by the checkpoint the step made. */
export const answersByStep = (steps: readonly TraceStep[], resumes: ReadonlyMap<string, unknown>, writers: ReadonlyMap<string, string>): Map<string, unknown> => {
  const found = new Map<string, unknown>();
  const waited = steps.filter((step) => step.server?.interrupts?.length);
  for (const [index, step] of waited.entries()) {
    if (!step.server) continue;
    // A subgraph's step takes the answer of its parent's step after it, which the run resumed.
    const answered = step.server.ns ? waited.slice(index + 1).find((later) => !later.server?.ns) : step;
    const run = answered?.server && writers.get(answered.server.checkpoint);
    if (run !== undefined && resumes.has(run)) found.set(step.server.checkpoint, resumes.get(run));
  }
  return found;
};
