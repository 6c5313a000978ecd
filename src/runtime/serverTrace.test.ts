import { Annotation, Command, END, MemorySaver, START, StateGraph } from '@langchain/langgraph/web';
import { describe, expect, it } from 'vitest';
import { graph as fanOutGraph } from './fixtures/langgraph/fanOutGraph.ts';
import { graph as guardedAgent } from './fixtures/langgraph/guardedAgent.ts';
import { graph as mapReduceGraph } from './fixtures/langgraph/mapReduceGraph.ts';
import { graph as interruptGraph } from './fixtures/langgraph/interruptGraph.ts';
import { graph as reactAgent } from './fixtures/langgraph/reactAgent.ts';
import { graph as subgraphGraph } from './fixtures/langgraph/subgraphGraph.ts';
import { drawingOf, type ServerDrawing } from './serverGraph.ts';
import { type GraphFile } from '../graph/index.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { buildStateGraph } from './compile.ts';
import { runGraph } from './run.ts';
import { emptyTold, foldEvent, withTold } from './serverEvents.ts';
import { branchOf, foreignStateAfter, foreignStateBefore, foreignTrace, subgraphForkRefusal, traceFromBranch, type CheckpointState } from './serverTrace.ts';
import type { Trace } from './trace.ts';
import { noteWords } from './stepWords.ts';
import { withStopWords } from './testing.ts';


const securityclaw = () => (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();

/** A thread's history as the LangGraph server's API gives it (newest first), from an in-process checkpointer. */
const history = async (compiled: { getStateHistory: ReturnType<ReturnType<typeof buildStateGraph>['compile']>['getStateHistory'] }, thread: string): Promise<CheckpointState[]> => {
  const states: CheckpointState[] = [];
  for await (const snapshot of compiled.getStateHistory({ configurable: { thread_id: thread } }))
    states.push({
      values: snapshot.values as Record<string, unknown>, next: [...snapshot.next],
      checkpoint: { checkpoint_id: snapshot.config.configurable?.checkpoint_id as string },
      parent_checkpoint: snapshot.parentConfig ? { checkpoint_id: snapshot.parentConfig.configurable?.checkpoint_id as string } : null,
    });
  return states;
};

const withoutTimes = (trace: Trace) => trace.steps.map((step) => ({ ...step, durationMs: 0 }));

describe('a server thread read back as a trace', () => {
  it('is the trace loopscope run makes, step for step, with the stop', async () => {
    const graph = securityclaw();
    const compiled = buildStateGraph(graph).compile({ checkpointer: new MemorySaver() });
    await compiled.invoke({}, { configurable: { thread_id: 't' }, recursionLimit: 200 });
    const states = await history(compiled, 't');
    const { chain, missing } = branchOf(states[0], states);
    expect(missing).toBeNull();
    const trace = traceFromBranch(graph.name, chain);
    const local = await runGraph(graph, { compact: true });
    expect(withoutTimes(trace)).toEqual(withoutTimes(local));
    expect(trace).toMatchObject({ stopReason: local.stopReason, rounds: local.rounds, tokensUsed: local.tokensUsed, finalState: local.finalState });
  });

  it('follows the current branch after a fork, and says which checkpoint is missing from a partial page', async () => {
    const graph = securityclaw();
    const compiled = buildStateGraph(graph).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'f' }, recursionLimit: 200 };
    await compiled.invoke({}, config);
    const before = await history(compiled, 'f');
    const afterExecute = before.find((state) => (state.values._step as { step: number } | null)?.step === 2) as CheckpointState;
    const results = (afterExecute.values.results as object[]).map((result) => ({ ...result, outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }] }));
    const forked = await compiled.updateState({ configurable: { thread_id: 'f', checkpoint_id: afterExecute.checkpoint.checkpoint_id } }, { results }, 'execute');
    await compiled.invoke(null, { ...forked, recursionLimit: 200 });
    const states = await history(compiled, 'f');
    const trace = traceFromBranch(graph.name, branchOf(states[0], states).chain);
    expect(trace.steps.map((step) => step.node)).toEqual(['decide', 'execute', 'evaluate', 'answer']);
    expect(trace.stopReason).toBe('completed');
    const page = states.slice(0, 2);
    expect(branchOf(page[0], page).missing).toBe(states[2].checkpoint.checkpoint_id);
  });

  it('reads a graph that is not a Loopscope export from its checkpoints: which node ran, what it changed', async () => {
    const State = Annotation.Root({ n: Annotation<number>(), log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const plain = new StateGraph(State)
      .addNode('a', async (state) => ({ n: state.n + 1, log: ['a'] }))
      .addNode('b', async (state) => ({ n: state.n * 2, log: ['b'] }))
      .addEdge(START, 'a').addConditionalEdges('a', (state) => (state.n < 3 ? 'a' : 'b'), ['a', 'b']).addEdge('b', END)
      .compile({ checkpointer: new MemorySaver() });
    await plain.invoke({ n: 1 }, { configurable: { thread_id: 'p' } });
    const states = await history(plain as never, 'p');
    const trace = traceFromBranch('plain', branchOf(states[0], states).chain);
    expect(trace.steps.map((step) => step.node)).toEqual(['a', 'a', 'b']);
    expect(trace.steps[2].writes).toEqual({ n: 6, log: ['a', 'a', 'b'] });
    expect(trace).toMatchObject({ stopReason: 'completed', finalState: { n: 6 } });
  });
});

