/**
 * The questions asked of the person, in the page, under `loopscope open`: whether a folder's MCP
 * server may start, and which mode a graph's run gets. Their own module: hosts.ts loads
 * ./folderMcp.ts, which asks them.
 */
import { create } from 'zustand';
import type { PermissionMode } from '../graph/index.ts';
import type { ListedServer, ShownCall } from '../skills/mcpFolder.ts';

/**
 * Under `loopscope open`: may it start (or reach) this server of the folder's `.mcp.json`? Asked
 * before the server is first used, for its definition as shown.
 */
export interface ServerStartRequest {
  /** The server as the local server shows it: what runs, exactly. */
  server: ListedServer;
  /** Where `.mcp.json` is. */
  source: string;
  graphName: string;
  /** The graph's skills that call it. */
  skills: string[];
  answer: (allowed: boolean) => void;
}

/**
 * Under `loopscope open`, before a run of a graph that calls the folder's MCP tools: the mode it
 * asks, the servers and each call's access. Asked for each graph file, and again when any of these changes.
 */
export interface GrantRequest {
  graphName: string;
  /** Its file in the folder; null when it is not a file yet. */
  file: string | null;
  mode: PermissionMode;
  servers: ListedServer[];
  calls: ShownCall[];
  source: string;
  /** The mode granted (the one asked, or read-only), or null: denied, nothing runs. */
  answer: (granted: PermissionMode | null) => void;
}

/** A queue of questions to the person, first shown first: a dialog shows the first, and an answer takes it off. */
const questions = <Request extends { answer: (value: Answer) => void }, Answer>() => {
  const store = create<{ requests: Request[] }>()(() => ({ requests: [] }));
  const ask = (question: Omit<Request, 'answer'>): Promise<Answer> =>
    new Promise((resolve) => {
      const request = {
        ...question,
        answer: (value: Answer) => {
          store.setState((state) => ({ requests: state.requests.filter((candidate) => candidate !== request) }));
          resolve(value);
        },
      } as Request;
      store.setState((state) => ({ requests: [...state.requests, request] }));
    });
  return { store, ask };
};

const startQuestions = questions<ServerStartRequest, boolean>();
const grantQuestions = questions<GrantRequest, PermissionMode | null>();

/** The servers waiting for the person's answer; the debugger's dialog shows them. */
export const useServerStartRequests = startQuestions.store;
/** Asks the person, in the page, whether a folder's MCP server may be started. */
export const askToStartServer = startQuestions.ask;
/** The graphs waiting for the person's grant; the debugger's dialog shows them. */
export const useGrantRequests = grantQuestions.store;
/** Asks the person, in the page, which permission mode a graph's run gets. */
export const askToGrant = grantQuestions.ask;
