import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { contactedHosts } from '../graph/hosts.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { RequestRefused } from '../skills/index.ts';
import { fetchOnlyTo, forgetAllowedHosts, networkFor, useHostRequest, useServerStartRequests, type HostRequest, type ServerStartRequest } from './hosts.ts';
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
      request.answer(yes);
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
        request.answer(true);
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
  /** The local server's MCP routes as the page sees them (src/cli/mcpRoutes.ts), in memory. */
  const local = () => {
    const requests: string[] = [];
    const allowed = new Set<string>();
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      const path = input.slice(ORIGIN.length);
      requests.push(`${init.method ?? 'GET'} ${path}`);
      if ((init.headers as Record<string, string>).Authorization !== 'Bearer the-token' && (init.headers as Record<string, string>).authorization !== 'Bearer the-token') return Response.json({ error: 'token' }, { status: 403 });
      if (path === '/api/mcp') return Response.json({ source: '/work/project/.mcp.json', servers: [{ name: 'files', allowed: allowed.has('files'), command: 'npx @modelcontextprotocol/server-filesystem ./data', env: ['ROOT'] }] });
      if (path === '/api/mcp/files/allow') return allowed.add('files'), Response.json({ allowed: 'files' });
      if (path === '/api/mcp/files/tools') return Response.json({ tools: [{ name: 'read_text_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
      if (path === '/api/mcp/files/call') return Response.json({ answer: { structuredContent: { content: 'hello' } } });
      return Response.json({ error: `no ${path}` }, { status: 404 });
    });
    return requests;
  };
  /** Answers the next start question, and says what it showed. */
  const answerStart = (yes: boolean) =>
    new Promise<Omit<ServerStartRequest, 'answer'>>((resolve) => {
      const stop = useServerStartRequests.subscribe(({ requests: [request] }) => {
        if (!request) return;
        stop();
        const { answer, ...shown } = request;
        resolve(shown);
        answer(yes);
      });
    });
  beforeEach(() => setOpenServer({ origin: ORIGIN, token: 'the-token' }));
  afterEach(() => {
    setOpenServer(null);
    vi.unstubAllGlobals();
  });

  const mcpGraph = withSkills({ read: { type: 'mcp', access: 'read', server: 'files', tool: 'read_text_file', timeoutMs: 1000 }, other: { type: 'mcp', access: 'read', server: 'elsewhere', tool: 'x', timeoutMs: 1000 } });

  it('asks no address: the folder\'s .mcp.json says where each server is; a server starts only once the person denies or allows it, asked once', async () => {
    const requests = local();
    const network = await networkFor(mcpGraph, 1);
    expect(useHostRequest.getState().request).toBeNull();
    // Denied: nothing is asked of the local server beyond the list, and the run's calls say why.
    const denied = answerStart(false);
    await expect(network!.mcp!.connect('files')).rejects.toMatchObject({ outcome: 'error', message: 'the MCP server "files" was not started: it was denied in the page' });
    expect(await denied).toEqual({ server: 'files', command: 'npx @modelcontextprotocol/server-filesystem ./data', env: ['ROOT'], source: '/work/project/.mcp.json', graphName: mcpGraph.name, skills: ['read'] });
    await expect(network!.mcp!.connect('files')).rejects.toMatchObject({ outcome: 'error' });
    expect(requests).toEqual(['GET /api/mcp']);
    // A server the folder does not define is said, with those it does.
    await expect(network!.mcp!.connect('elsewhere')).rejects.toMatchObject({ outcome: 'error', message: 'there is no MCP server "elsewhere" in /work/project/.mcp.json (it defines files)' });

    // The next run asks again; allowed, the server is reached, and no later run asks.
    const allowed = answerStart(true);
    const connection = await (await networkFor(mcpGraph, 1))!.mcp!.connect('files');
    await allowed;
    expect(await connection.call('read_text_file', { path: 'a' }, 1000)).toEqual({ structuredContent: { content: 'hello' } });
    expect(requests.slice(-3)).toEqual(['GET /api/mcp', 'POST /api/mcp/files/allow', 'POST /api/mcp/files/call']);
    await (await networkFor(mcpGraph, 1))!.mcp!.connect('files');
    expect(useServerStartRequests.getState().requests).toEqual([]);
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
