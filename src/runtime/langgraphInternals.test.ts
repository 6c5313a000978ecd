/**
 * The contract with LangGraph's internals (langgraphInternals.ts), on a bare StateGraph and none of
 * Loopscope's compile: each test names what an upgrade of @langchain/langgraph would have changed.
 */
import { EphemeralValue } from '@langchain/langgraph/channels';
import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { describe, expect, it } from 'vitest';
import { FieldChannel, stepStartValues, withLeanSteps } from './langgraphInternals.ts';

const fields = () => Annotation.Root({ count: () => new FieldChannel(), note: () => new FieldChannel() });

/** `bump` counts to 3 then goes to `last`; each route records what it was given and what it read. */
const counter = (reads: Record<string, unknown>[], given: Record<string, unknown>[] = []) => {
  const builder = new StateGraph(fields())
    .addNode('bump', (values: Record<string, unknown>) => ({ count: ((values.count as number | undefined) ?? 0) + 1 }))
    .addNode('last', () => ({ note: 'done' }))
    .addEdge(START, 'bump')
    .addConditionalEdges('bump', (update: Record<string, unknown>, config: LangGraphRunnableConfig) => {
      given.push(update);
      const values = { ...stepStartValues(config, ['count', 'note']), ...update };
      reads.push(values);
      return (values.count as number) < 3 ? 'bump' : 'last';
    }, ['bump', 'last'])
    .addEdge('last', END);
  return builder;
};

describe('what Loopscope relies on in LangGraph, not its public API', () => {
  it('a FieldChannel is taken for a LastValue when a second schema names the same field', () => {
    expect(() => new StateGraph({ stateSchema: fields(), input: fields() })).not.toThrow();
    expect(new FieldChannel().lc_graph_name).toBe('LastValue');
  });

  it('a FieldChannel nothing wrote reads as undefined and checkpoints as undefined, without throwing', () => {
    const empty = new FieldChannel();
    expect(empty.get()).toBeUndefined();
    expect(empty.checkpoint()).toBeUndefined();
    expect(empty.isAvailable()).toBe(false);
    expect(empty.fromCheckpoint(4).get()).toBe(4);
  });

  it('compiled.channels holds the trigger channels as EphemeralValue, and they are swapped in place for quiet ones', () => {
    const builder = counter([]);
    const plain = builder.compile();
    const triggers = Object.entries(plain.channels as Record<string, unknown>).filter(([, channel]) => channel instanceof EphemeralValue).map(([name]) => name);
    expect(triggers).toEqual(expect.arrayContaining(['branch:to:bump', 'branch:to:last']));
    const lean = withLeanSteps(builder.compile(), builder.branches);
    for (const name of triggers) {
      const channel = (lean.channels as Record<string, EphemeralValue<unknown>>)[name];
      expect(channel).toBeInstanceOf(EphemeralValue);
      expect(channel.constructor.name).not.toBe('EphemeralValue');
      expect(channel.checkpoint()).toBeUndefined();
    }
  });

  it('a node\'s routes are its last writers, named <branch_run>; attached again without a reader, a route reads the step\'s values through configurable.__pregel_read', async () => {
    const reads: Record<string, unknown>[] = [];
    const given: Record<string, unknown>[] = [];
    const builder = counter(reads, given);
    const plain = builder.compile();
    const writers = (plain.nodes as unknown as Record<string, { writers: { getName: () => string }[] }>).bump.writers;
    expect(writers.at(-1)?.getName()).toBe('<branch_run>');
    const lean = withLeanSteps(builder.compile({ checkpointer: new MemorySaver() }), builder.branches);
    const result = await lean.invoke({ count: 0, note: 'started' }, { configurable: { thread_id: 't' } });
    expect(result).toEqual({ count: 3, note: 'done' });
    // Given the node's update alone (LangGraph's reader would give the whole state, read fresh)...
    expect(given).toEqual([{ count: 1 }, { count: 2 }, { count: 3 }]);
    // ...the route reads the state as the step began, with the update over it.
    expect(reads).toEqual([{ count: 1, note: 'started' }, { count: 2, note: 'started' }, { count: 3, note: 'started' }]);
  });

  it('refuses, by name, a LangGraph that attaches a node\'s routes otherwise', () => {
    const builder = counter([]);
    const compiled = builder.compile();
    (compiled.nodes as unknown as Record<string, { writers: unknown[] }>).bump.writers.push({ getName: () => 'something else' });
    expect(() => withLeanSteps(compiled, builder.branches)).toThrow('LangGraph attached the routes of "bump" otherwise than this version expects');
  });

  it('stepStartValues says so when it is called outside a LangGraph step', () => {
    expect(() => stepStartValues({}, ['count'])).toThrow('a route reads the state inside a LangGraph step');
  });
});
