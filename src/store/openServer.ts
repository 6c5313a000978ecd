/**
 * The `loopscope open` server that served this page, once the folder's library has started through
 * it (folderStart.ts); null on the static page. What reaches the person's machine through that
 * server (the folder's MCP servers) asks here.
 */
export interface OpenServer {
  origin: string;
  token: string;
}

let served: OpenServer | null = null;

export const openServer = (): OpenServer | null => served;

export const setOpenServer = (server: OpenServer | null) => {
  served = server;
};
