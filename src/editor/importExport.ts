/** Getting graphs in and out: files, Mermaid text for docs, and share links. */
import { decodeText, describeWhen, kindDefinition, LIMITS, readAtMost, type GraphFile, type MermaidShape, type ParseResult } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { parseOffThread } from '../store/offThread.ts';
import { findBackEdges } from './flowAdapter.ts';

export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-') || 'graph';

export const exportFileName = (graph: GraphFile) => `${slugOf(graph.name)}.json`;

export const downloadText = (fileName: string, text: string, type = 'application/json') => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
};

/** Opens untrusted graph text (a paste, a file) the way every import does; a large one is parsed off the main thread. */
export const importGraphText = async (text: string, source: string) => useApp.getState().importParsed(await parseOffThread({ kind: 'graph', text }), source);

/** Imports a dropped or chosen file (UTF-8, or UTF-16 with its byte order mark); a failure lands in the store's `importError`. */
export const importFile = async (file: File) => {
  if (file.size > LIMITS.textChars * 4)
    return useApp.getState().importParsed({ ok: false, problems: [{ path: '', message: `too large: the file has ${(file.size / 1_000_000).toFixed(1)} MB` }] }, file.name);
  const text = decodeText(new Uint8Array(await file.arrayBuffer()));
  return text.ok ? importGraphText(text.value, file.name) : useApp.getState().importParsed(text, file.name);
};

const MERMAID_RESERVED = new Set(['end', 'graph', 'subgraph', 'flowchart', 'style', 'class', 'classdef', 'click', 'linkstyle', 'direction']);

/**
 * Label text Mermaid reads as text only: quotes, pipes and angle brackets as entities, and no
 * line break or control character that could start a statement of its own (`click … javascript:`).
 */
const mermaidText = (text: string) =>
  `"${text
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/\|/g, '#124;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/`/g, '#96;')}"`;

/** A flowchart for docs; loop-back edges are dotted, as on the canvas they are dashed. */
const MERMAID_SHAPES: Record<MermaidShape, (label: string) => string> = {
  box: (label) => `[${label}]`,
  stadium: (label) => `([${label}])`,
  rhombus: (label) => `{${label}}`,
};

export const toMermaid = (graph: GraphFile): string => {
  const names = new Map(
    graph.nodes.map((node, index) => [
      node.id,
      /^[A-Za-z_]\w*$/.test(node.id) && !MERMAID_RESERVED.has(node.id.toLowerCase()) ? node.id : `n${index}`,
    ]),
  );
  // An edge to a node that does not exist gets a name of ours and a box saying so: no text of the file becomes a Mermaid id.
  const missing: string[] = [];
  const nameOf = (id: string) => {
    const known = names.get(id);
    if (known) return known;
    const name = `missing${missing.length}`;
    names.set(id, name);
    missing.push(id);
    return name;
  };
  const back = findBackEdges(graph);
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const label = mermaidText(`${node.label ?? node.id} (${node.kind})`);
    const shape = MERMAID_SHAPES[kindDefinition(node.kind).mermaid](label);
    lines.push(`  ${names.get(node.id)}${shape}`);
  }
  const edgeLines: string[] = [];
  for (const edge of graph.edges) {
    const source = nameOf(edge.source);
    const target = nameOf(edge.target);
    const label = describeWhen(edge.when);
    const arrow = back.has(edge.id) ? '-.->' : '-->';
    edgeLines.push(label === 'always' ? `  ${source} ${arrow} ${target}` : `  ${source} ${arrow}|${mermaidText(label)}| ${target}`);
  }
  missing.forEach((id, index) => lines.push(`  missing${index}[${mermaidText(`${id} (no such node)`)}]`));
  lines.push(...edgeLines);
  if (graph.entry && names.has(graph.entry)) lines.push(`  style ${names.get(graph.entry)} stroke-width:3px`);
  return `${lines.join('\n')}\n`;
};

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