type Snapshot = {
  values: unknown; next: readonly string[]; metadata?: unknown;
  config: { configurable?: Record<string, unknown> }; parentConfig?: { configurable?: Record<string, unknown> };
  tasks: readonly { id?: string; path?: readonly unknown[]; result?: unknown; name: string; error?: unknown; interrupts: readonly { value?: unknown }[]; state?: unknown }[];
};
type Servable = {
  checkpointer?: unknown;
  getStateHistory: (config: object) => AsyncIterable<Snapshot>;
  getGraphAsync: (config: object) => Promise<{ toJSON: () => unknown }>;
  invoke: (input: unknown, config: object) => Promise<unknown>;
  streamEvents: (input: unknown, config: { version: 'v2'; configurable: object }) => AsyncIterable<unknown>;
  updateState: (config: object, values: unknown, asNode?: string) => Promise<{ configurable?: Record<string, unknown> }>;
};

/**
 * A thread's history as the LangGraph server's API sends it (the server's stateSnapshotToThreadState:
 * a subgraph task's `checkpoint`, errors as messages, values as JSON), from the fixture run in process.
 */
const serverHistory = async (graph: Servable, thread: string, ns = ''): Promise<CheckpointState[]> => {
  const states: CheckpointState[] = [];
  for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: thread, ...(ns ? { checkpoint_ns: ns } : {}) } }))
    states.push(JSON.parse(JSON.stringify({
      values: snapshot.values, next: snapshot.next, metadata: snapshot.metadata,
      checkpoint: { checkpoint_id: snapshot.config.configurable?.checkpoint_id, checkpoint_ns: snapshot.config.configurable?.checkpoint_ns ?? '' },
      parent_checkpoint: snapshot.parentConfig ? { checkpoint_id: snapshot.parentConfig.configurable?.checkpoint_id } : null,
      tasks: snapshot.tasks.map((task) => ({
        id: task.id, path: task.path, result: task.result,
        name: task.name, error: task.error ? String((task.error as Error).message ?? task.error) : null, interrupts: task.interrupts,
        checkpoint: task.state && typeof task.state === 'object' && 'configurable' in task.state ? (task.state as { configurable: unknown }).configurable : null,
      })),
    })) as CheckpointState);
  return states;
};

const served = async (graph: Servable) => {
  graph.checkpointer = new MemorySaver();
  const described = drawingOf(JSON.parse(JSON.stringify((await graph.getGraphAsync({ xray: true })).toJSON())));
  return (described as { drawing: ServerDrawing }).drawing;
};

const chainOf = async (graph: Servable, thread: string) => {
  const states = await serverHistory(graph, thread);
  return branchOf(states[0], states).chain;
};

