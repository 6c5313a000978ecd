import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACE_LIMITS } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import type { Trace } from '../runtime/trace.ts';
import { timelineLayout } from '../runtime/timelineLayout.ts';
import { traceIndex } from '../runtime/traceIndex.ts';
import { collector, parseOffThread, TRACE_CHUNK, type ParseMessage, type ParseRequest } from './offThread.ts';
import { readTraceFile } from './parseRequest.ts';
import { answer } from './parseInWorker.ts';

const longTrace = async (): Promise<Trace> => {
  const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1, compact: true });
  // The same steps over and over, numbered on: more than two chunks of them.
  const copies = Math.ceil((TRACE_CHUNK * 2 + 1) / trace.steps.length);
  return { ...trace, steps: Array.from({ length: copies }, (_, copy) => trace.steps.map((step) => ({ ...step, step: step.step + copy * trace.steps.length }))).flat() };
};

describe('a trace file read off the main thread', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('comes back in chunks of steps, whole, with its index made by the worker', async () => {
    const trace = await longTrace();
    const messages: ParseMessage[] = [];
    // Copied as a worker's message is, which gives every object an ordinary prototype.
    await answer({ kind: 'trace', file: new Blob([JSON.stringify(trace)]) }, (message) => messages.push(structuredClone(message)));
    expect(messages).toHaveLength(1 + Math.ceil(trace.steps.length / TRACE_CHUNK));
    const collect = collector();
    const results = messages.map(collect);
    expect(results.slice(0, -1).every((result) => result === null)).toBe(true);
    const last = results.at(-1);
    expect(last?.ok && last.value).toEqual(JSON.parse(JSON.stringify(trace)));
    const steps = last?.ok ? (last.value as Trace).steps : [];
    // The page has the worker's index: no pass over the steps, and visits with null prototypes again.
    const index = traceIndex(steps);
    expect(index.rounds).toHaveLength(steps.length);
    expect(Object.getPrototypeOf(index.nodeVisits)).toBeNull();
    expect(index.nodeVisits.decide).toBe(steps.filter((step) => step.node === 'decide').length);
    // And the timeline's layout of the whole run, stop row included: the page does not lay it out.
    const layout = index.timeline?.layout;
    expect(index.timeline?.stop).toBe(true);
    expect(timelineLayout(last?.ok ? (last.value as Trace) : trace, index)).toBe(layout);
    expect(layout?.rowOfStep).toHaveLength(steps.length);
  });

  it('says the trace is checked, with its graph and no step, before its steps reach the page', async () => {
    const trace = { ...(await longTrace()), graphFile: { name: 'its own graph' } };
    const heard: string[] = [];
    // A worker in this thread: the same answer, each message delivered as a task of its own.
    class ThisThreadWorker {
      onmessage: ((event: { data: ParseMessage }) => void) | null = null;
      postMessage(request: ParseRequest) {
        void answer(request, (message) => {
          const copy = structuredClone(message);
          setTimeout(() => {
            heard.push(Array.isArray(copy) ? 'steps' : 'trace');
            this.onmessage?.({ data: copy });
          });
        });
      }
      terminate() {}
    }
    vi.stubGlobal('Worker', ThisThreadWorker);
    const result = await parseOffThread({ kind: 'trace', file: new Blob([JSON.stringify(trace)]) }, (checked) =>
      heard.push(`checked: ${checked.steps.length} steps, graph ${String(checked.graphFile?.name)}`),
    );
    const chunks = Math.ceil(trace.steps.length / TRACE_CHUNK);
    expect(heard).toEqual(['trace', 'checked: 0 steps, graph its own graph', ...Array<string>(chunks).fill('steps')]);
    expect(result.ok && result.value.steps).toHaveLength(trace.steps.length);
  });

  it('refuses a file too big to be within the trace limits without reading it', async () => {
    const huge = { size: TRACE_LIMITS.textChars * 3 + 1, arrayBuffer: () => Promise.reject(new Error('read')) } as unknown as Blob;
    const result = await readTraceFile(huge);
    expect(!result.ok && result.problems[0].message).toBe('too large: the file has 600.0 MB, at most 200.0 MB of text can be opened');
  });

  it('passes a refusal on as it is', async () => {
    const messages: ParseMessage[] = [];
    await answer({ kind: 'trace', file: new Blob(['{"__proto__": {}}']) }, (message) => messages.push(message));
    expect(messages).toHaveLength(1);
    expect(collector()(messages[0])?.ok).toBe(false);
  });
});
