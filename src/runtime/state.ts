/**
 * The run state as LangGraph channels. Everything a run needs is a plain JSON value in a channel,
 * so a checkpoint is the whole run: the agent state (the graph's initial fields, the runtime's
 * `round`/`steps`/`tokensUsed`, each kind's field group), the ledger `_run` (what a home-made engine
 * would keep in private fields: visits, mock script positions, grants (and which a person gave), a fork's overrides, when each
 * field was last written, the outcome edges route on, a person's decision, the stop), and `_step`,
 * the trace step of the node that ran last.
 */
import { z } from '../graph/zod.ts';
import { type GraphFile } from '../graph/index.ts';
import { MockEntry } from '../graph/skills.ts';
import { stateFieldsOf, stateKeyRefusal } from '../graph/state.ts';
import { Guard, TraceStep } from './trace.ts';

export const RUN_CHANNEL = '_run';
export const STEP_CHANNEL = '_step';

const Counts = z.record(z.string(), z.int().check(z.gte(0)));

/** The run's stop, as data (trace.ts `StopWhy`; stepWords.ts words it). */
export const Stop = Guard;
export type Stop = Guard;

export const RunLedger = z.strictObject({
  seed: z.int(),
  /** The number of the last trace step (forks and edits leave `steps` to the person; this stays in order). */
  step: z.int().check(z.gte(0)),
  /** The last round a node ran in: a round a guard stops before its first node does not count. */
  roundsRan: z.int().check(z.gte(0)),
  visits: Counts,
  /** Mock script entries served so far, per skill. */
  scripts: Counts,
  /** One-time grants from approvals, per skill. */
  grants: Counts,
  /**
   * Of `grants`, those a live person decided (not the file's `auto` or `answers`): only these may
   * lift what the person granted the run (RunDeps.granted) for a real call. Absent: none.
   */
  personGrants: z.optional(Counts),
  /** Results a fork serves before a skill's own (script or real call). */
  overrides: z.record(z.string(), z.array(MockEntry)),
  /** The step at which each field group was last written (0: the initial state). */
  lastWritten: Counts,
  /** The outcome of the node that ran last: the edges out of it route on it. */
  outcome: z.nullable(z.string()),
  /** A person's answer for the approve node that runs next. */
  decision: z.nullable(z.enum(['approved', 'denied'])),
  stop: z.nullable(Stop),
  /**
   * The stop the graph's `finally` node keeps: set when the run stopped for a reason that gets a
   * final response, until that node has written it (then it becomes `stop`).
   */
  closing: z.optional(z.nullable(Stop)),
});
export type RunLedger = z.infer<typeof RunLedger>;

/** All channel values of a run: the agent state plus `_run` and `_step`. */
export type RunValues = Record<string, unknown> & { _run: RunLedger; _step: TraceStep | null };

/**
 * The channels of a graph's run, in a stable order: the state fields its run has (a channel for a
 * kind the graph does not use would only cost LangGraph an empty read at every step), then the
 * ledger and the step record.
 */
export const channelNames = (graph: GraphFile): string[] => [...stateFieldsOf(graph), RUN_CHANNEL, STEP_CHANNEL];

/** Why this graph's initial state keeps the run from starting (a field it cannot have), or undefined. */
export const refusedState = (graph: GraphFile): string | undefined =>
  Object.keys(graph.state).map(stateKeyRefusal).find((refusal) => refusal !== null) ?? undefined;

/** The values a run starts from: the graph's state and a fresh ledger. */
export const initialValues = (graph: GraphFile, seed: number): RunValues => ({
  ...structuredClone(graph.state),
  round: 1,
  steps: 0,
  tokensUsed: 0,
  _run: {
    seed, step: 0, roundsRan: 0, visits: {}, scripts: {}, grants: {}, overrides: {},
    lastWritten: Object.fromEntries(Object.keys(graph.state).map((key) => [key, 0])),
    outcome: null, decision: null, stop: null,
  },
  _step: null,
});

/** The agent state of the values: what nodes, conditions and people read. */
export const agentState = (values: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const { [RUN_CHANNEL]: _run, [STEP_CHANNEL]: _step, ...agent } = values;
  return agent;
};

/** The agent state a run of this graph starts from (the seed is the ledger's alone). */
export const initialState = (graph: GraphFile): Record<string, unknown> => agentState(initialValues(graph, 1));

/** Channel values checked as a whole (a journal read back from storage is untrusted). */
export const RunValuesSchema = z.looseObject({ _run: RunLedger, _step: z.nullable(TraceStep) });
