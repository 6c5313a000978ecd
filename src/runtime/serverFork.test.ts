import { Command, MemorySaver } from '@langchain/langgraph/web';
import { describe, expect, it } from 'vitest';
import { graph as planExecute } from './fixtures/langgraph/planExecuteGraph.ts';
import { graph as supervisor } from './fixtures/langgraph/supervisorGraph.ts';
import { branchesAt, forkRequest, ownWrites } from './serverFork.ts';
import { drawingOf, type ServerDrawing } from './serverGraph.ts';
import { branchOf, foreignTrace, type CheckpointState } from './serverTrace.ts';
import { noteWords } from './stepWords.ts';

/** A fixture graph as the dev server runs it: with a checkpointer, its history as the server's API sends it (a task's result included). */
interface Served {
  checkpointer?: unknown;
  getStateHistory: (config: object) => AsyncIterable<{ values: unknown; next: string[]; metadata?: unknown; config: { configurable?: Record<string, unknown> }; parentConfig?: { configurable?: Record<string, unknown> }; tasks: { name: string; result?: unknown }[] }>;
  getGraphAsync: (config: object) => Promise<{ toJSON: () => unknown }>;
  invoke: (input: unknown, config: object) => Promise<unknown>;
  updateState: (config: object, values: unknown, asNode?: string) => Promise<{ configurable?: Record<string, unknown> }>;
}

const serve = async (graph: unknown) => {
  const served = graph as Served;
  served.checkpointer = new MemorySaver();
  const drawing = (drawingOf(JSON.parse(JSON.stringify((await served.getGraphAsync({ xray: true })).toJSON()))) as { drawing: ServerDrawing }).drawing;
  const history = async (thread: string) => {
    const states: CheckpointState[] = [];
    for await (const snapshot of served.getStateHistory({ configurable: { thread_id: thread } }))
      states.push(JSON.parse(JSON.stringify({
        values: snapshot.values, next: snapshot.next, metadata: snapshot.metadata,
        checkpoint: { checkpoint_id: snapshot.config.configurable?.checkpoint_id },
        parent_checkpoint: snapshot.parentConfig ? { checkpoint_id: snapshot.parentConfig.configurable?.checkpoint_id } : null,
        tasks: snapshot.tasks.map((task) => ({ name: task.name, result: task.result ?? null })),
      })) as CheckpointState);
    return states;
  };
  const trace = async (thread: string, head?: string) => {
    const states = await history(thread);
    return { states, trace: foreignTrace('graph', branchOf(states.find((state) => !head || state.checkpoint.checkpoint_id === head) as CheckpointState, states).chain, drawing) };
  };
  return { served, trace };
};

describe('a fork of a LangGraph graph changes only what the person changed', () => {
  it("plan-and-execute: the replanner's own writes are its plan alone; edited and written as it in the checkpoint it ran from, pastSteps goes through its reducer once", async () => {
    const { served, trace } = await serve(planExecute);
    const config = { configurable: { thread_id: 'p' } };
    await served.invoke({ input: 'sail' }, config);
    await served.invoke(new Command({ resume: 'Brest' }), config);
    const ran = await trace('p');
    expect(ran.trace.finalState.response).toBe('Finished 3 steps');
    const replan = ran.trace.steps.find((step) => step.node === 'replan') as (typeof ran.trace.steps)[number];
    // What the node returned, not the state after it (where pastSteps holds every step so far).
    const writes = ownWrites(ran.states, replan);
    expect(writes).toEqual({ plan: ['Look up the tide times', 'Write the sailing plan'] });
    const request = forkRequest(replan, { plan: ['Look up the tide times', 'Write a haiku'] });
    expect(request).toEqual({ checkpointId: replan.server?.parentCheckpoint, asNode: 'replan', values: { plan: ['Look up the tide times', 'Write a haiku'] }, goto: null });
    if ('refused' in request) return;
    const forked = await served.updateState({ configurable: { thread_id: 'p', checkpoint_id: request.checkpointId } }, request.values, request.asNode);
    await served.invoke(null, { configurable: forked.configurable });
    const branched = await trace('p');
    expect(branched.trace.finalState.response).toBe('Finished 3 steps');
    expect((branched.trace.finalState.pastSteps as string[][]).map(([step]) => step)).toEqual(['Ask which harbour to sail from', 'Look up the tide times', 'Write a haiku']);
    // The fork is a step of its own, made as the replanner in its place, and the step's checkpoint now has two branches: the first as it ran.
    const edit = branched.trace.steps.find((step) => step.server?.edit);
    expect(noteWords(edit!.note!)).toBe('state edited on the server as replan (updateState)');
    const branches = branchesAt(branched.states, request.checkpointId);
    expect(branches.map((branch) => branch.edited)).toEqual([false, true]);
    expect(branches[0]).toMatchObject({ first: replan.server?.checkpoint, head: ran.states[0].checkpoint.checkpoint_id });
    expect(branches[1].head).toBe(branched.states[0].checkpoint.checkpoint_id);
    // The branch it came from stays whole.
    const old = await trace('p', branches[0].head);
    expect(old.trace.steps.map((step) => step.node)).toEqual(ran.trace.steps.map((step) => step.node));
    expect(branchesAt(branched.states, String(ran.states.at(-1)?.checkpoint.checkpoint_id))).toEqual([]);
  });

  it("supervisor: a fork from a node that routes with Command({goto}) goes where the person chose, told as the edit's goto", async () => {
    const { served, trace } = await serve(supervisor);
    const config = { configurable: { thread_id: 's' } };
    await served.invoke({ messages: [{ role: 'human', content: 'plan a sail' }] }, config);
    const ran = await trace('s');
    expect(ran.trace.steps.map((step) => step.node)).toEqual(['supervisor', 'researcher', 'supervisor', 'writer', 'supervisor']);
    const first = ran.trace.steps[0];
    expect(first.server).toMatchObject({ chose: ['researcher'], targets: ['researcher', 'writer', '__end__'], conditional: true });
    // A Command's route is not among its writes: there are none to edit.
    expect(ownWrites(ran.states, first)).toBeNull();
    expect(forkRequest(first, {}, 'nowhere')).toEqual({ refused: 'nowhere is not one of the places supervisor can go to (researcher, writer, __end__)' });
    const request = forkRequest(first, {}, 'writer');
    if ('refused' in request) throw new Error(request.refused);
    const edited = await served.updateState({ configurable: { thread_id: 's', checkpoint_id: request.checkpointId } }, request.values, request.asNode);
    await served.invoke(new Command({ goto: request.goto as string }), { configurable: edited.configurable });
    const branched = await trace('s');
    expect(branched.trace.steps.map((step) => [step.node, step.server?.edit ?? false])).toEqual([['supervisor', true], ['writer', false], ['supervisor', false], ['writer', false], ['supervisor', false]]);
    expect(noteWords(branched.trace.steps[0].note!)).toBe('state edited on the server as supervisor (updateState), then goto writer (Command)');
    expect(branched.trace.steps[0].fired?.id).toBe('supervisor→writer');
    expect(new Set(branched.trace.steps.map((step) => step.round))).toEqual(new Set([1]));
  });
});
