/**
 * Before a run contacts other hosts, the person sees them and allows them: once per opened graph
 * and origin. During the run, requests go only to the origins allowed; any other address a skill
 * builds (from the state, say) is refused before it is sent. Keys go with `keyRing`, each only to
 * the origin it was given for.
 */
import { create } from 'zustand';
import { type ContactedHost, type GraphFile } from '../graph/index.ts';
import { contactedHosts, originOf } from '../graph/hosts.ts';
import type { KeyRing } from '../skills/index.ts';
// net.ts itself, not the index: the index would bring every skill runner onto the first screen.
import { fetchOnlyTo, RequestRefused } from '../skills/net.ts';
import type { McpConnector } from '../skills/mcp.ts';
// The command line refuses other hosts with the same fetch: it lives in the skills layer, and the page's modules take it from here.
export { fetchOnlyTo } from '../skills/net.ts';
import { serversNamed } from '../graph/mcpServers.ts';
import { serverUrl } from './mcpServers.ts';
import { openServer } from './openServer.ts';
import { keyRing } from './secrets.ts';

/** An MCP server a graph names: the page reaches it at the address the person gives here. */
export interface ServerAsk {
  name: string;
  skills: string[];
}

export interface HostRequest {
  graphName: string;
  hosts: ContactedHost[];
  /** MCP servers the graph names; the dialog asks each one's address (kept in this browser, ./mcpServers.ts). */
  servers: ServerAsk[];
  answer: (allowed: boolean) => void;
}

/** The question on screen, if any; the debugger's host dialog shows it. */
export const useHostRequest = create<{ request: HostRequest | null }>()(() => ({ request: null }));

/**
 * Under `loopscope open`: may it start (or reach) this server of the folder's `.mcp.json`? Asked
 * before the server is first used, once per server.
 */
export interface ServerStartRequest {
  server: string;
  /** Its command line as `.mcp.json` says (a stdio server), or its address. */
  command?: string;
  /** The environment variables `.mcp.json` gives a stdio server, by name (their values may be secrets). */
  env?: string[];
  url?: string;
  /** Where `.mcp.json` is. */
  source: string;
  graphName: string;
  /** The graph's skills that call it. */
  skills: string[];
  answer: (allowed: boolean) => void;
}

/** The servers waiting for the person's answer, first shown first; the debugger's dialog shows them. */
export const useServerStartRequests = create<{ requests: ServerStartRequest[] }>()(() => ({ requests: [] }));

/** Asks the person, in the page, whether a folder's MCP server may be started. */
export const askToStartServer = (question: Omit<ServerStartRequest, 'answer'>): Promise<boolean> =>
  new Promise((resolve) => {
    const request: ServerStartRequest = {
      ...question,
      answer: (allowed) => {
        useServerStartRequests.setState((state) => ({ requests: state.requests.filter((candidate) => candidate !== request) }));
        resolve(allowed);
      },
    };
    useServerStartRequests.setState((state) => ({ requests: [...state.requests, request] }));
  });

/** `document origin` pairs a person allowed, in memory only. */
const allowed = new Set<string>();

const pair = (document: number, origin: string) => `${document} ${origin}`;

export interface RunNetwork {
  fetch: typeof fetch;
  keys: KeyRing;
  /** The MCP servers the graph's mcp skills name, at the addresses the person gave. */
  mcp?: McpConnector;
}

/**
 * What a run of this graph may reach, asking the person first when it contacts a host not yet
 * allowed for this document, or names an MCP server with no address yet; null when they decline.
 * A graph with mock skills only asks nothing.
 */
export const networkFor = async (graph: GraphFile, document: number): Promise<RunNetwork | null> => {
  const hosts = contactedHosts(graph);
  const named = serversNamed(graph);
  // Under `loopscope open` the folder's `.mcp.json` says where each server is: no address is asked.
  const folder = openServer();
  const servers = folder ? [] : [...named].map(([name, skills]) => ({ name, skills }));
  // Read after the question too: the person gives the servers' addresses in it.
  const fixed = () => [
    ...hosts.flatMap((host) => (host.origin ? [host.origin] : [])),
    ...servers.flatMap((server) => originOf(serverUrl(server.name) ?? '') ?? []),
  ];
  const asked = servers.some((server) => !serverUrl(server.name)) || fixed().some((origin) => !allowed.has(pair(document, origin)));
  if (asked) {
    const yes = await new Promise<boolean>((resolve) => useHostRequest.setState({ request: { graphName: graph.name, hosts, servers, answer: resolve } }));
    useHostRequest.setState({ request: null });
    if (!yes) return null;
    for (const origin of fixed()) allowed.add(pair(document, origin));
  }
  const fetchImpl = fetchOnlyTo(new Set(fixed()));
  if (named.size === 0) return { fetch: fetchImpl, keys: keyRing };
  if (folder) {
    const { folderMcp } = await import('./folderMcp.ts');
    return { fetch: fetchImpl, keys: keyRing, mcp: folderMcp(folder, graph) };
  }
  const { browserConnector } = await import('./mcpConnector.ts');
  return { fetch: fetchImpl, keys: keyRing, mcp: browserConnector(fetchImpl) };
};

/** Forgets what was allowed (tests). */
export const forgetAllowedHosts = () => allowed.clear();

/**
 * The network of a run brought back after a reload: nothing was allowed in this page yet, so its
 * first request asks the person (as a new run would) and is refused if they decline.
 */
export const networkAskedOnFirstRequest = (graph: GraphFile, document: number): RunNetwork => {
  let asked: Promise<RunNetwork | null> | undefined;
  const network = async () => {
    const allowedNetwork = await (asked ??= networkFor(graph, document));
    if (!allowedNetwork) throw new RequestRefused('the hosts this run contacts were not allowed');
    return allowedNetwork;
  };
  return {
    keys: keyRing,
    fetch: async (input, init) => (await network()).fetch(input, init),
    mcp: { connect: async (server) => ((await network()).mcp as McpConnector).connect(server) },
  };
};
