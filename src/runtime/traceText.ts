/**
 * A long trace file read on the page (issue 57). Its steps are most of it: parsing them with zod
 * (jitless here, see zod.ts) took twice as long as `JSON.parse` of the whole file; sending them from
 * a worker to the page, as objects (a structured clone) or as text parsed again on the page, cost as
 * much again. Here the page reads the text once, with one `JSON.parse`, checks the trace's fields
 * but its steps with its full schema (they are small) and each step with the schema's quick check
 * (fastCheck.ts), numbered in order. Whatever does not go that way, text that is not plainly UTF-8,
 * not JSON, or a step the quick check does not pass, is parsed whole by `parseTrace` in the parsing
 * worker instead (offThread.ts), which reports the failing path as before.
 */
import { quickCheck } from '../graph/fastCheck.ts';
import { TRACE_LIMITS } from '../graph/index.ts';
import { keyframesFor } from './states.ts';
import { timelineLayout } from './timelineLayout.ts';
import { parseTrace, TraceStep, type Trace } from './trace.ts';
import { traceIndex } from './traceIndex.ts';

let stepCheck: ((value: unknown, depth: number) => boolean) | null | undefined;

/** A file's text when it is UTF-8 (a UTF-8 mark dropped) within the trace limits; null otherwise. */
const readText = async (file: Blob): Promise<string | null> => {
  // UTF-8 takes at most three bytes for each character of the text.
  if (file.size > TRACE_LIMITS.textChars * 3) return null;
  // `text()` puts U+FFFD for bytes that are not UTF-8 (and for a UTF-16 mark); a text with none is
  // the one a strict decoder gives. One that has any, even written in the file, goes the whole way.
  const text = await file.text();
  return text.length > TRACE_LIMITS.textChars || text.includes('\uFFFD') ? null : text;
};

/**
 * A trace file read with one `JSON.parse` on the page, each step passed by the quick check and
 * numbered in order, with its index, kept states and timeline laid out; null when it is not plainly valid (the
 * parsing worker's whole parse then decides and explains).
 */
export const readTrace = async (file: Blob): Promise<Trace | null> => {
  stepCheck ??= quickCheck(TraceStep, TRACE_LIMITS);
  const text = stepCheck ? await readText(file) : null;
  if (!stepCheck || text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { steps } = value as { steps?: unknown };
  if (!Array.isArray(steps) || steps.length > TRACE_LIMITS.lists.steps) return null;
  // The rest of the trace by its full schema and the input limits, its steps left out.
  const envelope = parseTrace({ ...value, steps: [] });
  if (!envelope.ok) return null;
  for (let at = 0; at < steps.length; at += 1) {
    const step = steps[at] as { step?: unknown };
    // A step is at depth 3 of the document: the trace, its steps, the step.
    if (!stepCheck(step, 3) || step.step !== at + 1) return null;
  }
  const trace = { ...envelope.value, steps: steps as TraceStep[] };
  const index = traceIndex(trace.steps);
  // The states kept along the steps too: the step shown first is the last one, whose state is replayed from them.
  index.keyframes = keyframesFor(trace.steps);
  timelineLayout(trace, index);
  return trace;
};
