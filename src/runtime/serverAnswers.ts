/**
 * The answers a thread's `interrupt()`s were given, by the step that waited: the server keeps them
 * only in the runs that resumed the thread (`Command({resume})` in each run's kwargs), oldest first,
 * so they are matched in order to the steps of the graph itself that waited; a step inside a
 * subgraph waited with the parent node whose step comes after it.
 */
import type { TraceStep } from './trace.ts';

/** The resume values of a thread's runs (as the server lists them, newest first), oldest first. */
export const resumeValues = (runs: readonly unknown[]): unknown[] =>
  runs
    .flatMap((run) => {
      const command = (run as { kwargs?: { command?: { resume?: unknown } | null } | null } | null)?.kwargs?.command;
      return command && command.resume !== undefined && command.resume !== null ? [command.resume] : [];
    })
    .reverse();

/** The answer each step that waited on an interrupt was given, by the checkpoint the step made. */
export const answersByStep = (steps: readonly TraceStep[], answers: readonly unknown[]): Map<string, unknown> => {
  const found = new Map<string, unknown>();
  let next = 0;
  const waited = steps.filter((step) => step.server?.interrupts?.length);
  for (const [index, step] of waited.entries()) {
    if (!step.server) continue;
    // A subgraph's step takes the answer of its parent's step after it, which the run resumed.
    const answered = step.server.ns ? waited.slice(index + 1).find((later) => !later.server?.ns) : step;
    if (!answered) continue;
    const at = step.server.ns ? next : next++;
    if (at < answers.length) found.set(step.server.checkpoint, answers[at]);
  }
  return found;
};
