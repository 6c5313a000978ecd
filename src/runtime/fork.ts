/**
 * A fork as a pure function: from a run (its steps, its journal, its values after the step forked
 * from) and what a person changed (`ForkEdits`), the values a new run starts from and what it keeps.
 * The state is a value, so a fork is just a resume: the controller (run.ts) seeds a new thread
 * with these values as an update by the node of the step forked from (its edge is chosen again by
 * LangGraph from the edited state) and runs on; no step before it runs again.
 */
import { describeProblems, kindDefinition, nodeById, outcomesOf, own, type GraphFile } from '../graph/index.ts';
import { parseStateEdit } from '../graph/state.ts';
import type { ForkEdits, JournalEntry } from './controller.ts';
import { journalUpTo } from './journal.ts';
import { agentState, type RunValues } from './state.ts';
import { routeAfter, stopFields } from './step.ts';
import type { Trace, TraceStep } from './trace.ts';

/** Stops a person may undo by forking: a changed state may find a route, a person's stop is theirs to lift. */
const LIFTED_BY_A_FORK = new Set(['no_route', 'user_stopped']);

/** The run forked from, as the fork reads it. */
export interface ForkSource {
  graph: GraphFile;
  /** Its trace steps (none when it keeps none). */
  steps: readonly TraceStep[];
  journal: readonly JournalEntry[];
  /** Its steps leave out `stateBefore`. */
  compact?: boolean;
  /** Its channel values after the step forked from, or null when they were not kept. */
  base: RunValues | null;
}

/** Where a fork starts. */
export interface ForkStart {
  values: RunValues;
  /** Steps 1..N-1 as they ran, then step N with its route chosen again. */
  steps: TraceStep[];
  /** The journal up to step N, then the fork's changes as one entry. */
  journal: JournalEntry[];
  /** The node the new thread is seeded as (the one step N ran); null for a fork from step 0, whose values are the run's input. */
  seedNode: string | null;
  forkedFrom: NonNullable<Trace['forkedFrom']>;
}

/**
 * The start of a run that keeps steps 1..`atStep` of `source` and goes on from the state after
 * `atStep` with `edits` (controller.ts, `RunController.fork`). Throws, naming what is wrong, when
 * an edit does not fit the state, the state was not kept, there is no such step, a guard stopped
 * the run before that step's node ran, or the outcome is not one of its kind's.
 */
export const forkStart = (source: ForkSource, atStep: number, edits: ForkEdits): ForkStart => {
  const { graph, base } = source;
  const edited = parseStateEdit(edits.state ?? {}, graph);
  if (!edited.ok) throw new Error(`the edited state does not fit: ${describeProblems(edited.problems)}`);
  if (!base) throw new Error(`the state after step ${atStep} was not kept`);
  const from = source.steps[atStep - 1] ?? (base._step?.step === atStep ? base._step : null);
  if (atStep > 0 && !from) throw new Error(`run has no step ${atStep}`);
  if (from && from.guard && from.attempts.length === 0) throw new Error(`step ${atStep} did not run its node (a guard stopped the run before it): fork from the step before`);
  const overrides = { ...base._run.overrides };
  for (const [skill, entries] of Object.entries(edits.nextResults ?? {})) overrides[skill] = [...entries, ...(own(overrides, skill) ?? [])];
  const liftStop = base._run.stop && LIFTED_BY_A_FORK.has(base._run.stop.reason);
  const liftClosing = base._run.closing && LIFTED_BY_A_FORK.has(base._run.closing.reason);
  const run = { ...base._run, overrides, decision: null, ...(liftStop ? { stop: null } : {}), ...(liftClosing ? { closing: null } : {}) };
  const outcomeChanged = edits.outcome !== undefined && edits.outcome !== run.outcome;
  if (outcomeChanged) {
    const fromNode = from && nodeById(graph, from.node);
    const outcomes = fromNode ? outcomesOf(fromNode) : [];
    if (!from || !outcomes.includes(edits.outcome as string))
      throw new Error(`"${edits.outcome}" is not an outcome of step ${atStep}${from ? ` (a ${from.kind} node has ${outcomes.join(', ') || 'none'})` : ''}`);
    run.outcome = edits.outcome as string;
  }
  let step = from;
  if (from && !run.stop && !run.closing && !kindDefinition(from.kind).terminal) {
    const route = routeAfter(graph, from.node, run.outcome, agentState({ ...base, ...edited.value }));
    step = { ...from, outcome: run.outcome, edges: route.edges, fired: route.fired };
    delete step.stop;
    delete step.stateBefore;
    if (route.stop) {
      Object.assign(run, stopFields(graph, route.stop));
      if (route.stop.reason !== 'error') step.stop = route.stop;
    }
  }
  const patch = { ...edited.value, _run: run, _step: step };
  const inherited = source.steps.slice(0, Math.max(0, atStep - 1));
  return {
    values: { ...base, ...patch } as RunValues,
    steps: step ? [...inherited, source.compact ? step : { ...step, stateBefore: source.steps[atStep - 1]?.stateBefore } as TraceStep] : inherited,
    journal: [...journalUpTo(source.journal, atStep), { step: atStep, update: patch }],
    seedNode: atStep === 0 ? null : (from as TraceStep).node,
    forkedFrom: { step: atStep, edited: [...Object.keys(edited.value), ...(outcomeChanged ? ['outcome'] : [])], overridden: Object.keys(edits.nextResults ?? {}) },
  };
};