describe('a thread of a graph Loopscope did not make, read back from its checkpoints', () => {
  it('the ReAct agent: which node ran, where its conditional edge went and why, the edge that fired, the tokens its messages report', async () => {
    const drawing = await served(reactAgent as never);
    await (reactAgent as never as Servable).invoke({ messages: [{ role: 'human', content: 'Weather in Paris?' }] }, { configurable: { thread_id: 'r' } });
    const trace = foreignTrace('react-agent', await chainOf(reactAgent as never, 'r'), drawing);
    expect(trace.steps.map((step) => step.node)).toEqual(['callModel', 'tools', 'callModel']);
    const [ask, tools, answer] = trace.steps;
    expect(noteWords(ask.note!)).toBe('callModel → tools: conditional, chose tools of {tools, __end__}');
    expect(ask.fired && { ...ask.fired, why: storedWords(ask.fired) }).toEqual({ id: 'callModel→tools', target: 'tools', why: 'conditional, chose tools of {tools, __end__}' });
    expect(ask.edges.map((edge) => [edge.id, edge.matched, storedWords(edge)])).toEqual([['callModel→tools', true, 'chosen'], ['callModel→__end__', false, 'not chosen']]);
    expect(noteWords(tools.note!)).toBe('tools → callModel: plain edge');
    expect(answer.fired?.id).toBe('callModel→__end__');
    expect(answer.server).toMatchObject({ name: 'callModel', next: [], chose: ['__end__'], targets: ['tools', '__end__'], conditional: true });
    expect(withStopWords(trace)).toMatchObject({ stopReason: 'completed', stopExplain: '__end__ reached', tokensUsed: 140 });
    expect(trace.steps.map((step) => step.tokensUsed)).toEqual([54, 54, 140]);
    // Each step's state is its writes over what it started from: the messages after step 2 are the human's, the call and its result.
    expect((foreignStateAfter(trace.steps, 1).messages as unknown[]).length).toBe(3);
    expect((foreignStateBefore(trace.steps, 0).messages as unknown[]).length).toBe(1);
  });

  it('a fork: state edited on the server as a node (updateState) is a step of its own, and the run goes on from it', async () => {
    const agent = reactAgent as never as Servable;
    const drawing = await served(agent);
    await agent.invoke({ messages: [{ role: 'human', content: 'Weather in Paris?' }] }, { configurable: { thread_id: 'f' } });
    const first = foreignTrace('react-agent', await chainOf(agent, 'f'), drawing);
    const asked = first.steps[0];
    const messages = foreignStateAfter(first.steps, 0).messages as { kwargs: { id: string; tool_calls: { args: { city: string } }[] } }[];
    const call = messages[1].kwargs;
    const edited = { id: call.id, type: 'ai', content: '', tool_calls: [{ id: 'call_weather_1', name: 'get_weather', args: { city: 'Lyon' }, type: 'tool_call' }] };
    const forked = await agent.updateState({ configurable: { thread_id: 'f', checkpoint_id: asked.server?.checkpoint } }, { messages: [edited] }, 'callModel');
    await agent.invoke(null, { configurable: forked.configurable });
    const trace = foreignTrace('react-agent', await chainOf(agent, 'f'), drawing);
    expect(trace.steps.map((step) => [step.node, step.server?.edit ?? false])).toEqual([['callModel', false], ['callModel', true], ['tools', false], ['callModel', false]]);
    expect(noteWords(trace.steps[1].note!)).toBe('state edited on the server as callModel (updateState)');
    expect(trace.steps[1].fired?.id).toBe('callModel→tools');
    expect(JSON.stringify(trace.finalState)).toContain('sunny in Lyon');
  });

  it('a dynamic interrupt: the run waits (no stop), then the step that ran on with the answer keeps the value it waited on', async () => {
    const graph = interruptGraph as never as Servable;
    const drawing = await served(graph);
    await graph.invoke({ topic: 'tides' }, { configurable: { thread_id: 'i' } });
    const waiting = foreignTrace('interrupt-graph', await chainOf(graph, 'i'), drawing);
    expect(waiting.steps.map((step) => step.node)).toEqual(['write']);
    expect(waiting.stopReason).toBeNull();
    await graph.invoke(new Command({ resume: 'yes' }), { configurable: { thread_id: 'i' } });
    const done = foreignTrace('interrupt-graph', await chainOf(graph, 'i'), drawing);
    expect(done.steps.map((step) => step.node)).toEqual(['write', 'review', 'publish']);
    expect(done.steps[1].server?.interrupts).toEqual([{ question: 'Publish this draft?', draft: 'A short note about tides.' }]);
    expect(done.finalState).toMatchObject({ verdict: 'yes', published: true });
  });

  it("a subgraph's steps come before its parent node's, with its namespace and parent node", async () => {
    const graph = subgraphGraph as never as Servable;
    const drawing = await served(graph);
    await graph.invoke({ question: 'tides' }, { configurable: { thread_id: 's' } });
    const chain = await chainOf(graph, 's');
    const ns = chain.flatMap((state) => state.tasks ?? []).find((task) => task.checkpoint?.checkpoint_ns)?.checkpoint?.checkpoint_ns as string;
    expect(ns).toMatch(/^research:/);
    const inner = await serverHistory(graph, 's', ns);
    const trace = foreignTrace('subgraph-graph', chain, drawing, new Map([[ns, branchOf(inner[0], inner).chain]]));
    expect(trace.steps.map((step) => [step.node, step.server?.ns ?? '', step.server?.parent ?? ''])).toEqual([
      ['research:search', ns, 'research'], ['research:summarize', ns, 'research'], ['research', '', ''], ['write', '', ''],
    ]);
    expect(trace.steps[0].fired?.id).toBe('research:search→research:summarize');
    expect(noteWords(trace.steps[2].note!)).toBe('research → write: plain edge');
    expect(trace.steps[2].fired?.id).toBe('research:summarize→write');
    expect(foreignStateAfter(trace.steps, 0).notes).toEqual(['found: tides follow the moon']);
    expect(foreignStateBefore(trace.steps, 2).notes).toEqual([]);
    // A fork from a step of the subgraph is refused, saying why and where to fork instead; a step of the graph itself is forked from.
    expect(subgraphForkRefusal(trace.steps, 1)).toBe(
      `Step 2 ran inside the subgraph of research (checkpoint namespace ${ns}), whose checkpoints are its own: a fork edits a checkpoint of the graph itself. ` +
        'Fork instead from step 3 (research), where the subgraph\'s result came back, or start a new run with the run input edited, to run it again.',
    );
    // With a step of the graph before the subgraph (write, moved there), that step is the other way.
    const afterWrite = [trace.steps[3], ...trace.steps].map((step, index) => ({ ...step, step: index + 1 }));
    expect(subgraphForkRefusal(afterWrite, 2)).toContain('from step 4 (research), where the subgraph\'s result came back, or from step 1 (write), before the subgraph ran, to run it again on the state you edit.');
    expect(subgraphForkRefusal(trace.steps, 2)).toBeNull();
  });

  it('a Send fan-out: one step per task of the superstep, the router choosing the worker three times', async () => {
    const graph = fanOutGraph as never as Servable;
    const drawing = await served(graph);
    await graph.invoke({}, { configurable: { thread_id: 'p' } });
    const trace = foreignTrace('fan-out-graph', await chainOf(graph, 'p'), drawing);
    expect(trace.steps.map((step) => step.node)).toEqual(['plan', 'worker', 'worker', 'worker', 'combine']);
    expect(noteWords(trace.steps[0].note!)).toBe('plan → worker: conditional, chose worker ×3 of {worker}');
    expect(trace.steps[2].server?.parallel).toEqual({ index: 2, of: 3 });
    expect(trace.finalState).toMatchObject({ report: '3 findings' });
  });
});

