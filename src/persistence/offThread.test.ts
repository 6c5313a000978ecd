import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACE_LIMITS } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import { serializeTrace, type Trace } from '../runtime/trace.ts';
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

  it('parsed whole in the worker, comes back in chunks of steps with its index made there', async () => {
    const trace = await longTrace();
    const messages: ParseMessage[] = [];
    await answer({ kind: 'trace', file: new Blob([JSON.stringify(trace)]) }, (message) => messages.push(structuredClone(message)));
    expect(messages).toHaveLength(1 + Math.ceil(trace.steps.length / TRACE_CHUNK));
    const last = messages.map(collector()).at(-1);
    expect(last?.ok && last.value).toEqual(JSON.parse(JSON.stringify(trace)));
    const steps = last?.ok ? (last.value as Trace).steps : [];
    expect(Object.getPrototypeOf(traceIndex(steps).nodeVisits)).toBeNull();
    expect(traceIndex(steps).timeline?.stop).toBe(true);
  });

  /** What the workers in this thread delivered (one started is kept for the next parse, whichever test it is). */
  const heard: string[] = [];
  /** A worker in this thread: the same answer, each message delivered as a task of its own. */
  const thisThreadWorker = () =>
    class ThisThreadWorker {
      onmessage: ((event: { data: ParseMessage }) => void) | null = null;
      postMessage(request: ParseRequest) {
        void answer(request, (message) => {
          const copy = structuredClone(message);
          setTimeout(() => {
            heard.push(Array.isArray(copy) ? 'steps' : 'trace parsed whole');
            this.onmessage?.({ data: copy });
          });
        });
      }
      terminate() {}
    };

  it('reads a big trace on the page, with no worker, and leaves one it does not plainly take to the worker, which names the path', async () => {
    const trace = { ...(await longTrace()), graphFile: { name: 'its own graph' } };
    heard.length = 0;
    vi.stubGlobal('Worker', thisThreadWorker());
    const read = await parseOffThread({ kind: 'trace', file: new Blob([serializeTrace(trace)]) }, () => heard.push('checked'));
    expect(read.ok && read.value).toEqual(JSON.parse(JSON.stringify(trace)));
    expect(heard).toEqual([]);
    // A step the page's quick check does not pass: the worker parses it whole and says where.
    const odd = { ...trace, steps: trace.steps.map((step, index) => (index === TRACE_CHUNK + 1 ? { ...step, attempts: [...step.attempts, { n: 1, skill: 'x', outcome: 'ok', tokens: 0, unknown: 1 }] } : step)) };
    const refused = await parseOffThread({ kind: 'trace', file: new Blob([JSON.stringify(odd)]) });
    expect(!refused.ok && refused.problems[0]).toEqual({ path: `steps[${TRACE_CHUNK + 1}].attempts[${trace.steps[TRACE_CHUNK + 1].attempts.length}].unknown`, message: 'unknown key "unknown" is not allowed here' });
    expect(heard).toEqual(['trace parsed whole']);
  });

  it('says the trace is checked, with its graph and no step, before its steps reach the page, when the worker parses it', async () => {
    const trace = { ...(await longTrace()), graphFile: { name: 'its own graph' } };
    heard.length = 0;
    vi.stubGlobal('Worker', thisThreadWorker());
    // Written as UTF-16, which only the worker's whole read takes.
    const text = JSON.stringify(trace);
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(text, (char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]).flat()]);
    const result = await parseOffThread({ kind: 'trace', file: new Blob([utf16]) }, (checked) => heard.push(`checked: ${checked.steps.length} steps, graph ${String(checked.graphFile?.name)}`));
    const chunks = Math.ceil(trace.steps.length / TRACE_CHUNK);
    expect(heard).toEqual(['trace parsed whole', 'checked: 0 steps, graph its own graph', ...Array<string>(chunks).fill('steps')]);
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
    expect((collector()(messages[0]) as { ok: boolean }).ok).toBe(false);
  });
});
