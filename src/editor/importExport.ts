/** Getting graphs in from files and text; out is download.ts; Mermaid text (mermaid.ts) and share links (shareLink.ts) load when first asked for. */
import { decodeText } from '../graph/bytes.ts';
import { LIMITS } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { parseOffThread } from '../hooks/parsing.ts';

/** Opens untrusted graph text (a paste, a file) the way every import does; a large one is parsed off the main thread. */
export const importGraphText = async (text: string, source: string) => useApp.getState().importParsed(await parseOffThread({ kind: 'graph', text }), source);

/** Imports a dropped or chosen file (UTF-8, or UTF-16 with its byte order mark); a failure lands in the store's `importError`. */
export const importFile = async (file: File) => {
  if (file.size > LIMITS.textChars * 4)
    return useApp.getState().importParsed({ ok: false, problems: [{ path: '', message: `too large: the file has ${(file.size / 1_000_000).toFixed(1)} MB` }] }, file.name);
  const text = decodeText(new Uint8Array(await file.arrayBuffer()));
  return text.ok ? importGraphText(text.value, file.name) : useApp.getState().importParsed(text, file.name);
};