/** A run streamed as the server streams it with the `events` mode (streamEvents v2, each event as JSON), folded as the page folds it. */
const toldRun = async (graph: Servable, input: unknown, thread: string) => {
  const told = emptyTold();
  try {
    for await (const event of graph.streamEvents(input, { version: 'v2', configurable: { thread_id: thread } })) foldEvent(told, JSON.parse(JSON.stringify(event)));
  } catch {
    // A node that threw ends the stream: the thread's history holds its error.
  }
  return told;
};

describe('each task on its own, errors and retries as steps, why a branch was taken (the events stream)', () => {
  it('map-reduce: each Send worker has its own input and result; the superstep\'s change of state is its last task\'s; the router returned the Sends', async () => {
    const graph = mapReduceGraph as never as Servable;
    const drawing = await served(graph);
    const told = await toldRun(graph, { topic: 'animals' }, 'm');
    const trace = foreignTrace('map-reduce', await chainOf(graph, 'm'), drawing);
    const steps = withTold(trace.steps, told);
    const workers = steps.filter((step) => step.node === 'generateJoke');
    expect(workers.map((step) => step.server?.input)).toEqual([{ subject: 'lions' }, { subject: 'elephants' }, { subject: 'penguins' }, { subject: 'owls' }]);
    expect(workers.map((step) => step.server?.result)).toEqual(['lion', 'elephant', 'penguin', 'owl'].map((animal) => ({ jokes: [`Why did the ${animal} cross the road? To debug the other side.`] })));
    // Old main put all four jokes on the first worker and "no change" on the others.
    expect(workers.slice(0, 3).map((step) => step.writes)).toEqual([{}, {}, {}]);
    expect((workers[3].writes.jokes as string[]).length).toBe(4);
    expect(workers.every((step) => step.server?.send)).toBe(true);
    const topics = steps[0];
    expect(topics.server?.routes?.[0].returned).toEqual(['lions', 'elephants', 'penguins', 'owls'].map((subject) => ({ lg_name: 'Send', node: 'generateJoke', args: { subject } })));
    expect(topics.server?.routes?.[0].input).toMatchObject({ subjects: ['lions', 'elephants', 'penguins', 'owls'] });
  });

  it('a ReAct agent: the retried node\'s attempts under its step, the router\'s return value, the node that threw as a step and the run stopped there', async () => {
    const graph = guardedAgent as never as Servable;
    const drawing = await served(graph);
    const told = await toldRun(graph, { messages: [{ role: 'human', content: 'weather in Oslo?' }] }, 'g');
    const trace = foreignTrace('guarded-agent', await chainOf(graph, 'g'), drawing);
    const steps = withTold(trace.steps, told);
    expect(steps.map((step) => step.node)).toEqual(['loadProfile', 'callModel', 'tools', 'guard']);
    expect(steps[0].attempts.map((attempt) => [attempt.n, attempt.outcome, attempt.error])).toEqual([
      [1, 'error', 'attempt 1 failed; the server does not say why'], [2, 'error', 'attempt 2 failed; the server does not say why'], [3, 'ok', undefined],
    ]);
    expect(steps[1].server?.routes?.map((route) => route.returned)).toEqual(['tools']);
    expect(steps[3]).toMatchObject({ outcome: 'error', server: { name: 'guard', error: 'guard refused the tool result: "It is 18°C and sunny in Oslo." cites no source' } });
    expect(withStopWords(trace)).toMatchObject({ stopReason: 'error', stopExplain: 'stopped with an error at node guard: guard refused the tool result: "It is 18°C and sunny in Oslo." cites no source' });
  });

  it('a node that returns a Command: told as one, its goto and its update', async () => {
    const State = Annotation.Root({ turn: Annotation<number>() });
    const supervised = new StateGraph(State)
      .addNode('supervisor', async () => new Command({ goto: 'researcher', update: { turn: 2 } }), { ends: ['researcher', END] })
      .addNode('researcher', async () => ({ turn: 3 }))
      .addEdge(START, 'supervisor').addEdge('researcher', END)
      .compile() as never as Servable;
    const drawing = await served(supervised);
    const told = await toldRun(supervised, { turn: 1 }, 'c');
    const steps = withTold(foreignTrace('supervised', await chainOf(supervised, 'c'), drawing).steps, told);
    expect(steps[0].server?.command).toEqual({ goto: ['researcher'], update: { turn: 2 } });
  });

  it('keeps a thread read from its history only as it was: no word from a stream, none made up', async () => {
    const graph = guardedAgent as never as Servable;
    const drawing = await served(graph);
    await graph.invoke({ messages: [{ role: 'human', content: 'hi' }] }, { configurable: { thread_id: 'h' } }).catch(() => null);
    const trace = foreignTrace('guarded-agent', await chainOf(graph, 'h'), drawing);
    expect(withTold(trace.steps, emptyTold())).toEqual(trace.steps);
    expect(trace.steps.every((step) => step.attempts.length === 0 && step.server?.routes === undefined)).toBe(true);
  });
});

