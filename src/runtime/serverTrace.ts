/**
 * A LangGraph server thread read back as a Loopscope trace. A thread of a Loopscope export keeps
 * the whole run in each checkpoint: `_step` is the trace step of the node that ran last (attempts,
 * edges tried and why, the edge that fired) and `_run` the ledger. So the run's timeline is the
 * `_step` of each checkpoint along the thread's current branch (a fork made with `updateState`
 * starts a new branch from an older checkpoint), read newest first, a page at a time.
 */
import { describeProblems, KIND_LIST, NODE_KINDS } from '../graph/index.ts';
import type { Reason } from '../graph/reason.ts';
import { asMessages, messageChannels, tokensIn } from './messages.ts';
import { errorWords } from './serverEvents.ts';
import { drawnIdOf, edgesLeaving, END_NODE, type ServerDrawing } from './serverGraph.ts';
import { traceOfValues } from './runTrace.ts';
import { parseTrace, TRACE_FORMAT, TRACE_VERSION, type EdgeCheck, type Note, type ServerStep, type Trace, type TraceStep } from './trace.ts';

/** The kind a step of a node Loopscope did not make is recorded as: the one with `foreignSteps` (kinds.test.ts checks there is one). */
const FOREIGN_KIND = KIND_LIST.find((definition) => definition.foreignSteps)?.kind ?? NODE_KINDS[0];

/** A task of a checkpoint, as the server lists it: the node it runs, and what came of it so far. */
export interface CheckpointTask {
  name: string;
  /** The task's id, which its run's events name too. */
  id?: string | null;
  /** Where the task came from: `['__pregel_push', …]` for one a `Send` started. */
  path?: readonly unknown[] | null;
  /** What the task returned, its own writes (once it has run). */
  result?: unknown;
  error?: string | null;
  interrupts?: readonly { value?: unknown }[] | null;
  /** Set when the task runs a subgraph: the namespace of the subgraph's checkpoints. */
  checkpoint?: { checkpoint_ns?: string | null } | null;
}

/** The part of an SDK `ThreadState` the trace is read from. */
export interface CheckpointState {
  values: Record<string, unknown>;
  next: string[];
  checkpoint: { checkpoint_id?: string | null; checkpoint_ns?: string | null };
  parent_checkpoint?: { checkpoint_id?: string | null } | null;
  metadata?: Record<string, unknown> | null;
  tasks?: readonly CheckpointTask[] | null;
}

/** Whether a checkpoint's values come from a Loopscope graph (they carry the ledger). */
export const isLoopscopeState = (values: Readonly<Record<string, unknown>> | undefined): boolean =>
  typeof values?._run === 'object' && values._run !== null;

/** The longest branch read: a thread's history is another program's answer, and a page must not hang on it. */
export const MAX_BRANCH = 5_000;

/**
 * The checkpoints of the branch that ends at `head`, newest first, from the pages fetched so far
 * (all of a thread's checkpoints, any branch, in any order); `complete` when it reaches the run's
 * start. Parents that go round in a circle (a server that lies) are refused with an error naming
 * the checkpoint, and the walk stops at MAX_BRANCH checkpoints.
 */
