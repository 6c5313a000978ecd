/**
 * What a LangGraph server's `events` stream mode tells of a run that its checkpoints do not
 * (SPEC §8): each task's input (a `Send`'s argument), each attempt of a node with a `retryPolicy`,
 * and each routing function's run, with the state it was given and the value it returned. The
 * checkpoints name a task by its id; an event names it in its metadata's checkpoint namespace
 * (`node:<task id>`, `parent:<id>|node:<task id>` inside a subgraph), so the two are joined by it.
 *
 * A node's run is the chain event named as the node and tagged with its superstep
 * (`graph:step:N`); one is started for each attempt, and an attempt that threw never ends (the
 * stream has no error event: the task's error is in the checkpoint, and an earlier attempt's error
 * nowhere). A conditional edge runs as a chain LangGraph.js names `RunnableLambda`, in the task of
 * the node it leaves, its output the router's return value (a node name, a list, a `Send`). The
 * stream is another program's answer: only these chain events are kept, each task's lists bounded.
 */
import type { Attempt, ServerStep, TraceStep } from './trace.ts';

/** The name LangGraph.js gives the runnable a conditional edge runs as. */
export const BRANCH_RUNNABLE = 'RunnableLambda';
/** Tasks remembered per run, attempts and routes per task: beyond them the stream's word is dropped. */
export const TOLD_LIMITS = { tasks: 2_000, attempts: 50, routes: 20 } as const;

export interface RouteTold {
  /** The state the routing function was given (its long channels left out past ROUTE_INPUT_KEPT). */
  input: unknown;
  /** Characters of JSON of the state left out of `input`, when any were: the step's state has them. */
  leftOut?: number;
  /** What it returned: a node name, `__end__`, a list of them, `Send`s (as `{lg_name: 'Send', node, args}`). */
  returned: unknown;
}

export interface TaskTold {
  node: string;
  /** What the task was given: the state, or a `Send`'s argument. */
  input?: unknown;
  /** One per attempt, in order: whether it ended (an attempt that threw does not). */
  attempts: boolean[];
  /** The last attempt's output, once it ended. */
  output?: unknown;
  routes: RouteTold[];
}

/** What a run's event stream told so far: its tasks by id, and the chain runs still open. */
export interface RunTold {
  tasks: Map<string, TaskTold>;
  open: Map<string, { task: string; role: 'node' | 'branch'; input: unknown }>;
}

export const emptyTold = (): RunTold => ({ tasks: new Map(), open: new Map() });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The task id of a checkpoint namespace's innermost part (`a:<id>|b:<task id>` → `<task id>`). */
const taskIdOf = (ns: unknown): string | null => {
  if (typeof ns !== 'string' || ns.length === 0) return null;
  const last = ns.split('|').at(-1) as string;
  const at = last.lastIndexOf(':');
  return at > 0 && at < last.length - 1 ? last.slice(at + 1) : null;
};

const isSend = (value: unknown) => isRecord(value) && value.lg_name === 'Send' && typeof value.node === 'string';

/**
 * A router's input is the whole state, told again on each conditional step: kept whole up to this
 * many characters of JSON; past it, each channel longer than ROUTE_CHANNEL_KEPT is left out (the
 * step's state holds it), so a long thread's trace does not hold its state once per step.
 */
export const ROUTE_INPUT_KEPT = 8 * 1024;
export const ROUTE_CHANNEL_KEPT = 512;

/** Characters of JSON as KB, as the page says them (at least 1). */
export const kbOf = (chars: number) => Math.max(1, Math.round(chars / 1024));

/** What stands in for a value left out of a router's input. */
export const leftOutWords = (chars: number) => `… (${kbOf(chars)} KB left out)`;

/** A router's input as kept: whole when short, else with its long channels left out (and how much was). */
export const keptInput = (input: unknown): Pick<RouteTold, 'input' | 'leftOut'> => {
  const size = JSON.stringify(input)?.length ?? 0;
  if (size <= ROUTE_INPUT_KEPT) return { input };
  if (!isRecord(input)) return { input: leftOutWords(size), leftOut: size };
  let leftOut = 0;
  const kept = Object.fromEntries(Object.entries(input).map(([channel, value]) => {
    const length = JSON.stringify(value)?.length ?? 0;
    if (length <= ROUTE_CHANNEL_KEPT) return [channel, value];
    leftOut += length;
    return [channel, leftOutWords(length)];
  }));
  return { input: kept, leftOut };
};

/** Whether a value is what a routing function returns: a node name, a `Send`, or a list of them. */
const isRoute = (value: unknown): boolean =>
  typeof value === 'string' || isSend(value) || (Array.isArray(value) && value.every((item) => typeof item === 'string' || isSend(item)));

