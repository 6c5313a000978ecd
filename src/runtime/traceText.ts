/**
 * A long trace's text read by parts (issue 57): its steps are most of it, and parsing them with zod
 * one by one took twice as long as `JSON.parse` of the whole file, then copying the parsed steps from
 * the parsing worker to the page as long again. Here the worker only finds where each step's text
 * lies and parses the rest of the trace (its envelope) in full; the page parses the steps' text a
 * chunk at a time, each step passed by the schema's quick check (fastCheck.ts). Whatever does not
 * go that way, an unusual text or a step the quick check does not pass, is parsed whole by
 * `parseTrace` instead, which reports the failing path as before.
 */
import { quickCheck } from '../graph/fastCheck.ts';
import { TRACE_LIMITS } from '../graph/index.ts';
import { keyframesFor } from './states.ts';
import { timelineLayout } from './timelineLayout.ts';
import { TraceStep, type Trace } from './trace.ts';
import { traceIndex } from './traceIndex.ts';

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

/** The index of the quote closing the string opened at `at`, or -1. */
const stringEnd = (text: string, at: number) => {
  let end = text.indexOf('"', at + 1);
  while (end !== -1) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
};

/** A chunk of a trace's steps as text: a JSON list of them, the first numbered `from + 1`. */
export interface StepText {
  from: number;
  text: string;
}

/** What a splitter gives at the end of the text: the envelope and the number of chunks, or null. */
export type Split = { envelope: string; chunks: number } | null;

/**
 * Splits a trace's text, given a piece at a time as it is read (`feed`): each `size` items of its
 * top-level `steps` list go to `chunk` as they are found, so that the page parses the first steps
 * while the rest of the file is still being read. `end` returns what is left, the trace with its
 * steps' list emptied (its envelope), with the number of chunks. `feed` says false and `end` null
 * when the text is not a JSON object with one plainly written `steps` list: the whole parse then
 * decides and explains. Brackets are counted outside strings only; the parts are checked by
 * `JSON.parse`, so that the text is JSON exactly when they all are.
 */
export const stepSplitter = (size: number, chunk: (part: StepText) => void) => {
  // The text not yet given away: all of it up to the steps' list, then from the chunk being
  // gathered (or the scan) on, then everything after the list. Indices below are into it.
  let text = '';
  let at = 0;
  let failed = false;
  let depth = 0;
  let expectKey = false;
  let head: string | null = null;
  let listEnd = -1;
  let itemStart = -1;
  let items = 0;
  let chunks = 0;
  let chunkStart = -1;
  let chunkEnd = -1;
  let chunkItems = 0;
  const flush = () => {
    chunk({ from: items - chunkItems, text: `[${text.slice(chunkStart, chunkEnd)}]` });
    chunks += 1;
    chunkItems = 0;
  };
  /** Reads on from `at`; false when the text is not plainly written, true at its end or where a string or the list's start goes on in the next piece. */
  const scan = (): boolean => {
    for (; at < text.length; at += 1) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) {
        const end = stringEnd(text, at);
        if (end === -1) return true;
        if (depth === 1 && expectKey) {
          const key = text.slice(at + 1, end);
          if (key.includes('\\')) return false;
          if (key === 'steps') {
            if (head !== null) return false;
            let next = end + 1;
            while (isSpace(text.charCodeAt(next))) next += 1;
            if (next < text.length && text.charCodeAt(next) !== COLON) return false;
            next += 1;
            while (isSpace(text.charCodeAt(next))) next += 1;
            if (next >= text.length) return true;
            if (text.charCodeAt(next) !== OPEN_BRACKET) return false;
            expectKey = false;
            head = text.slice(0, next);
            depth = 2;
            at = next;
            continue;
          }
          expectKey = false;
        } else if (depth === 2 && head !== null && listEnd === -1 && itemStart === -1) itemStart = at;
        at = end;
        continue;
      }
      if (isSpace(code)) continue;
      if (depth === 2 && head !== null && listEnd === -1) {
        if (code === COMMA || code === CLOSE_BRACKET) {
          if (itemStart === -1) {
            // `[]` is an empty list; `[,`, `,,` and `,]` are not JSON.
            if (code === COMMA || items > 0) return false;
          } else {
            let end = at;
            while (isSpace(text.charCodeAt(end - 1))) end -= 1;
            if (chunkItems === 0) chunkStart = itemStart;
            chunkEnd = end;
            items += 1;
            chunkItems += 1;
            itemStart = -1;
            if (chunkItems === size) flush();
          }
          if (code === CLOSE_BRACKET) {
            if (chunkItems > 0) flush();
            listEnd = at;
            depth = 1;
          }
          continue;
        }
        if (itemStart === -1) itemStart = at;
      }
      if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        depth += 1;
        if (depth === 1) expectKey = code === OPEN_BRACE;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        depth -= 1;
        if (depth < 0) return false;
      } else if (code === COMMA && depth === 1) expectKey = true;
    }
    return true;
  };
  /** Gives away the text before `from`, which nothing needs any more. */
  const drop = (from: number) => {
    text = text.slice(from);
    at -= from;
    if (itemStart !== -1) itemStart -= from;
    if (chunkItems > 0) {
      chunkStart -= from;
      chunkEnd -= from;
    }
    if (listEnd !== -1) listEnd -= from;
  };
  return {
    feed: (piece: string): boolean => {
      if (failed) return false;
      if (head !== null && listEnd === -1) drop(Math.min(at, itemStart === -1 ? at : itemStart, chunkItems > 0 ? chunkStart : at));
      text += piece;
      failed = text.length > 0 && text.charCodeAt(0) !== OPEN_BRACE && head === null ? true : !scan();
      return !failed;
    },
    end: (): Split => {
      if (failed || at < text.length || head === null || listEnd === -1 || depth !== 0) return null;
      return { envelope: `${head}[]${text.slice(listEnd + 1)}`, chunks };
    },
  };
};

