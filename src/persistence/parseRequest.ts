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

/** How many bytes of a trace file are read and decoded at a time when it is read by parts. */
const PIECE_BYTES = 4_000_000;

/**
 * A UTF-8 trace file's text a piece at a time as it is read (`piece` says whether to go on), so that
 * a long trace's first steps can be parsed while the rest is still being read. False when it is not
 * read to its end that way (`piece` said no, bytes that are not UTF-8, as a UTF-16 mark is not,
 * more text than the limit; a UTF-8 mark the decoder takes off): `readTraceText` then reads it whole and explains.
 */
export const readTracePieces = async (file: Blob, piece: (text: string) => boolean, pieceBytes = PIECE_BYTES): Promise<boolean> => {
  if (file.size > TRACE_LIMITS.textChars * 3) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let chars = 0;
  try {
    for (let at = 0; at < file.size; at += pieceBytes) {
      const text = decoder.decode(new Uint8Array(await file.slice(at, at + pieceBytes).arrayBuffer()), { stream: true });
      chars += text.length;
      if (chars > TRACE_LIMITS.textChars || !piece(text)) return false;
    }
    return piece(decoder.decode());
  } catch {
    return false;
  }
};

/** A trace file's bytes to a trace, within the trace limits, parsed whole. */
export const readTraceFile = async (file: Blob): Promise<ParseResult<Trace>> => {
  const text = await readTraceText(file);
  return text.ok ? parseTrace(text.value) : text;
};

/** A file's parse, in the worker or (a small file, no worker) on the page. */
export const parseRequest = async (request: ParseRequest): Promise<ParseResult<GraphFile> | ParseResult<Trace>> =>
  request.kind === 'graph' ? parseGraph(request.text) : readTraceFile(request.file);
