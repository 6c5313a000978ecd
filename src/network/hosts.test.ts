import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type GraphFile, type PermissionMode } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { RequestRefused } from '../skills/index.ts';
import { fetchOnlyTo } from '../skills/net.ts';
import { forgetAllowedHosts, networkFor, useGrantRequests, useHostRequest, useServerStartRequests, type GrantRequest, type HostRequest, type ServerStartRequest } from './hosts.ts';
import type { ListedServer } from '../skills/mcpFolder.ts';
import { badServerUrl, setServerUrl, useMcpServerUrls } from './mcpServers.ts';
import { setOpenServer } from './openServer.ts';
import { forgetKeys, keyRing, setKey } from './secrets.ts';

afterEach(() => {
  forgetAllowedHosts();
  forgetKeys();
});

const withSkills = (skills: GraphFile['skills']): GraphFile => ({ ...findTemplate('securityclaw')!.graph(), skills });
const llm = (baseUrl: string) => ({ type: 'llm' as const, access: 'read' as const, baseUrl, model: 'm', apiKeyName: 'OPENAI_API_KEY', timeoutMs: 1000 });
const http = (url: string) => ({ type: 'http' as const, access: 'read' as const, url, method: 'GET' as const, timeoutMs: 1000 });

/** Answers the next question on screen, and says which hosts it listed. */
const answerNext = (yes: boolean) =>
  new Promise<string[]>((resolve) => {
    const stop = useHostRequest.subscribe(({ request }) => {
      if (!request) return;
      stop();
      resolve(request.hosts.map((host) => host.origin ?? host.address));
      request.answer(yes ? request.mode : null);
    });
  });

/** Answers the next host question with `mode`, and says what it asked. */
const answerHost = (mode: PermissionMode) =>
  new Promise<HostRequest>((resolve) => {
    const stop = useHostRequest.subscribe(({ request }) => {
      if (!request) return;
      stop();
      resolve(request);
      request.answer(mode);
    });
  });

describe('contactedHosts', () => {
  it('lists each origin once with its skills and key names, and addresses built at run time as they are written', () => {
    const graph = withSkills({ a: llm('https://api.example/v1'), b: http('https://api.example/search?q={{args.q}}'), c: http('https://{{state.host}}/x') });
    expect(contactedHosts(graph)).toEqual([
      { origin: 'https://api.example', address: 'https://api.example', skills: ['a', 'b'], keyNames: ['OPENAI_API_KEY'] },
      { origin: null, address: 'https://{{state.host}}/x', skills: ['c'], keyNames: [] },
    ]);
  });

  it('sees hosts a scenario points a skill at', () => {
    const graph = { ...withSkills({ a: http('https://one.example/x') }), scenarios: [{ name: 's', skills: { a: { url: 'https://two.example/x' } }, expect: {} }] };
    expect(contactedHosts(graph).map((host) => host.origin)).toEqual(['https://one.example', 'https://two.example']);
  });
});

describe('networkFor', () => {
  it('asks nothing for a graph with mock skills only', async () => {
    expect(await networkFor(findTemplate('securityclaw')!.graph(), 1)).not.toBeNull();
    expect(useHostRequest.getState().request).toBeNull();
  });

  it('asks once per document and origin, and a declined question runs nothing', async () => {
    const graph = withSkills({ a: llm('https://api.example/v1') });
    const declined = answerNext(false);
    expect(await networkFor(graph, 1)).toBeNull();
    expect(await declined).toEqual(['https://api.example']);

    const allowed = answerNext(true);
    expect(await networkFor(graph, 1)).not.toBeNull();
    await allowed;
    // The same document and origin: not asked again.
    expect(await networkFor(graph, 1)).not.toBeNull();
    // Another document pointing at the same origin is asked again.
    const again = answerNext(true);
    expect(await networkFor(graph, 2)).not.toBeNull();
    expect(await again).toEqual(['https://api.example']);
  });
});

