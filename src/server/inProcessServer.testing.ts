/**
 * A LangGraph server in the test's own process, as the SDK's `Client` sees one: its answers are
 * LangGraph's own (a real compiled graph on a MemorySaver), shaped as langgraph-api shapes them, so
 * the server's `RunController` is tested without starting a dev server.
 */
import { Annotation, Command, END, MemorySaver, START, StateGraph, type StateSnapshot } from '@langchain/langgraph';
import type { Client } from './langgraphServer.ts';

/** A graph Loopscope did not make: two nodes, each adding one to `count` and its name to `visited`. */
const counterGraph = () => {
  const State = Annotation.Root({
    count: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
    visited: Annotation<string[]>({ reducer: (all, more) => [...all, ...more], default: () => [] }),
  });
  const add = (name: string) => (state: typeof State.State) => ({ count: state.count + 1, visited: [name] });
  return new StateGraph(State).addNode('first', add('first')).addNode('second', add('second')).addEdge(START, 'first').addEdge('first', 'second').addEdge('second', END).compile({ checkpointer: new MemorySaver() });
};

const checkpointOf = (snapshot: StateSnapshot) => ({
  values: snapshot.values as Record<string, unknown>,
  next: [...snapshot.next],
  checkpoint: { checkpoint_id: snapshot.config.configurable?.checkpoint_id as string, checkpoint_ns: '' },
  parent_checkpoint: snapshot.parentConfig ? { checkpoint_id: snapshot.parentConfig.configurable?.checkpoint_id as string } : null,
  metadata: (snapshot.metadata ?? null) as Record<string, unknown> | null,
  tasks: snapshot.tasks.map((task) => ({ name: task.name, error: task.error ? String(task.error) : null, interrupts: task.interrupts, result: task.result ?? null })),
  created_at: snapshot.createdAt,
});

interface StreamPayload {
  input?: Record<string, unknown> | null;
  command?: { resume: unknown };
  interruptBefore?: '*' | string[];
}

/** A compiled graph as the server runs it (the counter, or a Loopscope export's). */
type Served = Pick<ReturnType<typeof counterGraph>, 'getGraphAsync' | 'getState' | 'getStateHistory' | 'updateState' | 'stream'>;

/** The client of a server with one graph (`counter`, unless another is given); `requests` lists what was asked of it, in order. */
export const inProcessServer = (graph: Served = counterGraph(), graphId = 'counter') => {
  const threads: { thread_id: string; status: string; updated_at: string }[] = [];
  const requests: string[] = [];
  const config = (threadId: string, checkpointId?: string) => ({ configurable: { thread_id: threadId, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) } });
  const client = {
    assistants: {
      search: async () => [{ assistant_id: `${graphId}-assistant`, graph_id: graphId }],
      getGraph: async () => (await graph.getGraphAsync()).toJSON(),
    },
    threads: {
      search: async () => [...threads].reverse(),
      create: async () => {
        const thread = { thread_id: `thread-${threads.length + 1}`, status: 'idle', updated_at: new Date(0).toISOString() };
        threads.push(thread);
        return thread;
      },
      getState: async (threadId: string) => checkpointOf(await graph.getState(config(threadId))),
      getHistory: async (threadId: string, options: { limit?: number; before?: { configurable: { checkpoint_id?: string } } } = {}) => {
        requests.push(`history ${threadId}`);
        const history = [];
        for await (const snapshot of graph.getStateHistory(config(threadId), { limit: options.limit, ...(options.before ? { before: config(threadId, options.before.configurable.checkpoint_id) } : {}) })) history.push(checkpointOf(snapshot));
        return history;
      },
      updateState: async (threadId: string, options: { values: Record<string, unknown>; checkpointId?: string; asNode?: string }) => {
        requests.push(`update ${threadId} as ${options.asNode ?? '-'}`);
        return { configurable: (await graph.updateState(config(threadId, options.checkpointId), options.values, options.asNode)).configurable };
      },
    },
    runs: {
      list: async () => [],
      joinStream: async function* () {},
      stream: async function* (threadId: string, _assistantId: string, payload: StreamPayload) {
        requests.push(`run ${threadId}${payload.interruptBefore ? ` before ${String(payload.interruptBefore)}` : ''}`);
        const input = (payload.command ? new Command(payload.command) : (payload.input ?? null)) as Parameters<typeof graph.stream>[0];
        const stream = await graph.stream(input, { ...config(threadId), streamMode: 'updates', ...(payload.interruptBefore ? { interruptBefore: payload.interruptBefore as '*' | ('first' | 'second')[] } : {}) });
        for await (const chunk of stream) yield { event: 'updates', data: chunk };
      },
    },
  };
  return { client: client as unknown as Client, requests };
};
