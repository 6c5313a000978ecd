/**
 * Before a run contacts other hosts, the person sees them and allows them: once per opened graph
 * and origin. During the run, requests go only to the origins allowed; any other address a skill
 * builds (from the state, say) is refused before it is sent. Keys go with `keyRing`, each only to
 * the origin it was given for. A graph that calls MCP tools only asks for a permission mode: the
 * person grants it (or read-only), and the run gets what they granted (`granted`).
 */
import { create } from 'zustand';
import { type ContactedHost, type GraphFile, type PermissionMode } from '../graph/index.ts';
import { contactedHosts, originOf } from '../graph/hosts.ts';
import type { KeyRing } from '../skills/index.ts';
// net.ts itself, not the index: the index would bring every skill runner onto the first screen.
import { fetchOnlyTo, RequestRefused } from '../skills/net.ts';
import { grantCovers } from '../skills/grant.ts';
import type { McpConnector } from '../skills/mcp.ts';
// The command line refuses other hosts with the same fetch: it lives in the skills layer, and the page's modules take it from here.
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
  /** The permission mode the graph file asks for. */
  mode: PermissionMode;
  /** Whether the person grants the mode here (it or read-only): a graph naming MCP servers at addresses given here, or one asking more than read-only of its hosts. */
  choosesMode: boolean;
  /** The mode granted, or null: nothing runs. */
  answer: (granted: PermissionMode | null) => void;
}

/** The question on screen, if any; the debugger's host dialog shows it. */
export const useHostRequest = create<{ request: HostRequest | null }>()(() => ({ request: null }));

// The questions a folder's MCP servers ask (./folderMcp.ts, loaded from here) are their own module.
export { askToGrant, askToStartServer, useGrantRequests, useServerStartRequests, type GrantRequest, type ServerStartRequest } from './questions.ts';

/** `document origin` pairs a person allowed, in memory only. */
const allowed = new Set<string>();

const pair = (document: number, origin: string) => `${document} ${origin}`;

export interface RunNetwork {
  fetch: typeof fetch;
  keys: KeyRing;
  /** The MCP servers the graph's mcp skills name, at the addresses the person gave. */
  mcp?: McpConnector;
  /** The permission mode the person granted the run's real calls (the graph's own only asks); absent: read-only. */
  granted?: PermissionMode;
}

/** The mode granted for each document, with what it was granted for (the mode asked, the servers and their addresses). */
const grants = new Map<number, { asked: string; granted: PermissionMode }>();

/**
 * What a run of this graph may reach, asking the person first when it contacts a host not yet
 * allowed for this document, or names an MCP server with no address yet or no grant for what it
 * asks now; null when they decline. A graph with mock skills only asks nothing. Under `loopscope
 * open` the folder's servers are asked about for the graph's file (`documentId`), in their own
 * dialogs (./folderMcp.ts), which throw when the person denies the grant.
 */
export const networkFor = async (graph: GraphFile, document: number, documentId = '', scenario: string | null = null): Promise<RunNetwork | null> => {
  const hosts = contactedHosts(graph);
  // A scenario's run reaches no MCP server (the runtime makes its real skills mocks that say so): none is started or granted for it.
  const named = scenario === null ? serversNamed(graph) : new Map<string, string[]>();
  // Under `loopscope open` the folder's `.mcp.json` says where each server is: no address is asked.
  const folder = openServer();
  const servers = folder ? [] : [...named].map(([name, skills]) => ({ name, skills }));
  // Read after the question too: the person gives the servers' addresses in it.
  const fixed = () => [
    ...hosts.flatMap((host) => (host.origin ? [host.origin] : [])),
    ...servers.flatMap((server) => originOf(serverUrl(server.name) ?? '') ?? []),
  ];
  const { mode } = graph.permissions;
  // The host question grants the mode, never the file: for servers at addresses given here, and for
  // hosts a graph asks more than read-only of, under `open` too: the folder's grant question lists
  // its MCP tools only, so what it grants must not let a call to a host write unasked.
  const choosesMode = servers.length > 0 || (hosts.length > 0 && mode !== 'read-only');
  // Asked again when the mode asked or an address changes.
  const askedNow = () => JSON.stringify([mode, hosts.map((host) => host.origin), servers.map((server) => [server.name, serverUrl(server.name)])]);
  const remembered = grants.get(document);
  const asked = servers.some((server) => !serverUrl(server.name)) || fixed().some((origin) => !allowed.has(pair(document, origin))) || (choosesMode && remembered?.asked !== askedNow());
  // A graph whose real skills only read (or that has none) is granted what it asks: read-only is all it can use.
  let granted: PermissionMode = choosesMode ? (remembered?.granted ?? 'read-only') : mode;
  if (asked) {
    const answer = await new Promise<PermissionMode | null>((resolve) => useHostRequest.setState({ request: { graphName: graph.name, hosts, servers, mode, choosesMode, answer: resolve } }));
    useHostRequest.setState({ request: null });
    if (answer === null) return null;
    for (const origin of fixed()) allowed.add(pair(document, origin));
    granted = answer;
    if (choosesMode) grants.set(document, { asked: askedNow(), granted });
  }
  const fetchImpl = fetchOnlyTo(new Set(fixed()));
  if (named.size === 0) return { fetch: fetchImpl, keys: keyRing, granted };
  if (folder) {
    const { folderNetwork } = await import('./folderMcp.ts');
    const reached = await folderNetwork(folder, graph, folder.pathOf?.(documentId) ?? null);
    // One mode for the run's real calls: the lesser of the two the person granted; with no server
    // reached (no MCP call can be made), the host question's alone (absent: read-only).
    const lesser = reached.granted === undefined ? (choosesMode ? granted : undefined) : grantCovers(granted, reached.granted) ? reached.granted : granted;
    return { fetch: fetchImpl, keys: keyRing, mcp: reached.mcp, ...(lesser ? { granted: lesser } : {}) };
  }
  const { browserConnector } = await import('./mcpConnector.ts');
  return { fetch: fetchImpl, keys: keyRing, mcp: browserConnector(fetchImpl), granted };
};

/** Forgets what was allowed and granted (tests). */
export const forgetAllowedHosts = () => {
  allowed.clear();
  grants.clear();
};

/** A run's network asked for later: `ask()` asks the person (once), and `granted` is what they granted, once they have. */
export interface LaterNetwork extends RunNetwork {
  /** Asks, if not yet; throws why when the person declined (then every request is refused). */
  ask: () => Promise<void>;
}

/**
 * The network of a run brought back after a reload: nothing was allowed or granted in this page
 * yet, so the person is asked before the run goes on (`ask`, which the store calls first) or at its
 * first request, as a new run would; until then `granted` is absent (read-only), and a request is
 * refused if they decline.
 */
export const networkAskedLater = (graph: GraphFile, document: number, documentId = '', scenario: string | null = null): LaterNetwork => {
  let asked: Promise<RunNetwork | null> | undefined;
  let reached: RunNetwork | null = null;
  const network = async () => {
    reached = await (asked ??= networkFor(graph, document, documentId, scenario));
    if (!reached) throw new RequestRefused('the hosts this run contacts were not allowed');
    return reached;
  };
  return {
    keys: keyRing,
    get granted() {
      return reached?.granted;
    },
    ask: async () => {
      await network();
    },
    fetch: async (input, init) => (await network()).fetch(input, init),
    mcp: { connect: async (server) => ((await network()).mcp as McpConnector).connect(server) },
  };
};