describe('networkFor a graph with MCP skills', () => {
  beforeEach(() => useMcpServerUrls.setState({}, true));

  const mcpGraph = withSkills({ read: { type: 'mcp', access: 'read', server: 'files', tool: 'read_text_file', timeoutMs: 1000 } });

  it('asks for the address of each server the graph names, keeps it in this browser (not the graph), and lets requests go to its host only', async () => {
    const asked = new Promise<HostRequest>((resolve) => {
      const stop = useHostRequest.subscribe(({ request }) => {
        if (!request) return;
        stop();
        resolve(request);
        setServerUrl('files', 'http://127.0.0.1:4431/mcp');
        request.answer('read-only');
      });
    });
    const network = await networkFor(mcpGraph, 1);
    expect((await asked).servers).toEqual([{ name: 'files', skills: ['read'] }]);
    expect(network?.mcp).toBeDefined();
    expect(useMcpServerUrls.getState()).toEqual({ files: 'http://127.0.0.1:4431/mcp' });
    expect(JSON.stringify(mcpGraph)).not.toContain('4431');
    await expect(network?.fetch('http://127.0.0.1:9999/other')).rejects.toBeInstanceOf(RequestRefused);
    // Given and allowed: not asked again for this document.
    expect(await networkFor(mcpGraph, 1)).not.toBeNull();
    expect(useHostRequest.getState().request).toBeNull();
  });

  it('the host question grants the mode the graph asks, or read-only: the file only asks; asked again when the mode asked changes; without servers, hosts allowed, the run gets the mode asked', async () => {
    setServerUrl('files', 'http://127.0.0.1:4431/mcp');
    const asking = { ...mcpGraph, permissions: { mode: 'workspace' as const } };
    const granted = answerHost;
    const first = granted('read-only');
    expect((await networkFor(asking, 1))?.granted).toBe('read-only');
    expect((await first).mode).toBe('workspace');
    expect((await networkFor(asking, 1))?.granted).toBe('read-only');
    expect(useHostRequest.getState().request).toBeNull();
    // The file now asks for full: the person is asked again, whatever they granted before.
    const again = granted('full');
    expect((await networkFor({ ...asking, permissions: { mode: 'full' } }, 1))?.granted).toBe('full');
    expect((await again).mode).toBe('full');
    // An http graph asking workspace: the person chooses too, and read-only is what they may keep.
    const http = granted('read-only');
    const httpGraph = { ...withSkills({ a: llm('https://api.example/v1') }), permissions: { mode: 'workspace' as const } };
    expect((await networkFor(httpGraph, 3))?.granted).toBe('read-only');
    expect((await http).choosesMode).toBe(true);
    expect((await networkFor(httpGraph, 3))?.granted).toBe('read-only');
    expect(useHostRequest.getState().request).toBeNull();
    // The file on disk now asks for full: asked again.
    const raised = granted('full');
    expect((await networkFor({ ...httpGraph, permissions: { mode: 'full' } }, 3))?.granted).toBe('full');
    await raised;
    // An http graph asking read-only is asked for its hosts only: read-only is all it can use.
    const reading = granted('read-only');
    expect((await networkFor(withSkills({ a: llm('https://api.example/v1') }), 4))?.granted).toBe('read-only');
    expect((await reading).choosesMode).toBe(false);
  });

  it('a declined question runs nothing, and a server with no address cannot be reached', async () => {
    const declined = answerNext(false);
    expect(await networkFor(mcpGraph, 1)).toBeNull();
    await declined;
    expect(badServerUrl('')).toBe('the page needs the server\'s address');
    expect(badServerUrl('file:///etc')).toBe('an http:// or https:// address');
    expect(badServerUrl('http://127.0.0.1:3001/mcp')).toBeNull();
  });
});