describe('a hostile history', () => {
  const state = (id: string, parent: string | null): CheckpointState => ({ values: {}, next: [], checkpoint: { checkpoint_id: id }, parent_checkpoint: parent ? { checkpoint_id: parent } : null });

  it('refuses checkpoints whose parents go round in a circle, at once and with a message', () => {
    const cycle = [state('a', 'b'), state('b', 'c'), state('c', 'a')];
    expect(() => branchOf(cycle[0], cycle)).toThrow(/go round in a circle: checkpoint a is its own ancestor/);
    const self = [state('x', 'x')];
    expect(() => branchOf(self[0], self)).toThrow(/circle/);
  });

  it('stops a branch longer than it reads', () => {
    const long = Array.from({ length: 6_000 }, (_, index) => state(`c${index}`, `c${index + 1}`));
    expect(() => branchOf(long[0], long)).toThrow(/longer than 5000 checkpoints/);
  });

  it('reads a history of odd shapes without throwing on it: no tasks, values that are not objects, names that are not strings', () => {
    const odd = [
      { values: 'nope', next: [], checkpoint: { checkpoint_id: 'b' }, parent_checkpoint: { checkpoint_id: 'a' } },
      { values: {}, next: ['x', 7], checkpoint: { checkpoint_id: 'a' }, parent_checkpoint: null, tasks: [{ name: 3 }, null] },
    ] as unknown as CheckpointState[];
    expect(foreignTrace('odd', odd, null).steps.map((step) => step.node)).toEqual(['x']);
  });
});
