import { describe, expect, it } from 'vitest';
import { emptyTold, errorWords, foldEvent, TOLD_LIMITS } from './serverEvents.ts';

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