/** A whole text split at once (stepSplitter). */
export const splitSteps = (text: string, size: number, chunk: (part: StepText) => void): Split => {
  const splitter = stepSplitter(size, chunk);
  return splitter.feed(text) ? splitter.end() : null;
};

let stepCheck: ((value: unknown, depth: number) => boolean) | null | undefined;

/**
 * A chunk's steps when every one is what the trace's schema takes, within the trace's limits and
 * numbered in order from the chunk's place on; null otherwise (the whole parse explains).
 */
export const readStepChunk = ({ from, text }: StepText): TraceStep[] | null => {
  stepCheck ??= quickCheck(TraceStep, TRACE_LIMITS);
  if (!stepCheck) return null;
  let steps: unknown;
  try {
    steps = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(steps)) return null;
  for (let at = 0; at < steps.length; at += 1) {
    const step = steps[at] as { step?: unknown };
    // A step is at depth 3 of the document: the trace, its steps, the step.
    if (!stepCheck(step, 3) || step.step !== from + at + 1) return null;
  }
  return steps as TraceStep[];
};

/**
 * The page's side: each chunk of steps read as it arrives (a task each), then the trace, once its
 * checked envelope says how many chunks there were, with its index, kept states and timeline
 * layout made; null when any chunk was not read, so that the whole parse explains.
 */
export const stepReader = () => {
  const parts: (TraceStep[] | null)[] = [];
  let count = 0;
  return {
    add: (part: StepText) => {
      const steps = part.from === count ? readStepChunk(part) : null;
      parts.push(steps);
      count += steps?.length ?? Number.NaN;
    },
    finish: (envelope: Trace, chunks: number): Trace | null => {
      if (parts.length !== chunks || !(count <= TRACE_LIMITS.lists.steps) || parts.some((part) => part === null)) return null;
      const steps = (parts as TraceStep[][]).flat();
      const trace = { ...envelope, steps };
      const index = traceIndex(steps);
      index.keyframes = keyframesFor(steps);
      timelineLayout(trace, index);
      return trace;
    },
  };
};
