/** Untrusted bytes, before they are text: a file's decoded, a stream's read within a limit. The text then goes through untrusted.ts. */
import type { ParseResult } from './problems.ts';

/**
 * File bytes to text: a UTF-8 or UTF-16 byte order mark says the encoding, anything else is read
 * as UTF-8. Bytes that are not valid in that encoding are refused rather than guessed at.
 */
export const decodeText = (bytes: Uint8Array): ParseResult<string> => {
  const [a, b, c] = bytes;
  const encoding = a === 0xff && b === 0xfe ? 'utf-16le' : a === 0xfe && b === 0xff ? 'utf-16be' : 'utf-8';
  const skip = encoding === 'utf-8' ? (a === 0xef && b === 0xbb && c === 0xbf ? 3 : 0) : 2;
  try {
    return { ok: true, value: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(skip)) };
  } catch {
    return { ok: false, problems: [{ path: '', message: `not text: the file is not valid ${encoding.toUpperCase()}` }] };
  }
};

/**
 * All of a stream's bytes, or null as soon as they pass `limit` (the rest is not read): an answer
 * or a link that inflates cannot grow without bound in memory.
 */
export const readAtMost = async (stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> => {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
};

/** Statuses whose answer has no body (a Response cannot be made with one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The answer with a body that fails (with `refusal()`, and is cancelled) at the first chunk that
 * `tooBig` says passes its bound: whatever reads it — a JSON parser, an event stream's — never holds
 * more than that in memory.
 */
export const boundedResponse = (response: Response, tooBig: (chunk: Uint8Array) => boolean, refusal: () => Error): Response => {
  if (!response.body || NULL_BODY.has(response.status)) return response;
  const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, stream) => (tooBig(chunk) ? stream.error(refusal()) : stream.enqueue(chunk)),
  }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