export const branchOf = (head: CheckpointState, fetched: readonly CheckpointState[]): { chain: CheckpointState[]; missing: string | null } => {
  const byId = new Map(fetched.map((state) => [state.checkpoint.checkpoint_id, state]));
  const chain = [head];
  const seen = new Set([head.checkpoint.checkpoint_id]);
  let current = head;
  for (;;) {
    const parent = current.parent_checkpoint?.checkpoint_id;
    if (!parent) return { chain, missing: null };
    if (seen.has(parent)) throw new Error(`the server's checkpoints go round in a circle: checkpoint ${parent} is its own ancestor, so the thread cannot be read`);
    if (chain.length >= MAX_BRANCH) throw new Error(`the thread's branch is longer than ${MAX_BRANCH} checkpoints: Loopscope reads at most that many`);
    const found = byId.get(parent);
    if (!found) return { chain, missing: parent };
    // A run's first step needs nothing older: the checkpoints before it hold only the input.
    if (isLoopscopeState(current.values) && ((current.values._step as TraceStep | null | undefined)?.step ?? 0) <= 1 && !found.values._step) return { chain, missing: null };
    seen.add(parent);
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
  if (!isLoopscopeState(values)) return foreignTrace(graphName, chain, null);
  const byStep = new Map<number, TraceStep>();
  for (const state of chain) {
    const step = state.values._step as TraceStep | null | undefined;
    if (step && !byStep.has(step.step)) byStep.set(step.step, step);
  }
  const steps = [...byStep.values()].sort((a, b) => a.step - b.step);
  return checked(traceOfValues(graphName, values, steps));
};

const checked = (trace: unknown): Trace => {
  const parsed = parseTrace(trace);
  if (!parsed.ok) throw new Error(`the server's thread does not read as a trace: ${describeProblems(parsed.problems)}`);
  return parsed.value;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const valuesOf = (state: CheckpointState): Record<string, unknown> => (isRecord(state.values) ? state.values : {});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const names = (list: unknown): string[] => (Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : []);

/** The tasks a checkpoint ran next: its task list, or its `next` names when it lists none that hold. */
const tasksOf = (state: CheckpointState): CheckpointTask[] => {
  const listed = (Array.isArray(state.tasks) ? state.tasks : []).filter((task): task is CheckpointTask => isRecord(task) && typeof task.name === 'string');
  return listed.length > 0 ? listed : names(state.next).map((name) => ({ name }));
};

/** The channels whose values differ, with their values after. */
const changedChannels = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(after).filter(([key, value]) => !Object.hasOwn(before, key) || !same(value, before[key])));

/** Tokens the messages of a state report (usage_metadata of ai messages, in every messages channel). */
export const stateTokens = (values: Readonly<Record<string, unknown>>): number =>
  messageChannels(values).reduce((sum, channel) => sum + tokensIn(asMessages(values[channel], channel) ?? []), 0);

/** The node a target id stands for, seen from a node in `group`: outside the group as it is, inside it down to the group's own level. */
const levelOf = (target: string, group: string | null) => {
  const prefix = group ? `${group}:` : '';
  if (!target.startsWith(prefix)) return target;
  return prefix + target.slice(prefix.length).split(':')[0];
};

const lastPart = (id: string) => id.split(':').at(-1) as string;

/** Where the step's node could go and where it went, as the step's note says it and as the edge that fired. */
const routeOf = (drawing: ServerDrawing | null, id: string, group: string | null, next: string[], ended: boolean, inSubgraph: boolean) => {
  const leaving = drawing ? edgesLeaving(drawing, id) : [];
  const targetOf = new Map(leaving.map((edge) => [edge, levelOf(edge.target, group)]));
  const targets = [...new Set(targetOf.values())];
  const chose = drawing
    ? next.length > 0 ? targets.filter((target) => next.includes(target)) : ended && !inSubgraph && targets.includes(END_NODE) ? [END_NODE] : []
    : next;
  const conditional = leaving.some((edge) => edge.conditional);
  const fired = leaving.find((edge) => targetOf.get(edge) === chose[0]) ?? null;
  const label = fired?.label ?? leaving.find((edge) => edge.conditional && edge.label)?.label ?? null;
  // Each target once per task it was sent to (`Send`): the words count them.
  const sent = chose.flatMap((target) => Array.from({ length: Math.max(1, next.filter((name) => name === target).length) }, () => lastPart(target)));
  const why: Reason = { is: 'route', conditional, ...(drawing ? {} : { drawn: false }), ...(conditional && label ? { label } : {}), chose: sent, of: targets.map(lastPart), matched: true };
  // The step's note (stepWords.ts words it): why it went where it went, or where the run (or subgraph) ended; neither: no edge.
  const said = chose.length > 0 ? { why } : inSubgraph && next.length === 0 ? { ended: 'subgraph' as const } : ended ? { ended: 'run' as const } : {};
  const edges: EdgeCheck[] = leaving.map((edge) => {
    const taken = chose.includes(targetOf.get(edge) as string);
    return { id: edge.id, target: lastPart(targetOf.get(edge) as string), matched: taken, why: { is: 'route', conditional: edge.conditional, matched: taken } };
  });
  return { targets, chose, conditional, said, edges, fired: fired && chose[0] ? { id: fired.id, target: lastPart(chose[0]), why } : null };
};

/** A subgraph's own steps, newest checkpoint first, by the namespace of its checkpoints. */
export type SubgraphChains = ReadonlyMap<string, readonly CheckpointState[]>;

/**
 * The steps of a graph that is not a Loopscope export, from what its checkpoints give (SPEC §8):
 * each checkpoint's tasks are the nodes that ran to make the one after it; the channels that changed
 * are their writes; the next checkpoint's `next` is where the node's edges went, read against the
 * server's drawing (`routeOf`). A task that ran a subgraph has the subgraph's own steps before it,
 * with their namespace and parent node, when `subgraphs` holds them. An `updateState` (a fork) is a
 * step of its own, marked as an edit. Each step after a change of namespace carries the state it
 * started from, so any step's state is its writes over that.
 */
export const foreignSteps = (chain: readonly CheckpointState[], drawing: ServerDrawing | null, subgraphs: SubgraphChains = new Map(), where: { ns?: string; parent?: string; round?: number } = {}): TraceStep[] => {
  const ordered = [...chain].reverse();
  const ns = where.ns ?? '';
  const group = ns ? drawnIdOf('', ns).slice(0, -1) : null;
  const steps: TraceStep[] = [];
  let round = 0;
  let previous: Record<string, unknown> | null = null;
  let lastRan: string | null = null;
  for (let index = 0; index < ordered.length; index += 1) {
    const before = ordered[index];
    const after = ordered[index + 1];
    // A Command's goto after an edit is an input of its own, not a new run.
    if ((before.metadata?.source === 'input' && ordered[index - 1]?.metadata?.source !== 'update') || index === 0) round += 1;
    if (!after) break;
    const afterValues = valuesOf(after);
    const edit = after.metadata?.source === 'update';
    const pending = tasksOf(before).filter((task) => !task.name.startsWith('__'));
    // An edit names its node in its metadata's writes (Python servers); one made in place of the node about to run (Loopscope's fork, as Studio's) took that node's turn, so it is not next any more; else it is made as the node that ran before it (LangGraph's own guess).
    const inPlaceOf = pending.length === 1 && !names(after.next).includes(pending[0].name) ? pending[0].name : null;
    const editedAs: string | null = Object.keys(isRecord(after.metadata?.writes) ? after.metadata.writes : {})[0] ?? inPlaceOf ?? lastRan;
    const tasks: CheckpointTask[] = edit ? (editedAs ? [{ name: editedAs }] : []) : pending;
    if (tasks.length === 0) continue;
    // After an edit in place of a node that routes with Command({goto}), the run's goto (a Command input, its own checkpoint) is where the edit went.
    const goto = edit && names(after.next).length === 0 && ordered[index + 2]?.metadata?.source === 'input' ? names(ordered[index + 2].next) : [];
    const next = (goto.length > 0 ? goto : names(after.next)).map((name) => drawnIdOf(name, ns));
    const ended = next.length === 0 && !(after.tasks ?? []).some((task) => task.interrupts?.length);
    const start = previous ?? valuesOf(before);
    const writes = changedChannels(start, afterValues);
    const superstep = tasks.length;
    tasks.forEach((task, at) => {
      // The tasks of a superstep write together once all have run: its change of state is the last task's to show, each task's own writes its `result`.
      const last = at === superstep - 1;
      const inner = task.checkpoint?.checkpoint_ns ? subgraphs.get(task.checkpoint.checkpoint_ns) : undefined;
      if (inner) steps.push(...foreignSteps(inner, drawing, subgraphs, { ns: task.checkpoint?.checkpoint_ns as string, parent: task.name, round: Math.max(round, 1) }));
      const id = drawnIdOf(task.name, ns);
      const route = routeOf(drawing, id, group, next, ended, ns !== '');
      const interrupts = (task.interrupts ?? []).map((interrupt) => interrupt?.value);
      const stepBefore = steps.at(-1)?.server?.ns;
      const server: ServerStep = {
        name: task.name, checkpoint: String(after.checkpoint.checkpoint_id ?? ''), parentCheckpoint: before.checkpoint.checkpoint_id ?? null,
        ...(ns ? { ns, parent: where.parent ?? lastPart(group ?? '') } : {}),
        next: goto.length > 0 ? goto : names(after.next), targets: route.targets, chose: route.chose, conditional: route.conditional,
        ...(superstep > 1 ? { parallel: { index: at + 1, of: superstep } } : {}),
        ...(interrupts.length ? { interrupts } : {}),
        ...(typeof task.error === 'string' ? { error: errorWords(task.error) } : {}),
        ...(edit ? { edit: true as const } : {}),
        ...taskOwn(task),
      };
      const note: Note = edit ? { is: 'server_edit', node: task.name, goto } : { is: 'server_route', node: task.name, to: route.chose.map(lastPart), ...route.said };
      steps.push({
        step: 0, round: where.round ?? Math.max(round, 1), node: id, kind: FOREIGN_KIND, outcome: typeof task.error === 'string' ? 'error' : null, attempts: [], reads: [], writes: last ? writes : {},
        edges: route.edges, fired: route.fired, guard: null, durationMs: 0, note, tokensUsed: stateTokens(afterValues),
        // The state it started from, when the step before it was in another namespace (or there was none).
        ...(steps.length === 0 || stepBefore !== (ns || undefined) ? { stateBefore: start } : {}),
        server,
      });
    });
    previous = afterValues;
    lastRan = tasks.at(-1)?.name ?? lastRan;
  }
  // A task that threw made no checkpoint: it is the newest one's task, with its error.
  const head = ordered.at(-1);
  for (const task of head ? tasksOf(head).filter((candidate) => typeof candidate.error === 'string') : []) {
    const error = errorWords(task.error as string);
    const checkpoint = String(head?.checkpoint.checkpoint_id ?? '');
    steps.push({
      step: 0, round: where.round ?? Math.max(round, 1), node: drawnIdOf(task.name, ns), kind: FOREIGN_KIND, outcome: 'error', attempts: [], reads: [], writes: {},
      edges: [], fired: null, guard: null, durationMs: 0, note: { is: 'server_failed', node: task.name, error },
      ...(steps.at(-1)?.server?.ns !== (ns || undefined) || steps.length === 0 ? { stateBefore: previous ?? (head ? valuesOf(head) : {}) } : {}),
      server: {
        name: task.name, checkpoint, parentCheckpoint: checkpoint, ...(ns ? { ns, parent: where.parent ?? lastPart(group ?? '') } : {}),
        next: names(head?.next), targets: [], chose: [], conditional: false, error, ...taskOwn(task),
      },
    });
  }
  return steps;
};

/** What the history tells of a task itself: its id, whether a `Send` started it, what it returned. */
const taskOwn = (task: CheckpointTask): Pick<ServerStep, 'task' | 'send' | 'result'> => ({
  ...(typeof task.id === 'string' ? { task: task.id } : {}),
  ...(Array.isArray(task.path) && task.path[0] === '__pregel_push' ? { send: true as const } : {}),
  ...(task.result !== undefined && task.result !== null ? { result: task.result } : {}),
});

/**
 * A thread of a graph that Loopscope did not make as a trace: its steps (foreignSteps), its end as
 * the server tells it (`__end__` reached, an error), and the tokens its messages report. Checked like
 * an imported trace.
 */
export const foreignTrace = (graphName: string, chain: readonly CheckpointState[], drawing: ServerDrawing | null, subgraphs: SubgraphChains = new Map()): Trace => {
  const head = chain[0];
  const values = head ? valuesOf(head) : {};
  const steps = foreignSteps(chain, drawing, subgraphs).map((step, index) => ({ ...step, step: index + 1 }));
  const failed = (head?.tasks ?? []).find((task) => typeof task.error === 'string');
  const error = failed && errorWords(failed.error as string);
  const ended = head !== undefined && names(head.next).length === 0;
  return checked({
    format: TRACE_FORMAT, version: TRACE_VERSION, graph: graphName, seed: 0,
    stopReason: error ? 'error' : ended ? 'completed' : null,
    ...(error ? { stopWhy: { is: 'server_error', node: failed?.name ?? '', error } } : ended ? { stopWhy: { is: 'end_reached' } } : {}),
    rounds: Math.max(1, steps.at(-1)?.round ?? 1), tokensUsed: stateTokens(values), finalState: values, steps,
  });
};

/**
 * Why a fork cannot start from a step inside a subgraph, and where it can (null for a step of the
 * graph itself): a fork edits one of the thread's own checkpoints as one of the graph's nodes
 * (`updateState`), and a subgraph's checkpoints are its own, in their namespace. The step of the
 * parent node holds what the subgraph gave back; the graph's last step before it, the state the
 * subgraph started from.
 */
export const subgraphForkRefusal = (steps: readonly TraceStep[], index: number): string | null => {
  const step = steps[index];
  const ns = step?.server?.ns;
  if (!step || !ns) return null;
  const ofTheGraph = (candidate: TraceStep) => candidate.server !== undefined && !candidate.server.ns;
  const returned = steps.slice(index + 1).find(ofTheGraph);
  const before = steps.slice(0, index).findLast(ofTheGraph);
  const ways = [
    returned && `from step ${returned.step} (${returned.server?.name}), where the subgraph's result came back`,
    before
      ? `from step ${before.step} (${before.server?.name}), before the subgraph ran, to run it again on the state you edit`
      : 'start a new run with the run input edited, to run it again',
  ].filter(Boolean);
  return `Step ${step.step} ran inside the subgraph of ${step.server?.parent} (checkpoint namespace ${ns}), whose checkpoints are its own: a fork edits a checkpoint of the graph itself. Fork instead ${ways.join(', or ')}.`;
};

/** The state a foreign step left, in its own namespace: the writes of its namespace's steps over the state they started from. */
export const foreignStateAfter = (steps: readonly TraceStep[], index: number): Record<string, unknown> => {
  const ns = steps[index]?.server?.ns;
  let state: Record<string, unknown> = {};
  let from = index;
  while (from > 0 && !(steps[from].stateBefore && steps[from].server?.ns === ns)) from -= 1;
  for (let at = from; at <= index; at += 1) {
    const step = steps[at];
    if (step.server?.ns !== ns) continue;
    if (step.stateBefore) state = step.stateBefore;
    state = { ...state, ...step.writes };
  }
  return state;
};

/** The state a foreign step started from, in its own namespace. */
export const foreignStateBefore = (steps: readonly TraceStep[], index: number): Record<string, unknown> => {
  const step = steps[index];
  if (!step) return {};
  if (step.stateBefore) return step.stateBefore;
  for (let at = index - 1; at >= 0; at -= 1) if (steps[at].server?.ns === step.server?.ns) return foreignStateAfter(steps, at);
  return {};
};