describe('networkFor under loopscope open', () => {
  const ORIGIN = 'http://127.0.0.1:5290';
  const FOLDER = 'file:///work/project/';
  const files = (over: Partial<ListedServer> = {}): ListedServer => ({
    name: 'files', allowed: false, digest: 'd1', command: "node 'mcp/server-\u202efs.js' ./data", cwd: '/work/project', env: [['NODE_OPTIONS', '--require ./.cache/x.cjs']], ...over,
  });
  const TOOLS = [
    { name: 'read_text_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { name: 'write_file', inputSchema: { type: 'object' } },
  ];
  /** The local server's MCP routes as the page sees them (src/cli/mcpRoutes.ts checks them for real), in memory. */
  const local = (definition = () => files()) => {
    const requests: string[] = [];
    const allowed = new Set<string>();
    const grants = new Map<string, { digest: string; granted: string }>();
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      const path = input.slice(ORIGIN.length);
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      requests.push(`${init.method ?? 'GET'} ${path}${body?.granted ? ` ${body.granted}` : ''}`);
      if ((init.headers as Record<string, string>).authorization !== 'Bearer the-token') return Response.json({ error: 'token' }, { status: 403 });
      const server = definition();
      if (path === '/api/mcp') return Response.json({ source: '/work/project/.mcp.json', servers: [{ ...server, allowed: allowed.has(server.digest) }] });
      if (path === '/api/mcp/files/allow') {
        if (body.digest !== server.digest) return Response.json({ error: 'the MCP server "files" changed' }, { status: 409 });
        return allowed.add(server.digest), Response.json({ allowed: 'files' });
      }
      if (path === '/api/mcp/files/tools') return Response.json({ tools: TOOLS });
      if (path === '/api/mcp/granted') return Response.json({ granted: grants.get(body.graph)?.digest === body.digest ? grants.get(body.graph)!.granted : null });
      if (path === '/api/mcp/grant') return grants.set(body.graph, body), Response.json({ granted: body.granted });
      if (path === '/api/mcp/files/call') return Response.json({ answer: { structuredContent: { content: 'hello' } } });
      return Response.json({ error: `no ${path}` }, { status: 404 });
    });
    return requests;
  };
  /** Answers the next question of a queue (the start of a server, a graph's grant), and says what it showed. */
  const answerQueued = <Request extends { answer: (value: Answer) => void }, Answer>(queue: { subscribe: (listener: (state: { requests: Request[] }) => void) => () => void }, value: Answer) =>
    new Promise<Omit<Request, 'answer'>>((resolve) => {
      const stop = queue.subscribe(({ requests: [request] }) => {
        if (!request) return;
        stop();
        const { answer, ...shown } = request;
        resolve(shown);
        answer(value);
      });
    });
  const answerStart = (yes: boolean) => answerQueued<ServerStartRequest, boolean>(useServerStartRequests, yes);
  const answerGrant = (granted: PermissionMode | null) => answerQueued<GrantRequest, PermissionMode | null>(useGrantRequests, granted);
  beforeEach(() => setOpenServer({ origin: ORIGIN, token: 'the-token', pathOf: (id) => (id.startsWith(FOLDER) ? id.slice(FOLDER.length) : null) }));
  afterEach(() => {
    setOpenServer(null);
    vi.unstubAllGlobals();
  });

  const mcpGraph: GraphFile = {
    ...withSkills({
      read: { type: 'mcp', access: 'read', server: 'files', tool: 'read_text_file', timeoutMs: 1000 },
      write: { type: 'mcp', access: 'read', server: 'files', tool: 'write_file', timeoutMs: 1000 },
      other: { type: 'mcp', access: 'read', server: 'elsewhere', tool: 'x', timeoutMs: 1000 },
    }),
    permissions: { mode: 'workspace' },
  };

  it('asks to start a server as it runs, then what the graph file may do: the mode it asks, the servers, each call by its access; nothing is called before the grant, and the run gets what was granted', async () => {
    const requests = local();
    const started = answerStart(true);
    const granting = answerGrant('read-only');
    const network = await networkFor(mcpGraph, 1, `${FOLDER}evil.json`);
    expect(useHostRequest.getState().request).toBeNull();
    expect(await started).toEqual({ server: files(), source: '/work/project/.mcp.json', graphName: mcpGraph.name, skills: ['read', 'write'] });
    expect(await granting).toEqual({
      graphName: mcpGraph.name, file: 'evil.json', mode: 'workspace', servers: [files()], source: '/work/project/.mcp.json',
      calls: [{ skill: 'read', server: 'files', tool: 'read_text_file', access: 'read' }, { skill: 'write', server: 'files', tool: 'write_file', access: 'write' }],
    });
    expect(network?.granted).toBe('read-only');
    expect(requests).toEqual(['GET /api/mcp', 'POST /api/mcp/files/allow', 'POST /api/mcp/files/tools', 'POST /api/mcp/granted', 'POST /api/mcp/grant read-only']);
    // The run's calls reach the server allowed; one the folder does not define says so.
    expect(await (await network!.mcp!.connect('files')).call('write_file', {}, 1000)).toEqual({ structuredContent: { content: 'hello' } });
    await expect(network!.mcp!.connect('elsewhere')).rejects.toMatchObject({ outcome: 'error', message: 'there is no MCP server "elsewhere" in /work/project/.mcp.json (it defines files)' });

    // Remembered by the local server for this file and what was shown: the next run asks nothing.
    expect((await networkFor(mcpGraph, 1, `${FOLDER}evil.json`))?.granted).toBe('read-only');
    expect(useServerStartRequests.getState().requests).toEqual([]);
    expect(useGrantRequests.getState().requests).toEqual([]);
    // Another file of the folder is asked about for itself.
    const other = answerGrant('workspace');
    expect((await networkFor(mcpGraph, 2, `${FOLDER}graph.json`))?.granted).toBe('workspace');
    expect((await other).file).toBe('graph.json');
  });

  it('a scenario\'s run starts no server and asks no grant: its real skills are mocks', async () => {
    const requests = local();
    const network = await networkFor(mcpGraph, 1, `${FOLDER}evil.json`, 'replayed');
    expect(network?.mcp).toBeUndefined();
    expect(requests).toEqual([]);
    expect(useServerStartRequests.getState().requests).toEqual([]);
  });

  it('a denied grant runs nothing; a server changed while it was shown is shown again; a denied server fails its calls, and no grant is asked when no server is reached', async () => {
    let definition = files();
    const requests = local(() => definition);
    void answerStart(true);
    const denied = answerGrant(null);
    await expect(networkFor(mcpGraph, 1, `${FOLDER}evil.json`)).rejects.toThrow('the access it asks of the folder’s MCP servers was denied.');
    await denied;
    expect(requests.filter((request) => request.includes('/call') || request.startsWith('POST /api/mcp/grant '))).toEqual([]);

    // .mcp.json changes while the question is on screen: the allowance of what was shown is refused, and the person is shown what is there now.
    definition = files({ digest: 'd2' });
    const shown: string[] = [];
    const stop = useServerStartRequests.subscribe(({ requests: [request] }) => {
      if (!request) return;
      shown.push(request.server.digest);
      if (request.server.digest === 'd2') definition = files({ digest: 'd3', env: [['NODE_OPTIONS', '--require ./.cache/y.cjs']] });
      request.answer(true);
    });
    onTestFinished(stop);
    const granting = answerGrant('workspace');
    expect((await networkFor(mcpGraph, 1, `${FOLDER}evil.json`))?.granted).toBe('workspace');
    expect(shown).toEqual(['d2', 'd3']);
    expect((await granting).servers).toEqual([definition]);

    // A server the person denies: its calls fail, saying so, and nothing else is asked.
    stop();
    definition = files({ digest: 'd4' });
    void answerStart(false);
    const network = await networkFor(mcpGraph, 1, `${FOLDER}evil.json`);
    await expect(network!.mcp!.connect('files')).rejects.toMatchObject({ outcome: 'error', message: 'the MCP server "files" was not started: it was denied in the page' });
    expect(useGrantRequests.getState().requests).toEqual([]);
    expect(network?.granted).toBeUndefined();
  });

  /** A graph calling the folder's server, and writing to a host. */
  const writingToHosts: GraphFile = {
    ...withSkills({
      read: { type: 'mcp', access: 'read', server: 'files', tool: 'read_text_file', timeoutMs: 1000 },
      post: { ...http('https://api.example/x'), access: 'write', method: 'POST' },
    }),
    permissions: { mode: 'workspace' },
  };
  it('a graph that also writes to hosts: the host question grants the mode for them too, and the run gets the lesser of it and the folder\'s grant (its dialog lists only MCP tools)', async () => {
    local();
    const host = answerHost('read-only');
    void answerStart(true);
    // The folder's dialog shows reads only: granting what it asks there must not let the http skill write.
    const granting = answerGrant('workspace');
    const network = await networkFor(writingToHosts, 1, `${FOLDER}graph.json`);
    expect((await host).choosesMode).toBe(true);
    expect((await granting).calls.map((call) => call.access)).toEqual(['read']);
    expect(network?.granted).toBe('read-only');
  });

  it('a graph that also writes to hosts, its server denied: the host question\'s grant is the run\'s (no MCP call can be made)', async () => {
    local();
    const host = answerHost('workspace');
    void answerStart(false);
    const network = await networkFor(writingToHosts, 1, `${FOLDER}graph.json`);
    await host;
    expect(useGrantRequests.getState().requests).toEqual([]);
    expect(network?.granted).toBe('workspace');
  });
});

