/**
 * The parsing worker's side of offThread.ts, in a module of its own: the page's bundle does not
 * carry what only the worker does (parsing a trace whole).
 */
import { keyframesFor } from '../runtime/states.ts';
import type { ParseResult } from '../graph/index.ts';
import type { Trace } from '../runtime/trace.ts';
import { timelineLayout } from '../runtime/timelineLayout.ts';
import { traceIndex } from '../runtime/traceIndex.ts';
import { TRACE_CHUNK, type ParseMessage, type ParseRequest } from './offThread.ts';
import { parseRequest } from './parseRequest.ts';

/** Parses the request and posts the result, a trace's steps in chunks after its index. */
export const answer = async (request: ParseRequest, post: (message: ParseMessage) => void) => {
  const result = await parseRequest(request);
  if (request.kind === 'graph' || !result.ok) return post(result);
  postWhole(result as ParseResult<Trace>, post);
};

/** A trace parsed whole: its index first, then its steps in chunks. */
const postWhole = (result: ParseResult<Trace>, post: (message: ParseMessage) => void) => {
  if (!result.ok) return post(result);
  const { steps, ...trace } = result.value;
  const index = traceIndex(steps);
  // The timeline's layout too: made here, it is not made on the page's thread as the trace opens.
  timelineLayout(result.value, index);
  post({ ok: true, value: { ...trace, steps: [] }, chunks: Math.ceil(steps.length / TRACE_CHUNK), index: { ...index, keyframes: keyframesFor(steps) } });
  for (let start = 0; start < steps.length; start += TRACE_CHUNK) post(steps.slice(start, start + TRACE_CHUNK));
};
