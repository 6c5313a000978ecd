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
import { Annotation, END, NodeInterrupt, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { reachableFrom, type GraphFile } from '../graph/index.ts';
import { FieldChannel, stepStartValues, withLeanSteps } from './langgraphInternals.ts';
import { outsideWriteCheck, writtenByRuntime } from './outsideWrites.ts';
import { channelNames, initialValues, refusedState, RUN_CHANNEL, STEP_CHANNEL, type RunValues } from './state.ts';
import { executeNode, finallyNode, realRunners, routeAfter, type RunDeps } from './step.ts';

/** What a caller passes in `config.configurable.loopscope` (attempts come back on the `custom` stream). */
export interface LoopscopeConfig extends Omit<RunDeps, 'onAttempt'> {
  /**
   * Asked before every node, before its guards: a reason pauses the run there (an interrupt) and
   * resuming runs the node. Used for Pause, condition breakpoints and animated runs.
   */
  beforeNode?: (node: string, values: RunValues) => string | null | Promise<string | null>;
}

/**
 * A served graph takes all of this from its server (LOOPSCOPE_GRANT, LOOPSCOPE_HOSTS, its keys and
 * MCP servers, exported.ts): a client's run config is JSON it writes, and a `fetch: null` in it
 * would have put the unrestricted global fetch in place of the hosts the person allowed.
 */
const configOf = (config: LangGraphRunnableConfig | undefined, defaults: LoopscopeConfig, served: boolean): LoopscopeConfig =>
  served ? defaults : { ...defaults, ...(config?.configurable?.loopscope as LoopscopeConfig | undefined) };

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
        const loopscope = configOf(config, defaults, served);
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
      // The node chose its edge once (executeNode): its update carries the ledger and the step with the edge that fired.
      const ran = update !== null && RUN_CHANNEL in update && STEP_CHANNEL in update;
      const run = ran ? (update as RunValues) : (presentValues({ ...stepStartValues(config, fieldNames), ...update }) as RunValues);
      if (!run._run || run._run.stop) return END;
      // A stop that gets a final response goes to the finally node: an edge of the compiled graph, not a side path.
      if (run._run.closing) return closingName ?? END;
      // An update made as this node from outside (updateState: a decision, a server's fork) ran no node: its edge is chosen for the state it leaves.
      const target = (ran ? run._step?.fired : routeAfter(graph, node.id, run._run.outcome, run).fired)?.target;
      return (target !== undefined && names.get(target)) || END;
    };
    builder.addConditionalEdges(source as never, new Untraced(route) as never, [...targets, END] as never);
  }
  const entry = names.get(graph.entry);
  // A new run on a thread whose run has stopped (a server's `runs.create` with input) ends at once: the stop holds.
  if (entry) builder.addConditionalEdges(START, new Untraced((values: Record<string, unknown>) => ((values as Partial<RunValues>)._run?.stop ? END : entry)) as never, [entry, END] as never);
  const compile = (options?: Parameters<typeof builder.compile>[0]) => withLeanSteps(builder.compile(options), builder.branches);
  return { compile, names };
};
