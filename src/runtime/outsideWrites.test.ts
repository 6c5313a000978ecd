/**
 * A served graph (the LangGraph export, `loopscope serve`) takes from a run's input and from
 * updateState only what the app's fork editor takes: the ledger and the step record never (but a
 * person's decision), the agent state through the state schema. A read-only graph with a DELETE
 * skill cannot be made to send it by a forged ledger.
 */
import { MemorySaver } from '@langchain/langgraph/web';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseGraph } from '../graph/parse.ts';
import type { GraphFile } from '../graph/index.ts';
import { buildStateGraph } from './compile.ts';
import { initialValues } from './state.ts';

/** Read-only, with a DELETE skill the act node would call, and an approval that may grant it. */
const graph = (() => {
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: 'wipe', entry: 'act', permissions: { mode: 'read-only' }, state: { question: 'q' },
    skills: { del: { type: 'http', method: 'DELETE', access: 'write', url: 'http://127.0.0.1:9/records' } },
    nodes: [{ id: 'act', kind: 'act', config: { skill: 'del' } }, { id: 'end', kind: 'stop' }],
    edges: [{ id: 'e', source: 'act', target: 'end' }],
  });
  if (!parsed.ok) throw new Error('the graph does not parse');
  return parsed.value as GraphFile;
})();

const sent = vi.fn(async () => new Response('[]'));
afterEach(() => sent.mockClear());

// The person granted writes: what keeps a forged grant from sending the DELETE is the served graph's rule alone.
const compiled = (served: boolean) => buildStateGraph(graph, { fetch: sent as unknown as typeof fetch, granted: 'workspace' }, { served }).compile({ checkpointer: new MemorySaver() });
const thread = (id: string) => ({ configurable: { thread_id: id } });
const ledger = initialValues(graph, 1)._run;
const forged = { _run: { ...ledger, grants: { del: 5 } } };

const runToEnd = async (served: boolean, input: Record<string, unknown>, id = 'run') => {
  const graphRun = compiled(served);
  await graphRun.invoke(input, thread(id));
  return graphRun.getState(thread(id));
};

describe('a served graph takes from outside only what the app\'s fork editor takes', () => {
  it('a run\'s input cannot carry its own ledger: the forged grant is refused and the DELETE never sent', async () => {
    await expect(runToEnd(true, forged)).rejects.toThrow('"_run" is the run\'s ledger, kept by the Loopscope runtime: neither a run\'s input nor updateState can set it');
    await expect(runToEnd(true, { _run: { ...ledger, overrides: { del: [{ outcome: 'ok', records: [{ forged: true }] }] } } })).rejects.toThrow('"_run" is the run\'s ledger');
    await expect(runToEnd(true, { _step: { step: 1 } })).rejects.toThrow('"_step" is the record of the step that ran last');
    expect(sent).not.toHaveBeenCalled();
    // The graph's own fields come in as any JSON; the runtime's counters only as the state schema types them.
    const state = await runToEnd(true, { question: { any: ['json'] } });
    expect(state.values.question).toEqual({ any: ['json'] });
    expect((state.values.results as { outcome: string }[])[0].outcome).toBe('permission_denied');
    await expect(runToEnd(true, { steps: -5 })).rejects.toThrow('"steps" does not fit the state schema: steps: must be at least 0');
    expect(sent).not.toHaveBeenCalled();
  });

  it('without the rule (the app\'s own runs, whose controller writes the ledger), the same input would send it', async () => {
    await runToEnd(false, { ...initialValues(graph, 1), ...forged });
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('updateState: a fork\'s edits of the agent state (as the debugger sends them) and a person\'s decision go in; the ledger and the step record do not', async () => {
    const graphRun = compiled(true);
    await graphRun.invoke({}, { ...thread('fork'), interruptBefore: ['end'] });
    const paused = await graphRun.getState(thread('fork'));
    const run = paused.values._run as typeof ledger;
    await expect(graphRun.updateState(thread('fork'), { _run: { ...run, grants: { del: 1 } } })).rejects.toThrow('only its "decision" may change');
    // Nor a person's grant, which alone lifts what the person granted the run.
    await expect(graphRun.updateState(thread('fork'), { _run: { ...run, grants: { del: 1 }, personGrants: { del: 1 } } })).rejects.toThrow('only its "decision" may change');
    await expect(graphRun.updateState(thread('fork'), { _run: { ...run, decision: 'maybe' } })).rejects.toThrow('"_run" is the run\'s ledger');
    await expect(graphRun.updateState(thread('fork'), { _step: null }, 'act')).rejects.toThrow('"_step" is the record');
    await expect(graphRun.updateState(thread('fork'), { results: 'not a list' }, 'act')).rejects.toThrow('"results" does not fit the state schema');
    // "Approve on server": the ledger as it is, with the person's decision.
    await graphRun.updateState(thread('fork'), { _run: { ...run, decision: 'approved' } });
    expect(((await graphRun.getState(thread('fork'))).values._run as typeof ledger).decision).toBe('approved');
    // "Fork on server": the agent state edited as the node that ran, which routes again.
    await graphRun.updateState(thread('fork'), { results: [{ skill: 'del', args: {}, outcome: 'ok', records: [{}], attempts: 1 }], steps: 0 }, 'act');
    const forkedState = await graphRun.getState(thread('fork'));
    expect(forkedState.values.steps).toBe(0);
    expect(forkedState.next).toEqual(['end']);
    expect(sent).not.toHaveBeenCalled();
  });
});
