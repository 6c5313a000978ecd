/** Getting graphs in and out: files, Mermaid text for docs, and share links. */
import { describeWhen, parseGraph, type GraphFile, type ParseResult } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
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

/** Imports a dropped or chosen file; a failure lands in the store's `importError`. */
export const importFile = async (file: File) => {
  const { importText } = useApp.getState();
  return importText(await file.text(), file.name);
};

const MERMAID_RESERVED = new Set(['end', 'graph', 'subgraph', 'flowchart', 'style', 'class', 'classdef', 'click', 'linkstyle', 'direction']);

const mermaidText = (text: string) => `"${text.replace(/"/g, '#quot;').replace(/\|/g, '#124;')}"`;

/** A flowchart for docs; loop-back edges are dotted, as on the canvas they are dashed. */
export const toMermaid = (graph: GraphFile): string => {
  const names = new Map(
    graph.nodes.map((node, index) => [
      node.id,
      /^[A-Za-z_]\w*$/.test(node.id) && !MERMAID_RESERVED.has(node.id.toLowerCase()) ? node.id : `n${index}`,
    ]),
  );
  const back = findBackEdges(graph);
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const label = mermaidText(`${node.label ?? node.id} (${node.kind})`);
    const shape = node.kind === 'respond' || node.kind === 'stop' ? `([${label}])` : node.kind === 'verify' || node.kind === 'approve' ? `{${label}}` : `[${label}]`;
    lines.push(`  ${names.get(node.id)}${shape}`);
  }
  for (const edge of graph.edges) {
    const source = names.get(edge.source) ?? edge.source;
    const target = names.get(edge.target) ?? edge.target;
    const label = describeWhen(edge.when);
    const arrow = back.has(edge.id) ? '-.->' : '-->';
    lines.push(label === 'always' ? `  ${source} ${arrow} ${target}` : `  ${source} ${arrow}|${mermaidText(label)}| ${target}`);
  }
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

/** The URL fragment carrying a graph: `graph=` + deflate-raw + base64url. */
export const encodeShareFragment = async (text: string) =>
  `${SHARE_KEY}=${toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')))}`;

/** Reads `#graph=…` as strictly as a file; null when the fragment carries no graph. */
export const decodeShareFragment = async (hash: string): Promise<ParseResult<GraphFile> | null> => {
  const fragment = new URLSearchParams(hash.replace(/^#/, '')).get(SHARE_KEY);
  if (fragment === null) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await pipe(fromBase64Url(fragment), new DecompressionStream('deflate-raw')));
  } catch {
    return { ok: false, problems: [{ path: '', message: 'the link is damaged: its graph could not be decompressed' }] };
  }
  return parseGraph(text);
};

export const shareUrl = async (documentText: string, base: string) => {
  const url = new URL(base);
  url.hash = await encodeShareFragment(documentText);
  return url.toString();
};
