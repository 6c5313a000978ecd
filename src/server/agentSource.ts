/**
 * A LangGraph agent's source, when the page was served by `loopscope open` on the agent's folder
 * (src/cli/langgraphSource.ts reads the file its `langgraph.json` names, and the files of the folder
 * it imports): asked of that server only, with its token, each time a step shows it (the person may
 * be editing it). Read as text for routerExplain.ts; nothing of it runs.
 */
import { openServer } from '../network/openServer.ts';
import { NO_SOURCE, type AgentSource, type SourceImport } from '../runtime/routerExplain.ts';

export type SourceAnswer = { source: AgentSource } | { missing: string };

/** Asks the folder's server for a source file (`query` says which), or why there is none. */
const askFolder = async (graph: string, query: Record<string, string>, what: string): Promise<SourceAnswer> => {
  const served = openServer();
  if (!served) return { missing: NO_SOURCE };
  try {
    const response = await fetch(`${served.origin}/api/langgraph/source?${new URLSearchParams({ graph, ...query })}`, { headers: { Authorization: `Bearer ${served.token}` } });
    const answer = (await response.json()) as { file?: unknown; text?: unknown; error?: unknown };
    if (response.ok && typeof answer.file === 'string' && typeof answer.text === 'string') return { source: { graph, file: answer.file, text: answer.text } };
    return { missing: `the folder gives no source for ${what}: ${typeof answer.error === 'string' ? answer.error : `answer ${response.status}`}` };
  } catch (error) {
    return { missing: `the folder's source for ${what} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
};

/** The source of graph `graph` (its id on the server, the key of langgraph.json), or why there is none. */
export const agentSourceOf = (graph: string): Promise<SourceAnswer> => askFolder(graph, {}, graph);

/** The file of the folder a relative import of the agent's source names (where its router is), or why it is not read. */
export const importedSourceOf = (graph: string, wanted: SourceImport): Promise<SourceAnswer> =>
  askFolder(graph, { from: wanted.from, import: wanted.specifier }, `${wanted.specifier} (imported by ${wanted.from})`);
