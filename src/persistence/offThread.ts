/**
 * Parsing a large file takes long enough to freeze the page, so above a size it runs in a worker
 * (the same parse, with the same limits); small files are parsed at once.
 */
import type { GraphFile, ParseResult } from '../graph/index.ts';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { adoptIndex, type TraceIndex } from '../runtime/traceIndex.ts';

/** Text from this many characters (a trace file from this many bytes) on is parsed off the main thread. */
export const OFF_THREAD_CHARS = 100_000;

/**
 * Steps of a trace the worker sends back in one message. Each message is copied into the page as
 * a task of its own, so a 100,000-step trace arrives without holding the page for seconds.
 */
export const TRACE_CHUNK = 2_000;

/**
 * A graph's text, or a trace file: a big trace is read on the page first (runtime/traceText.ts),
 * and from its bytes in the worker (it may be 200 MB) only when the page's read did not take it.
 */
export type ParseRequest = { kind: 'graph'; text: string } | { kind: 'trace'; file: Blob };
type Parsed<R extends ParseRequest> = R extends { kind: 'graph' } ? ParseResult<GraphFile> : ParseResult<Trace>;

/**
 * What the worker posts: a graph's result. A trace: its result with its steps left out (`chunks`
 * follow) and their index with the states kept along them (made there, off the page's thread),
 * then the steps a chunk at a time.
 */
export type ParseMessage = ParseResult<GraphFile> | ParseResult<Trace> | { ok: true; value: Trace; chunks: number; index: TraceIndex } | TraceStep[];

/** The page's side: puts a trace's chunks back together; the result once it is whole. */
export const collector = () => {
  let pending: { value: Trace; chunks: number; index: TraceIndex; parts: TraceStep[][] } | null = null;
  return (message: ParseMessage): ParseResult<GraphFile> | ParseResult<Trace> | null => {
    if (Array.isArray(message)) {
      if (!pending) return null;
      pending.parts.push(message);
    } else if ('chunks' in message) pending = { ...message, parts: [] };
    else return message;
    if (pending.parts.length < pending.chunks) return null;
    const steps = pending.parts.flat();
    adoptIndex(steps, pending.index);
    return { ok: true, value: { ...pending.value, steps } };
  };
};

const size = (request: ParseRequest) => (request.kind === 'graph' ? request.text.length : request.file.size);

/**
 * A started worker kept for the next parse: starting one (loading its script, building the
 * schemas) costs a big file hundreds of ms before its parse begins. Parses at the same time each
 * get a worker of their own; one of them is kept afterwards.
 */
let idle: Worker | null = null;
const startWorker = () => new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });

/** Starts the worker, and loads the page's trace reader, before any file needs them, so the first big import does not wait for them. */
export const warmParser = () => {
  if (typeof Worker !== 'undefined') idle ??= startWorker();
  void import('../runtime/traceText.ts');
};

/**
 * `onTraceChecked`: called with a trace's fields but its steps (`steps` empty) once the worker has
 * parsed and checked the whole file, before its steps are copied to the page: what shows no step
 * (the trace's graph) can open while they come. Not called where the page reads the file itself.
 */
export const parseOffThread = <R extends ParseRequest>(request: R, onTraceChecked?: (trace: Trace) => void): Promise<Parsed<R>> => {
  if (size(request) < OFF_THREAD_CHARS || typeof Worker === 'undefined') return import('./parseRequest.ts').then(({ parseRequest }) => parseRequest(request) as Promise<Parsed<R>>);
  // A big trace is read on the page with one `JSON.parse`: from a worker its steps would be copied
  // or parsed again on the page. The worker parses it only to tell what is wrong with it.
  if (request.kind === 'trace')
    return import('../runtime/traceText.ts')
      .then(({ readTrace }) => readTrace(request.file))
      .then((trace) => (trace ? ({ ok: true, value: trace } as Parsed<R>) : inWorker(request, onTraceChecked)));
  return inWorker(request, onTraceChecked);
};

const inWorker = <R extends ParseRequest>(request: R, onTraceChecked?: (trace: Trace) => void): Promise<Parsed<R>> => {
  const worker = idle ?? startWorker();
  idle = null;
  return new Promise((resolve) => {
    const collect = collector();
    worker.onmessage = (event: MessageEvent<ParseMessage>) => {
      const message = event.data;
      if (!Array.isArray(message) && 'chunks' in message) onTraceChecked?.(message.value);
      const result = collect(message);
      if (!result) return;
      if (idle === null) idle = worker;
      else worker.terminate();
      resolve(result as Parsed<R>);
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve({ ok: false, problems: [{ path: '', message: `could not be read: ${event.message || 'the parsing worker failed'}` }] } as Parsed<R>);
    };
    worker.postMessage(request);
  });
};
