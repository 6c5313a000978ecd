// The graph layer's own files, not its index: the page's first script loads this (earlyRead.ts), and
// the index would bring all of the layer with it.
import type { ParseResult } from '../graph/problems.ts';
import type { GraphFile } from '../graph/schema.ts';
import { readJson } from '../graph/untrusted.ts';
import { GRAPH_SCHEMA } from './libraryDb.ts';

/** Whether a save's stamp is this build's. */
export const isOwnSave = (schema: string | undefined) => GRAPH_SCHEMA !== null && schema === GRAPH_SCHEMA;

/**
 * A save's text read back. This page's schemas checked the graph when it was read and every edit
 * since keeps it to them; a save stamped by a build with the very same graph layer
 * (`GRAPH_SCHEMA`) is therefore taken as written: read within the input limits (size, nesting,
 * keys that reach a prototype), not checked against the schemas again, which for a 1,000-node graph
 * was a tenth of a second of the first screen. Any other save — an older build's, the copies it
 * replaced, one with no stamp — is read as strictly as a file, by the parser and the schemas loaded for it
 * (the page's own save needs neither them nor zod).
 */
export const readSave = async (text: string, schema: string | undefined): Promise<ParseResult<GraphFile>> => {
  const read = isOwnSave(schema) ? readJson(text) : null;
  if (read?.ok) return read as ParseResult<GraphFile>;
  // Not ours, or not even JSON: the strict reading, with the schemas, says what is wrong with it.
  const { parseGraph } = await import('../graph/parse.ts');
  return parseGraph(text);
};
