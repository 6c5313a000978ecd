import { describe, expect, it } from 'vitest';
import { emptyTold, errorWords, foldEvent, keptInput, ROUTE_CHANNEL_KEPT, ROUTE_INPUT_KEPT, TOLD_LIMITS, withTold } from './serverEvents.ts';
import type { TraceStep } from './trace.ts';

const start = (run: string, name: string, task: string, extra: Record<string, unknown> = {}) => ({
  event: 'on_chain_start', name, run_id: run, tags: name === 'node' ? ['graph:step:1'] : [],
  metadata: { langgraph_node: 'node', langgraph_step: 1, langgraph_checkpoint_ns: `node:${task}` }, data: { input: { n: 1 } }, ...extra,
});
const end = (run: string, output: unknown) => ({ event: 'on_chain_end', run_id: run, metadata: {}, data: { output } });

describe("a run's event stream folded into what it told of its tasks", () => {
  it('keeps a node\'s attempts (one that threw never ends), and a router\'s run only when it returned a route', () => {
    const told = emptyTold();
    for (const event of [start('a1', 'node', 't'), start('a2', 'node', 't'), end('a2', { ok: 1 }), start('r1', 'RunnableLambda', 't'), end('r1', { not: 'a route' }), start('r2', 'RunnableLambda', 't'), end('r2', '__end__')]) foldEvent(told, event);
    expect(told.tasks.get('t')).toEqual({ node: 'node', input: { n: 1 }, attempts: [false, true], output: { ok: 1 }, routes: [{ input: { n: 1 }, returned: '__end__' }] });
  });

  it('reads events of odd shapes without throwing, keeps what is not a node\'s or router\'s run out, and bounds what it keeps', () => {
    const told = emptyTold();
    for (const odd of [null, 3, 'x', [], { run_id: 1 }, { run_id: 'x', metadata: null }, start('p', 'ChatPromptTemplate', 't'), start('q', 'node', ''), end('nobody', 'tools'), { ...start('s', 'node', 't'), metadata: { langgraph_node: 'node', langgraph_checkpoint_ns: 'node:' } }]) foldEvent(told, odd);
    expect(told.tasks.size).toBe(0);
    for (let index = 0; index < TOLD_LIMITS.tasks + 5; index += 1) foldEvent(told, start(`n${index}`, 'node', `t${index}`));
    for (let index = 0; index < TOLD_LIMITS.attempts + 5; index += 1) foldEvent(told, start(`m${index}`, 'node', 't0'));
    expect(told.tasks.size).toBe(TOLD_LIMITS.tasks);
    expect(told.tasks.get('t0')?.attempts).toHaveLength(TOLD_LIMITS.attempts);
  });

  it('words a task error as its message, not the JSON the server sends it in', () => {
    expect(errorWords('{"message":"boom","name":"Error"}')).toBe('boom');
    expect(errorWords('{"message":"slow","name":"TimeoutError"}')).toBe('TimeoutError: slow');
    expect(errorWords('plain words')).toBe('plain words');
  });
});

describe("a router's input (the whole state) on each conditional step", () => {
  const longThread = { messages: Array.from({ length: 400 }, (_, index) => ({ type: 'human', content: `message ${index} of a long thread` })), topic: 'rain', count: 3 };

  it('is kept whole when short', () => {
    expect(keptInput({ topic: 'rain' })).toEqual({ input: { topic: 'rain' } });
  });

  it('is kept without its long channels once the state is long, saying how much was left out', () => {
    const size = JSON.stringify(longThread.messages).length;
    expect(JSON.stringify(longThread).length).toBeGreaterThan(ROUTE_INPUT_KEPT);
    expect(keptInput(longThread)).toEqual({ input: { messages: `… (${Math.round(size / 1024)} KB left out)`, topic: 'rain', count: 3 }, leftOut: size });
    const huge = 'x'.repeat(ROUTE_INPUT_KEPT * 3);
    expect(keptInput(huge)).toEqual({ input: '… (24 KB left out)', leftOut: huge.length + 2 });
  });

  it('does not grow a long thread\'s trace by its state at every conditional step', () => {
    const told = emptyTold();
    const steps: TraceStep[] = [];
    for (let at = 0; at < 50; at += 1) {
      const task = `t${at}`;
      foldEvent(told, start(`r${at}`, 'RunnableLambda', task, { data: { input: longThread } }));
      foldEvent(told, end(`r${at}`, 'tools'));
      steps.push({ server: { name: 'node', checkpoint: `c${at}`, parentCheckpoint: null, next: [], targets: [], chose: [], conditional: true, task } } as unknown as TraceStep);
    }
    const shown = withTold(steps, told);
    expect(shown[0].server?.routes?.[0]).toMatchObject({ returned: 'tools', leftOut: expect.any(Number) });
    // Each step keeps the short channels and a word for each long one: well under a state's size each.
    expect(JSON.stringify(shown).length).toBeLessThan(50 * (ROUTE_CHANNEL_KEPT * 2 + 400));
    expect(JSON.stringify(shown).length).toBeLessThan(JSON.stringify(longThread).length * 2);
  });
});
