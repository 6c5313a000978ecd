import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACE_LIMITS } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runGraph } from '../runtime/index.ts';
import { serializeTrace, type Trace } from '../runtime/trace.ts';
import { stepReader } from '../runtime/traceText.ts';
import { timelineLayout } from '../runtime/timelineLayout.ts';
import { traceIndex } from '../runtime/traceIndex.ts';
import { collector, parseOffThread, TRACE_CHUNK, WHOLE, type ParseMessage, type ParseRequest } from './offThread.ts';
import { readTraceFile, readTracePieces } from './parseRequest.ts';
import { answer } from './parseInWorker.ts';

const longTrace = async (): Promise<Trace> => {
  const trace = await runGraph(findTemplate('securityclaw')!.graph(), { seed: 1, compact: true });
  // The same steps over and over, numbered on: more than two chunks of them.
  const copies = Math.ceil((TRACE_CHUNK * 2 + 1) / trace.steps.length);
  return { ...trace, steps: Array.from({ length: copies }, (_, copy) => trace.steps.map((step) => ({ ...step, step: step.step + copy * trace.steps.length }))).flat() };
};

describe('a trace file read off the main thread', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('comes back as its steps\' text in chunks, read on the page with its index, never as copied objects', async () => {
    const trace = await longTrace();
    const messages: ParseMessage[] = [];
    // Copied as a worker's message is, which gives every object an ordinary prototype.
    await answer({ kind: 'trace', file: new Blob([serializeTrace(trace)]) }, (message) => messages.push(structuredClone(message)));
    const chunks = Math.ceil(trace.steps.length / TRACE_CHUNK);
    expect(messages).toHaveLength(1 + chunks);
    // Text: a copy between threads of a string is a copy of its characters, of an object graph a walk of every value.
    expect(messages.slice(0, -1).every((message) => !Array.isArray(message) && 'text' in message && typeof message.text === 'string')).toBe(true);
    const collect = collector(stepReader());
    const results = messages.map(collect);
    expect(results.slice(0, -1).every((result) => result === null)).toBe(true);
    const last = results.at(-1);
    expect(last !== WHOLE && last?.ok && last.value).toEqual(JSON.parse(JSON.stringify(trace)));
    const steps = last !== WHOLE && last?.ok ? (last.value as Trace).steps : [];
    const index = traceIndex(steps);
    expect(index.rounds).toHaveLength(steps.length);
    expect(Object.getPrototypeOf(index.nodeVisits)).toBeNull();
    expect(index.nodeVisits.decide).toBe(steps.filter((step) => step.node === 'decide').length);
    // And the timeline's layout of the whole run, stop row included, made before the trace is shown.
    const layout = index.timeline?.layout;
    expect(index.timeline?.stop).toBe(true);
    expect(timelineLayout(last !== WHOLE && last?.ok ? (last.value as Trace) : trace, index)).toBe(layout);
    expect(layout?.rowOfStep).toHaveLength(steps.length);
  });

  it('parsed whole, comes back in chunks of steps with its index made by the worker', async () => {
    const trace = await longTrace();
    const messages: ParseMessage[] = [];
    await answer({ kind: 'trace', file: new Blob([JSON.stringify(trace)]), whole: true }, (message) => messages.push(structuredClone(message)));
    expect(messages).toHaveLength(1 + Math.ceil(trace.steps.length / TRACE_CHUNK));
    const last = messages.map(collector()).at(-1);
    expect(last !== WHOLE && last?.ok && last.value).toEqual(JSON.parse(JSON.stringify(trace)));
    const steps = last !== WHOLE && last?.ok ? (last.value as Trace).steps : [];
    expect(Object.getPrototypeOf(traceIndex(steps).nodeVisits)).toBeNull();
    expect(traceIndex(steps).timeline?.stop).toBe(true);
  });

  /** A worker in this thread: the same answer, each message delivered as a task of its own. */
  const thisThreadWorker = (heard: string[]) =>
    class ThisThreadWorker {
      onmessage: ((event: { data: ParseMessage }) => void) | null = null;
      postMessage(request: ParseRequest) {
        void answer(request, (message) => {
          const copy = structuredClone(message);
          setTimeout(() => {
            heard.push(Array.isArray(copy) ? 'steps' : 'from' in copy ? 'text' : 'whole' in request ? 'trace parsed whole' : 'trace');
            this.onmessage?.({ data: copy });
          });
        });
      }
      terminate() {}
    };

  it('says the trace is checked, with its graph and no step, before its steps reach the page, when parsed whole', async () => {
    const trace = { ...(await longTrace()), graphFile: { name: 'its own graph' } };
    const heard: string[] = [];
    vi.stubGlobal('Worker', thisThreadWorker(heard));
    // A step the page's quick check does not pass: the worker is asked for the whole parse.
    const odd = { ...trace, steps: trace.steps.map((step, index) => (index === TRACE_CHUNK + 1 ? { ...step, attempts: [...step.attempts, { n: 1, skill: 'x', outcome: 'ok', tokens: 0, unknown: 1 }] } : step)) };
    const refused = await parseOffThread({ kind: 'trace', file: new Blob([JSON.stringify(odd)]) });
    expect(!refused.ok && refused.problems[0]).toEqual({ path: `steps[${TRACE_CHUNK + 1}].attempts[${trace.steps[TRACE_CHUNK + 1].attempts.length}].unknown`, message: 'unknown key "unknown" is not allowed here' });
    heard.length = 0;
    const result = await parseOffThread({ kind: 'trace', file: new Blob([JSON.stringify(trace)]), whole: true }, (checked) =>
      heard.push(`checked: ${checked.steps.length} steps, graph ${String(checked.graphFile?.name)}`),
    );
    const chunks = Math.ceil(trace.steps.length / TRACE_CHUNK);
    expect(heard).toEqual(['trace parsed whole', 'checked: 0 steps, graph its own graph', ...Array<string>(chunks).fill('steps')]);
    expect(result.ok && result.value.steps).toHaveLength(trace.steps.length);
  });

  it('refuses a file too big to be within the trace limits without reading it', async () => {
    const huge = { size: TRACE_LIMITS.textChars * 3 + 1, arrayBuffer: () => Promise.reject(new Error('read')) } as unknown as Blob;
    const result = await readTraceFile(huge);
    expect(!result.ok && result.problems[0].message).toBe('too large: the file has 600.0 MB, at most 200.0 MB of text can be opened');
  });

  it('reads a UTF-8 file a piece at a time, characters cut between pieces whole, and leaves any other to the whole read', async () => {
    const text = '{"graph": "é → 🦜 ü", "steps": []}';
    const bytes = new TextEncoder().encode(text);
    for (const [name, file, pieceBytes] of [['plain', new Blob([bytes]), 3], ['a UTF-8 mark', new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), bytes]), 2]] as const) {
      const pieces: string[] = [];
      expect({ name, read: await readTracePieces(file, (piece) => pieces.push(piece) > 0, pieceBytes) }).toEqual({ name, read: true });
      expect({ name, text: pieces.join('') }).toEqual({ name, text });
    }
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(text, (char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]).flat()]);
    for (const other of [utf16, new Uint8Array([...bytes.slice(0, 5), 0xc3, 0x28])]) expect(await readTracePieces(new Blob([other]), () => true, 3)).toBe(false);
    // The whole read explains.
    const whole = await readTraceFile(new Blob([bytes.slice(0, 5), new Uint8Array([0xc3, 0x28])]));
    expect(!whole.ok && whole.problems[0].message).toBe('not text: the file is not valid UTF-8');
    // A piece refused stops the read.
    expect(await readTracePieces(new Blob([bytes]), () => false, 3)).toBe(false);
  });

  it('passes a refusal on as it is', async () => {
    const messages: ParseMessage[] = [];
    await answer({ kind: 'trace', file: new Blob(['{"__proto__": {}}']) }, (message) => messages.push(message));
    expect(messages).toHaveLength(1);
    expect((collector()(messages[0]) as { ok: boolean }).ok).toBe(false);
  });
});
