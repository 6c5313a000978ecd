import { describe, expect, it } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import type { TraceStep } from '../runtime/trace.ts';
import { keepUnchanged, nodeStatusesFor } from './nodeStatus.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();
const texts = (chips: readonly { text: string }[] | undefined) => chips?.map((chip) => chip.text);

describe('node statuses of a run', () => {
  it('after the default SecurityClaw run: what each node wrote, and the retried execute step took 2 attempts of 3', async () => {
    const graph = securityclaw();
    const trace = await runGraph(graph);
    const statuses = nodeStatusesFor(graph, trace.steps);
    expect(texts(statuses.decide)).toEqual(['wrote plan']);
    // Its last step (round 2) took one attempt; the round-1 step with the retry shows while it is the last.
    expect(texts(statuses.execute)).toEqual(['wrote 2 fields']);
    expect(statuses.execute[0].label).toBe('wrote results, execution_error');
    expect(texts(nodeStatusesFor(graph, trace.steps.slice(0, 2)).execute)).toEqual(['attempt 2 of 3', 'wrote 2 fields']);
    expect(statuses.halt).toBeUndefined();
  });

  it('an error outside retryOn and no rule for it: execute failed, the stop node ran and wrote nothing', async () => {
    const graph = securityclaw();
    const recover = graph.nodes.find((node) => node.id === 'recover');
    if (recover?.kind === 'recover') recover.config.rules = recover.config.rules.filter((rule) => rule.reason !== 'execution_error');
    graph.skills.search_events = { type: 'mock', access: 'read', script: [{ outcome: 'error', error: 'SIEM returned 500' }] };
    const trace = await runGraph(graph);
    const statuses = nodeStatusesFor(graph, trace.steps);
    expect(texts(statuses.execute)).toEqual(['failed: error', 'wrote 2 fields']);
    expect(texts(statuses.halt)).toEqual(['wrote nothing']);
    expect(statuses.halt[0].tone).toBe('wrote-nothing');
    expect(statuses.recover[0].tone).toBe('wrote');
  });

  it('a node that never ran is not looked for through the whole run: a long run is read from its end only', async () => {
    const graph = securityclaw();
    const trace = await runGraph(graph);
    const long = Array.from({ length: 50 }, () => trace.steps).flat();
    let reads = 0;
    const counted = long.map((step) => new Proxy(step, { get: (target, key, receiver) => (key === 'node' && (reads += 1), Reflect.get(target, key, receiver)) }));
    // The index is made once for the run (an imported trace's by the parsing worker): its reads are not the selection's.
    expect(nodeStatusesFor(graph, counted)).toEqual(nodeStatusesFor(graph, trace.steps));
    reads = 0;
    nodeStatusesFor(graph, counted, undefined, counted.length - 3);
    expect(reads).toBeLessThan(trace.steps.length * 2);
    expect(nodeStatusesFor(graph, counted).halt).toBeUndefined();
  });

  it('a guard stop fails the step it stopped, with the guard in the words', async () => {
    const graph = securityclaw();
    const trace = await runGraph(graph, { scenario: 'the budget runs out before a retry attempt' });
    const execute = nodeStatusesFor(graph, trace.steps).execute;
    expect(texts(execute)).toContain('failed: budget_exhausted');
    expect(execute[0].label).toMatch(/^failed: budget_exhausted \(.+\)$/);
  });

  it('the live run: running with the attempt under way while a timeout is retried in place; the node paused before runs next', () => {
    const graph = securityclaw();
    const running = nodeStatusesFor(graph, [], { running: 'execute', attempts: [{ n: 1, skill: 'search_events', outcome: 'timeout', tokens: 100 }], next: null });
    expect(texts(running.execute)).toEqual(['running', 'attempt 2 of 3']);
    expect(running.execute[1].label).toBe('attempt 2 of 3 running');
    // An error is not in execute's retryOn: the attempt that failed was the last.
    const notRetried = nodeStatusesFor(graph, [], { running: 'execute', attempts: [{ n: 1, skill: 'search_events', outcome: 'error', tokens: 0 }], next: null });
    expect(texts(notRetried.execute)).toEqual(['running']);
    const paused = nodeStatusesFor(graph, [], { running: null, attempts: [], next: 'evaluate' });
    expect(texts(paused.evaluate)).toEqual(['runs next']);
  });

  it('a node running again shows its live state and its last result, not its old attempts', () => {
    const graph = securityclaw();
    const earlier: TraceStep = { step: 1, round: 1, node: 'execute', kind: 'act', outcome: 'empty', reads: [], writes: { results: [] }, edges: [], fired: null, guard: null, durationMs: 0,
      attempts: [{ n: 1, skill: 'search_events', outcome: 'timeout', tokens: 0 }, { n: 2, skill: 'search_events', outcome: 'empty', tokens: 0 }] };
    expect(texts(nodeStatusesFor(graph, [earlier], { running: 'execute', attempts: [], next: null }).execute)).toEqual(['running', 'wrote results']);
  });

  it('keeps the entries that did not change, so their nodes are not drawn again', async () => {
    const graph = securityclaw();
    const trace = await runGraph(graph);
    const before = nodeStatusesFor(graph, trace.steps.slice(0, 3));
    const after = keepUnchanged(before, nodeStatusesFor(graph, trace.steps.slice(0, 4)));
    expect(after.decide).toBe(before.decide);
    expect(after.execute).toBe(before.execute);
    expect(after.recover).toBeDefined();
    expect(keepUnchanged(after, nodeStatusesFor(graph, trace.steps.slice(0, 4)))).toBe(after);
  });

  it('a node called like an Object method has no status until it ran (none read from the prototype)', () => {
    const graph = { ...securityclaw(), nodes: securityclaw().nodes.map((node) => (node.id === 'decide' ? { ...node, id: 'toString' } : node)) };
    expect(keepUnchanged({}, nodeStatusesFor(graph, []))).toEqual({});
    expect(keepUnchanged({}, nodeStatusesFor(graph, [], { running: 'toString', attempts: [], next: null })).toString).toHaveLength(1);
  });
});
