/**
 * A run's journal as pure functions: the run's channel updates in order (`JournalEntry`,
 * controller.ts), the first the whole initial state, as the checkpointer records them
 * (checkpointer.ts). The controller (run.ts) records each node's step with `stepOf`; folding the
 * journal gives the values at any step, which is how a step whose checkpoint the bounded
 * checkpointer dropped is read (`valuesAt`), how a run stored by the page comes back after a reload
 * (`foldJournal`, `journalSteps`) and what a fork inherits (`journalUpTo`).
 */
import type { JournalEntry } from './controller.ts';
import { agentState, type RunValues } from './state.ts';
import type { TraceStep } from './trace.ts';

/** The trace step a node's update carries, with the state before it (`before`, the values) unless the run keeps compact steps. */
export const stepOf = (before: RunValues, update: Record<string, unknown>, compact: boolean | undefined): TraceStep => {
  const step = update._step as TraceStep;
  return compact ? step : { ...step, stateBefore: agentState(before) };
};

/** Puts a step into a run's steps in place (a long run's steps are not copied per node): an edit of a step (a stop, a fork's new route) replaces its record. */
export const putStep = (steps: TraceStep[], step: TraceStep): void => {
  if (steps.at(-1)?.step === step.step) steps[steps.length - 1] = step;
  else steps.push(step);
};

/** The values after folding journal entries (each a channel update) in order over `from`. */
export const foldJournal = (entries: readonly JournalEntry[], from?: Record<string, unknown>): Record<string, unknown> => {
  let values: Record<string, unknown> = from ?? {};
  for (const entry of entries) values = { ...values, ...entry.update };
  return values;
};

/** The trace steps a journal recorded, each as its last update left it. */
export const journalSteps = (entries: readonly JournalEntry[]): TraceStep[] => {
  const steps: TraceStep[] = [];
  for (const { update } of entries) {
    const step = update._step as TraceStep | null | undefined;
    if (step) putStep(steps, step);
  }
  return steps;
};

/** The index of the last entry at or before `step`, by binary search (entries are in step order); -1 when there is none. */
export const lastEntryAt = (entries: readonly JournalEntry[], step: number): number => {
  let low = 0;
  let high = entries.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (entries[middle].step <= step) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
};

/** The entries up to and including `step`'s last: what a fork from `step` inherits. */
export const journalUpTo = (entries: readonly JournalEntry[], step: number): JournalEntry[] => entries.slice(0, lastEntryAt(entries, step) + 1);

/** A run as `valuesAt` reads it. */
export interface RunAtHand {
  /** The run's channels (`channelNames`, state.ts). */
  channels: readonly string[];
  /** The values after the run's last step. */
  values: RunValues;
  journal: readonly JournalEntry[];
  /** The channel values of the thread's kept checkpoints, newest first (read only when an earlier step is asked for). */
  kept: Iterable<Readonly<Record<string, unknown>>>;
}

/**
 * The channel values after `step`: the run's own values for its last step, the checkpoint kept for
 * it, else the nearest kept one before it with the journal replayed from there (or the whole
 * journal); null when neither holds it.
 */
export const valuesAt = (run: RunAtHand, step: number): RunValues | null => {
  if (step === run.values._run.step) return run.values;
  if (step > run.values._run.step || step < 0) return null;
  // A field nothing had written is kept in the checkpoint as undefined (langgraphInternals.ts, FieldChannel).
  const fromCheckpoint = (values: Readonly<Record<string, unknown>>) =>
    Object.fromEntries(run.channels.filter((name) => Object.hasOwn(values, name) && values[name] !== undefined).map((name) => [name, values[name]]));
  let base: Record<string, unknown> | undefined;
  for (const values of run.kept) {
    const at = (values._run as RunValues['_run'] | undefined)?.step;
    if (at === undefined || at > step) continue;
    if (at === step) return fromCheckpoint(values) as RunValues;
    base = fromCheckpoint(values);
    break;
  }
  const end = lastEntryAt(run.journal, step);
  if (end < 0) return null;
  const startAt = base ? lastEntryAt(run.journal, (base._run as RunValues['_run']).step) + 1 : 0;
  return foldJournal(run.journal.slice(startAt, end + 1), base) as RunValues;
};

/** A stop in words, as a run's ledger held it before stops were data. */
const isSaidStop = (stop: unknown): stop is { reason: string; explain: string } =>
  typeof stop === 'object' && stop !== null && typeof (stop as { explain?: unknown }).explain === 'string';

/**
 * A journal entry the page stored before stops were data, its ledger's stop (and the stop a
 * `finally` node closes) in words: those become a `said` stop, shown as they were (stepWords.ts).
 * An entry of today comes back as it is.
 */
export const stopsAsData = (entry: JournalEntry): JournalEntry => {
  const run = entry.update._run as Record<string, unknown> | undefined;
  if (!run || !(isSaidStop(run.stop) || isSaidStop(run.closing))) return entry;
  const said = (stop: unknown) => (isSaidStop(stop) ? { reason: stop.reason, why: { is: 'said', words: stop.explain } } : stop);
  return { ...entry, update: { ...entry.update, _run: { ...run, stop: said(run.stop), ...('closing' in run ? { closing: said(run.closing) } : {}) } } };
};
