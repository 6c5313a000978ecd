/** Getting graphs in and out as files; Mermaid text (mermaid.ts) and share links (shareLink.ts) load when first asked for. */
import { decodeText, LIMITS, type GraphFile } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { parseOffThread } from '../store/offThread.ts';

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
