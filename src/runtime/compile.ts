/**
 * A graph file compiled into a LangGraph StateGraph that does the work: one LangGraph node per
 * graph node running the guards and that kind's executor (step.ts), one conditional edge per
 * source running the `when` interpreter with an explicit list of targets, and every value of the
 * run in channels (state.ts). The compile is a function of the graph file alone: what a run takes
 * from outside (clock, fetch, secrets, a pause hook) comes in `config.configurable.loopscope`, and
 * attempts go out on the `custom` stream through `config.writer`. So the same StateGraph runs in
 * the browser, on the command line, and in a standalone LangGraph server.
 * Only `@langchain/langgraph/web` and its channel classes are imported: they run in the browser too.
 */
import { Runnable } from '@langchain/core/runnables';
import { EphemeralValue } from '@langchain/langgraph/channels';
import { Annotation, BaseChannel, END, InvalidUpdateError, NodeInterrupt, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { reachableFrom, type GraphFile } from '../graph/index.ts';
import { outsideWriteCheck, refusedWrite, writtenByRuntime, type OutsideWriteCheck } from './outsideWrites.ts';
import { channelNames, initialValues, refusedState, type RunValues } from './state.ts';
import { executeNode, finallyNode, realRunners, routeAfter, type RunDeps } from './step.ts';

/** What a caller passes in `config.configurable.loopscope` (attempts come back on the `custom` stream). */
export interface LoopscopeConfig extends Omit<RunDeps, 'onAttempt'> {
  /**
   * Asked before every node, before its guards: a reason pauses the run there (an interrupt) and
   * resuming runs the node. Used for Pause, condition breakpoints and animated runs.
   */
  beforeNode?: (node: string, values: RunValues) => string | null | Promise<string | null>;
}

const configOf = (config: LangGraphRunnableConfig | undefined, defaults: LoopscopeConfig): LoopscopeConfig => ({
  ...defaults,
  ...(config?.configurable?.loopscope as LoopscopeConfig | undefined),
});

/** LangGraph counts supersteps: one per node, and a run stops by its guards after `maxSteps` nodes. */
export const recursionLimitOf = (graph: GraphFile): number => graph.limits.maxSteps * 2 + 10;

/**
 * The values a node runs on. A run started from outside Loopscope (a LangGraph server's client
 * sending `{question: …}`, or nothing) has no ledger yet: it starts from the graph's initial values
 * with the input over them, the seed from `configurable.seed`, and the first node writes them all.
 */
const startingValues = (graph: GraphFile, values: Record<string, unknown>, config: LangGraphRunnableConfig | undefined): { run: RunValues; fresh: boolean } => {
  if (values._run) return { run: values as RunValues, fresh: false };
  const seed = config?.configurable?.seed;
  const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  return { run: { ...initialValues(graph, Number.isInteger(seed) ? (seed as number) : 1), ...given } as RunValues, fresh: true };
};

/** LangGraph's own names a node may not take. */
const LANGGRAPH_NAMES = [START, END, '__interrupt__'];

/**
 * LangGraph node names: the graph's node ids, prefixed `n_` only where an id collides with a
 * state channel (a node called `plan`) or with a name every object has (`toString`: LangGraph looks
 * its channels up with `in` on a plain object). Only nodes reachable from the entry are compiled:
 * LangGraph refuses unreachable ones, and they can never run.
 */
export const nodeNames = (graph: GraphFile): Map<string, string> => {
  const reachable = reachableFrom(graph, graph.entry);
  // The finally node runs after a stop, whether or not an edge leads to it.
  const closing = finallyNode(graph);
  if (closing && reachable.size > 0) reachable.add(closing.id);
  const taken = new Set([...channelNames(graph), ...LANGGRAPH_NAMES, ...graph.nodes.map((node) => node.id)]);
  const names = new Map<string, string>();
  for (const node of graph.nodes) {
    if (!reachable.has(node.id)) continue;
    let name = node.id;
    if (channelNames(graph).includes(name) || LANGGRAPH_NAMES.includes(name) || name in Object.prototype) {
      do name = `n_${name}`;
      while (taken.has(name));
      taken.add(name);
    }
    names.set(node.id, name);
  }
  return names;
};

/**
 * A node's work or a conditional edge's choice as a runnable that LangChain does not trace:
 * LangGraph would wrap a bare function in a lambda that sets up a callback manager and a run tree
 * at every call, which no node or route here reads (they take their config as an argument). A CPU
 * profile of the 10,000-round bench in the browser put that at about a tenth of a round's time.
 */
class Untraced<Input, Output> extends Runnable<Input, Output> {
  lc_namespace = ['loopscope', 'untraced'];
  private readonly call: (input: Input, config: LangGraphRunnableConfig) => Output | Promise<Output>;

  constructor(call: (input: Input, config: LangGraphRunnableConfig) => Output | Promise<Output>) {
    super();
    this.call = call;
  }

  async invoke(input: Input, config?: LangGraphRunnableConfig) {
    return this.call(input, config ?? {});
  }
}

/**
 * A field's channel: LangGraph's LastValue (one write a step, the last value kept) but for reading
 * while empty. LangGraph reads every field several times a step (a node's input, a route's fresh
 * read, the checkpoint, the values it keeps for its stream), and a LastValue nothing has written
 * yet (the `response` of a respond node a loop has not reached) throws an EmptyChannelError at each
 * read, caught at once. Four exceptions a step per such field cost a browser more than the runtime's
 * own work (a CPU profile of the 10,000-round bench). This one reads as undefined while empty, and
 * the values read drop it (`presentValues`); it stays unavailable, so it triggers nothing.
 */
class FieldChannel extends BaseChannel<unknown, unknown, unknown> {
  // LangGraph checks a state field's channel by this name (a schema added twice must agree).
  lc_graph_name = 'LastValue';
  value: [unknown] | [] = [];
  /** On a served graph: what a write from outside the runtime's nodes must pass (outsideWrites.ts). */
  private readonly outside: OutsideWriteCheck | undefined;

  constructor(outside?: OutsideWriteCheck) {
    super();
    this.outside = outside;
  }

  fromCheckpoint(checkpoint?: unknown): this {
    const channel = new FieldChannel(this.outside);
    if (checkpoint !== undefined) channel.value = [checkpoint];
    return channel as this;
  }

  update(values: unknown[]): boolean {
    if (values.length === 0) return false;
    if (values.length !== 1) throw new InvalidUpdateError('LastValue can only receive one value per step.', { lc_error_code: 'INVALID_CONCURRENT_GRAPH_UPDATE' });
    const refused = this.outside && refusedWrite(this.outside, values, this.value[0]);
    if (refused) throw new InvalidUpdateError(refused);
    this.value = [values[0]];
    return true;
  }

  get(): unknown {
    return this.value[0];
  }

  checkpoint(): unknown {
    return this.value[0];
  }

  isAvailable(): boolean {
    return this.value.length !== 0;
  }
}

/**
 * LangGraph's EphemeralValue (the `branch:to:<node>` channel that triggers a node, and `__start__`)
 * but checkpointed while empty as undefined, not by throwing. LangGraph checkpoints every channel
 * after every step and catches the EmptyChannelError each untriggered one throws: a graph has one
 * such channel a node, nearly all empty at any step, and those errors were about 7 % of a
 * 10,000-round run in the browser (a CPU profile of the bench). Undefined reads back as empty.
 */
class TriggerChannel extends EphemeralValue<unknown> {
  fromCheckpoint(checkpoint?: unknown): this {
    const channel = new TriggerChannel(this.guard);
    if (checkpoint !== undefined) channel.value = [checkpoint];
    return channel as this;
  }

  checkpoint(): unknown {
    return this.value[0];
  }
}

/** The name LangGraph gives the writer that runs a node's conditional edges. */
const BRANCH_WRITER = '<branch_run>';

/**
 * The channels as the step began: LangGraph's own read (Pregel's CONFIG_KEY_READ, not fresh). A
 * route is attached without LangGraph's reader, which reads the state "fresh": it builds a whole
 * new checkpoint with the node's writes applied, copying every channel's version and every node's
 * versions seen, so a step cost grew with the graph's size (issue 40, #14). A route gets the
 * node's update instead; over these values it is exactly what that fresh read gave, since every
 * state channel keeps its one last write (FieldChannel). An update made as a node (`updateState`,
 * a fork) runs the route the same way.
 */
const stepStartValues = (config: LangGraphRunnableConfig, fields: string[]): Record<string, unknown> => {
  const read = config.configurable?.__pregel_read as ((select: string[], fresh: boolean) => Record<string, unknown>) | undefined;
  if (!read) throw new Error('a route reads the state inside a LangGraph step');
  return read(fields, false);
};

/** Values LangGraph read, without the fields nothing has written (a FieldChannel reads them as undefined). */
export const presentValues = (values: Record<string, unknown>): Record<string, unknown> => {
  for (const key in values) if (values[key] === undefined) return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  return values;
};

const channelsOf = (graph: GraphFile, served: boolean) =>
  Annotation.Root(Object.fromEntries(channelNames(graph).map((name) => [name, () => new FieldChannel(served ? outsideWriteCheck(name) : undefined)])));

/**
 * The graph file travels with its entry node's metadata under this key when `describe` is set (a
 * LangGraph server's graph description, `GET /assistants/{id}/graph`, shows it): a debugger attached
 * to the server draws the graph from it, conditions and all.
 */
export const GRAPH_METADATA_KEY = 'loopscope_graph';

/**
 * The StateGraph of a graph file, with the one way to compile it (give `compile` a checkpointer to
 * pause, time-travel and fork): its trigger channels made quiet (TriggerChannel). Start a run with
 * `initialValues(graph, seed)` as the input. `served`: the graph runs for clients outside Loopscope
 * (a LangGraph server), whose input and updateState cannot set what the runtime keeps (outsideWrites.ts).
 */
export const buildStateGraph = (graph: GraphFile, defaults: LoopscopeConfig = {}, { describe = false, served = false } = {}) => {
  // Validation (reserved_state), the command line, the export and a run all refuse such a graph first.
  const refused = refusedState(graph);
  if (refused) throw new Error(`${refused}: rename it`);
  const names = nodeNames(graph);
  const fieldNames = channelNames(graph);
  const real = realRunners(graph);
  const nodes = graph.nodes.filter((node) => names.has(node.id));
  const builder = new StateGraph(channelsOf(graph, served)).addNode(
    nodes.map((node): [string, Untraced<Record<string, unknown>, Record<string, unknown>>, { metadata?: Record<string, unknown> }] => [
      names.get(node.id) as string,
      new Untraced(async (values: Record<string, unknown>, config: LangGraphRunnableConfig) => {
        const loopscope = configOf(config, defaults);
        const { run, fresh } = startingValues(graph, presentValues(values), config);
        const pause = await loopscope.beforeNode?.(node.id, run);
        if (pause) throw new NodeInterrupt(pause);
        const writer = config.writer;
        // Each attempt goes out on the `custom` stream as it ends: LangGraph's retries would hide them.
        const update = await executeNode(graph, node, run, real, { ...loopscope, onAttempt: writer && ((attempt, where) => writer({ type: 'attempt', ...where, attempt })) });
        const written = fresh ? { ...run, ...update } : update;
        return served ? writtenByRuntime(written) : written;
      }),
      describe && node.id === graph.entry ? { metadata: { [GRAPH_METADATA_KEY]: graph } } : {},
    ]),
  );
  const closing = finallyNode(graph);
  const closingName = closing && names.get(closing.id);
  for (const node of nodes) {
    const source = names.get(node.id) as string;
    const targets = [...new Set([
      ...graph.edges.filter((edge) => edge.source === node.id && names.has(edge.target)).map((edge) => names.get(edge.target) as string),
      // The finally node's own list too: a guard can stop the run just before it, and it then runs as the closing step.
      ...(closingName ? [closingName] : []),
    ])];
    const route = (update: Record<string, unknown> | null, config: LangGraphRunnableConfig) => {
      const run = presentValues({ ...stepStartValues(config, fieldNames), ...update }) as RunValues;
      if (!run._run || run._run.stop) return END;
      // A stop that gets a final response goes to the finally node: an edge of the compiled graph, not a side path.
      if (run._run.closing) return closingName ?? END;
      const target = routeAfter(graph, node.id, run._run.outcome, run).fired?.target;
      return (target !== undefined && names.get(target)) || END;
    };
    builder.addConditionalEdges(source as never, new Untraced(route) as never, [...targets, END] as never);
  }
  const entry = names.get(graph.entry);
  // A new run on a thread whose run has stopped (a server's `runs.create` with input) ends at once: the stop holds.
  if (entry) builder.addConditionalEdges(START, new Untraced((values: Record<string, unknown>) => ((values as Partial<RunValues>)._run?.stop ? END : entry)) as never, [entry, END] as never);
  const compile = (options?: Parameters<typeof builder.compile>[0]) => {
    const compiled = builder.compile(options);
    const channels = compiled.channels as Record<string, BaseChannel>;
    for (const [name, channel] of Object.entries(channels)) if (channel instanceof EphemeralValue) channels[name] = new TriggerChannel(channel.guard);
    // Each node's route, attached again without LangGraph's fresh read (see stepStartValues). The
    // compile attaches a graph's conditional edges last, after LangGraph's own route for a Command
    // a node returns (attached without a reader): only ours are replaced.
    for (const [source, branches] of Object.entries(builder.branches)) {
      if (source === START) continue;
      const node = compiled.nodes[source as keyof typeof compiled.nodes] as unknown as { writers: Runnable[] };
      const ours = node.writers.splice(-Object.keys(branches).length);
      if (!ours.every((writer) => writer.getName() === BRANCH_WRITER)) throw new Error(`LangGraph attached the routes of "${source}" otherwise than this version expects`);
      for (const [name, branch] of Object.entries(branches)) compiled.attachBranch(source as never, name, branch as never, { withReader: false });
    }
    return compiled;
  };
  return { compile, names };
};
