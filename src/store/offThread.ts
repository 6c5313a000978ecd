/**
 * Parsing a large file takes long enough to freeze the page, so above a size it runs in a worker
 * (the same parse, with the same limits); small files are parsed at once.
 */
import { parseGraph, type GraphFile, type ParseResult } from '../graph/index.ts';
import { parseTrace, type Trace } from '../runtime/trace.ts';

/** Text from this many characters on is parsed off the main thread. */
export const OFF_THREAD_CHARS = 100_000;

export type ParseRequest = { kind: 'graph'; text: string } | { kind: 'trace'; text: string };
type Parsed<R extends ParseRequest> = R extends { kind: 'graph' } ? ParseResult<GraphFile> : ParseResult<Trace>;

export const parseRequest = (request: ParseRequest): ParseResult<GraphFile> | ParseResult<Trace> =>
  request.kind === 'graph' ? parseGraph(request.text) : parseTrace(request.text);

/**
 * A started worker kept for the next parse: starting one (loading its script, building the
 * schemas) costs a big file hundreds of ms before its parse begins. Parses at the same time each
 * get a worker of their own; one of them is kept afterwards.
 */
let idle: Worker | null = null;
const startWorker = () => new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });

/** Starts the worker before any file needs it, so the first big import does not wait for it. */
export const warmParser = () => {
  if (typeof Worker !== 'undefined') idle ??= startWorker();
};

export const parseOffThread = <R extends ParseRequest>(request: R): Promise<Parsed<R>> => {
  if (request.text.length < OFF_THREAD_CHARS || typeof Worker === 'undefined') return Promise.resolve(parseRequest(request) as Parsed<R>);
  const worker = idle ?? startWorker();
  idle = null;
  return new Promise((resolve) => {
    worker.onmessage = (event: MessageEvent<Parsed<R>>) => {
      if (idle === null) idle = worker;
      else worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve({ ok: false, problems: [{ path: '', message: `could not be read: ${event.message || 'the parsing worker failed'}` }] } as Parsed<R>);
    };
    worker.postMessage(request);
  });
};
