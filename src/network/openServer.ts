/**
 * The `loopscope open` server that served this page, once the folder's library has started through
 * it (src/persistence/folderStart.ts sets it); null on the static page. What reaches the person's
 * machine through that server (the folder's MCP servers: hosts.ts, mcpTools.ts) asks here, so it
 * is the store's state, below the persistence layer that sets it.
 */
export interface OpenServer {
  origin: string;
  token: string;
  /** A document's graph file in the folder, from its id; null for a graph that is not a file yet. */
  pathOf?: (documentId: string) => string | null;
}

let served: OpenServer | null = null;

export const openServer = (): OpenServer | null => served;

export const setOpenServer = (server: OpenServer | null) => {
  served = server;
};
