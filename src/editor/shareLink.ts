/** Share links: a graph in the address's fragment. Loaded when a link is made or opened. */
import { readAtMost } from '../graph/bytes.ts';
import { LIMITS, type GraphFile, type ParseResult } from '../graph/index.ts';
import { parseOffThread } from '../hooks/parsing.ts';

const SHARE_KEY = 'graph';

const toBase64Url = (bytes: Uint8Array) => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): Uint8Array => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
};

const pipe = async (bytes: Uint8Array, stream: CompressionStream | DecompressionStream) =>
  new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream)).arrayBuffer());

/** Inflates a link's graph, giving up (null) as soon as it grows past what a file may be: a small link must not inflate to gigabytes. */
const inflate = (bytes: Uint8Array, limit: number) =>
  readAtMost(new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')), limit);

/** The URL fragment carrying a graph: `graph=` + deflate-raw + base64url. */
export const encodeShareFragment = async (text: string) =>
  `${SHARE_KEY}=${toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')))}`;

/** Reads `#graph=…` as strictly as a file; null when the fragment carries no graph. */
export const decodeShareFragment = async (hash: string): Promise<ParseResult<GraphFile> | null> => {
  const fragment = new URLSearchParams(hash.replace(/^#/, '')).get(SHARE_KEY);
  if (fragment === null) return null;
  if (fragment.length > LIMITS.textChars)
    return { ok: false, problems: [{ path: '', message: 'the link is too long to hold a graph Loopscope can open' }] };
  let text: string;
  try {
    // UTF-8 takes at most 3 bytes for each character JSON text may have.
    const bytes = await inflate(fromBase64Url(fragment), LIMITS.textChars * 3);
    if (!bytes) return { ok: false, problems: [{ path: '', message: 'the link inflates to more than a graph may hold; it was not opened' }] };
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problems: [{ path: '', message: 'the link is damaged: its graph could not be decompressed' }] };
  }
  return parseOffThread({ kind: 'graph', text });
};

export const shareUrl = async (documentText: string, base: string) => {
  const url = new URL(base);
  url.hash = await encodeShareFragment(documentText);
  return url.toString();
};
