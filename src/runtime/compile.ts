/**
 * A graph file compiled into a LangGraph StateGraph that does the work: one LangGraph node per
 * graph node (`runNode`, step.ts: the guards, that kind's executor, the edge choice), one
 * conditional edge per source (`routeOf`, step.ts) with an explicit list of targets, and every value of the
 * run in channels (state.ts). The compile is a function of the graph file alone: what a run takes
 * from outside (clock, fetch, secrets, a pause hook) comes in `config.configurable.loopscope`, and
 * attempts go out on the `custom` stream through `config.writer`. So the same StateGraph runs in
 * the browser, on the command line, and in a standalone LangGraph server.
 * Only `@langchain/langgraph/web` and its channel classes are imported: they run in the browser too.
 */
import { Runnable } from '@langchain/core/runnables';
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { reachableFrom, type GraphFile } from '../graph/index.ts';
import { FieldChannel, withLeanSteps } from './langgraphInternals.ts';
import { outsideWriteCheck } from './outsideWrites.ts';
import { channelNames, refusedState, type RunValues } from './state.ts';
import { finallyNode, realRunners, routeOf, runNode, type LoopscopeConfig } from './step.ts';

/**
 * A served graph takes all of this from its server (LOOPSCOPE_GRANT, LOOPSCOPE_HOSTS, its keys and
 * MCP servers, exported.ts): a client's run config is JSON it writes, and a `fetch: null` in it
 * would have put the unrestricted global fetch in place of the hosts the person allowed.
 */
const configOf = (config: LangGraphRunnableConfig | undefined, defaults: LoopscopeConfig, served: boolean): LoopscopeConfig =>
  served ? defaults : { ...defaults, ...(config?.configurable?.loopscope as LoopscopeConfig | undefined) };

/** LangGraph counts supersteps: one per node, and a run stops by its guards after `maxSteps` nodes. */
export const recursionLimitOf = (graph: GraphFile): number => graph.limits.maxSteps * 2 + 10;

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

  constructor(call: (input: Input, config: LangGraphRunnableConfig) => Output | Promise<Output>) {
    super();
    // The node's or route's own function is the runnable's `invoke`: LangGraph calls it, nothing forwards.
    Object.defineProperty(this, 'invoke', { value: call });
  }

  declare invoke: (input: Input, config?: LangGraphRunnableConfig) => Promise<Output>;
}

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
      new Untraced(runNode(graph, node, real, (config) => configOf(config, defaults, served), served)),
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
    builder.addConditionalEdges(source as never, new Untraced(routeOf(graph, node.id, names, fieldNames, closingName)) as never, [...targets, END] as never);
  }
  const entry = names.get(graph.entry);
  // A new run on a thread whose run has stopped (a server's `runs.create` with input) ends at once: the stop holds.
  if (entry) builder.addConditionalEdges(START, new Untraced((values: Record<string, unknown>) => ((values as Partial<RunValues>)._run?.stop ? END : entry)) as never, [entry, END] as never);
  const compile = (options?: Parameters<typeof builder.compile>[0]) => withLeanSteps(builder.compile(options), builder.branches);
  return { compile, names };
};