/** Folds one event of the `events` stream mode (its `data`) into what the run told. */
export const foldEvent = (told: RunTold, data: unknown): void => {
  if (!isRecord(data) || typeof data.run_id !== 'string' || !isRecord(data.metadata)) return;
  const { event, name, metadata, run_id: runId } = data;
  const node = metadata.langgraph_node;
  const task = taskIdOf(metadata.langgraph_checkpoint_ns);
  const payload = isRecord(data.data) ? data.data : {};
  if (event === 'on_chain_start' && typeof node === 'string' && task) {
    const tags = Array.isArray(data.tags) ? data.tags : [];
    const role = name === node && tags.includes(`graph:step:${String(metadata.langgraph_step)}`) ? 'node' : name === BRANCH_RUNNABLE ? 'branch' : null;
    if (!role) return;
    let entry = told.tasks.get(task);
    if (!entry) {
      if (told.tasks.size >= TOLD_LIMITS.tasks) return;
      entry = { node, attempts: [], routes: [] };
      told.tasks.set(task, entry);
    }
    if (role === 'node') {
      if (entry.attempts.length >= TOLD_LIMITS.attempts) return;
      if (entry.attempts.length === 0) entry.input = payload.input;
      entry.attempts.push(false);
    }
    told.open.set(runId, { task, role, input: payload.input });
    return;
  }
  if (event !== 'on_chain_end') return;
  const open = told.open.get(runId);
  const entry = open && told.tasks.get(open.task);
  if (!open || !entry) return;
  told.open.delete(runId);
  if (open.role === 'node') {
    entry.attempts[entry.attempts.length - 1] = true;
    entry.output = payload.output;
  } else if (isRoute(payload.output) && entry.routes.length < TOLD_LIMITS.routes) entry.routes.push({ ...keptInput(open.input), returned: payload.output });
};

/** A task's error as the server words it: its message (and the error's name), not the JSON it comes in. */
export const errorWords = (error: string): string => {
  try {
    const parsed: unknown = JSON.parse(error);
    if (isRecord(parsed) && typeof parsed.message === 'string') return typeof parsed.name === 'string' && parsed.name !== 'Error' ? `${parsed.name}: ${parsed.message}` : parsed.message;
  } catch {
    // Not JSON: the server's words as they are.
  }
  return error;
};

/** A node's `Command` as its output tells it: where it goes, and what it writes. */
const commandOf = (output: unknown): ServerStep['command'] =>
  isRecord(output) && output.lg_name === 'Command' ? { goto: output.goto ?? null, update: output.update ?? null } : undefined;

/**
 * A failed attempt in plain words: the last one's error is the task's (the checkpoint holds it);
 * an earlier one's is told nowhere the page can read (the server's log has it).
 */
export const attemptFailure = (n: number, last: boolean, error: string | undefined) =>
  last && error ? error : `attempt ${n} failed; the server does not say why`;

/** The attempts of a task that retried or failed, as a step's attempts (one that ran once, fine, has none to show). */
const attemptsOf = (told: TaskTold, error: string | undefined): Attempt[] => {
  if (told.attempts.length < 2 && told.attempts.every(Boolean)) return [];
  return told.attempts.map((ended, index) => {
    const last = index === told.attempts.length - 1;
    return {
      n: index + 1, skill: told.node, outcome: ended ? 'ok' : 'error', tokens: 0,
      ...(ended ? {} : { error: attemptFailure(index + 1, last, error), retry: last ? 'not tried again: the task failed' : 'tried again (retryPolicy)' }),
    };
  });
};

/**
 * The steps with what the event stream told of their tasks: a `Send` task's input, the attempts of
 * a task that retried or failed, the routing functions' runs, and a returned `Command`. A step with
 * no word from the stream (a thread read from its history only) stays as it was.
 */
export const withTold = (steps: readonly TraceStep[], told: RunTold): TraceStep[] =>
  steps.map((step) => {
    const server = step.server;
    const task = server?.task === undefined ? undefined : told.tasks.get(server.task);
    if (!server || !task || server.edit) return step;
    const attempts = attemptsOf(task, server.error);
    const command = commandOf(task.output);
    return {
      ...step,
      ...(attempts.length ? { attempts } : {}),
      server: {
        ...server,
        ...(server.send && task.input !== undefined ? { input: task.input } : {}),
        ...(task.routes.length ? { routes: task.routes.map((route) => ({ input: route.input, returned: route.returned, ...(route.leftOut ? { leftOut: route.leftOut } : {}) })) } : {}),
        ...(command ? { command } : {}),
      },
    };
  });