describe('fetchOnlyTo', () => {
  it('lets requests go to the allowed origins only, refusing others before they are sent', async () => {
    const sent: string[] = [];
    const guarded = fetchOnlyTo(new Set(['https://api.example']), (async (input: string | URL | Request) => {
      sent.push(String(input));
      return new Response('[]');
    }) as typeof fetch);
    await guarded('https://api.example/x?q=1');
    await expect(guarded('https://evil.example/x')).rejects.toBeInstanceOf(RequestRefused);
    await expect(guarded('not a url')).rejects.toThrow('was not allowed for this run');
    expect(sent).toEqual(['https://api.example/x?q=1']);
  });
});

describe('keyRing', () => {
  it('gives a key only for the origin it was given for, and says where it was given otherwise', () => {
    setKey('OPENAI_API_KEY', 'https://api.openai.com', 'sk-1');
    expect(keyRing('OPENAI_API_KEY', 'https://api.openai.com')).toEqual({ key: 'sk-1' });
    expect(keyRing('OPENAI_API_KEY', 'https://attacker.example')).toEqual({
      refused: 'the key OPENAI_API_KEY was given for https://api.openai.com, not for https://attacker.example: give it again for https://attacker.example to send it there',
    });
    expect(keyRing('OTHER', 'https://api.openai.com')).toEqual({ refused: 'no key named OTHER was given for https://api.openai.com' });
  });
});
