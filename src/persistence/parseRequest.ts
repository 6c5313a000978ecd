/**
 * A file's parse, as the parsing worker makes it and as the page makes it for a small file
 * (offThread.ts): a module of its own, which the page loads with the first file it opens.
 */
import { decodeText } from '../graph/bytes.ts';
import { TRACE_LIMITS, type GraphFile, type ParseResult } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { parseTrace, type Trace } from '../runtime/trace.ts';
import type { ParseRequest } from './offThread.ts';

const megabytes = (size: number) => `${(size / 1_000_000).toFixed(1)} MB`;

/** A trace file's bytes to its text, within the trace limits. A file too big to be within them is refused unread. */
export const readTraceText = async (file: Blob): Promise<ParseResult<string>> => {
  // UTF-8 takes at most three bytes for each character of the text.
  if (file.size > TRACE_LIMITS.textChars * 3)
    return { ok: false, problems: [{ path: '', message: `too large: the file has ${megabytes(file.size)}, at most ${megabytes(TRACE_LIMITS.textChars)} of text can be opened` }] };
  return decodeText(new Uint8Array(await file.arrayBuffer()));
};

/** A trace file's bytes to a trace, within the trace limits, parsed whole. */
export const readTraceFile = async (file: Blob): Promise<ParseResult<Trace>> => {
  const text = await readTraceText(file);
  return text.ok ? parseTrace(text.value) : text;
};

/** A file's parse, in the worker or (a small file, no worker) on the page. */
export const parseRequest = async (request: ParseRequest): Promise<ParseResult<GraphFile> | ParseResult<Trace>> =>
  request.kind === 'graph' ? parseGraph(request.text) : readTraceFile(request.file);
