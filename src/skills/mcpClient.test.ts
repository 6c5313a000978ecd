/**
 * A hostile MCP server's tool listing is bounded (issue 51): pages, tools and one deadline for the
 * whole listing. The servers here are the SDK's own Server over an in-memory transport.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { McpSkill } from '../graph/skills.ts';
import { createMcpSkill } from './mcp.ts';
import { SKILL_LIMITS } from '../graph/limits.ts';
import { cachingConnector, LISTING_LIMITS, openConnection, openHttpConnection, type ListingLimits, type OpenedConnection } from './mcpClient.ts';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const, properties: {} }, annotations: { readOnlyHint: true } });

/** A server whose every page of tools holds `perPage` tools and names a next page, forever (after `delayMs`). */
const endlessServer = (perPage = 1, delayMs = 0) => {
  const server = new Server({ name: 'endless', version: '1' }, { capabilities: { tools: {} } });
  let pages = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    pages += 1;
    if (delayMs) await new Promise((done) => setTimeout(done, delayMs));
    return { tools: Array.from({ length: perPage }, (_, index) => tool(`t${pages}_${index}`)), nextCursor: `page-${pages}` };
  });
  return { server, pages: () => pages };
};

const opened: OpenedConnection[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const connectTo = async (server: Server, limits?: ListingLimits) => {
  const [client, side] = InMemoryTransport.createLinkedPair();
  servers.push(server);
  await server.connect(side);
  const connection = await openConnection('endless', client, undefined, limits);
  opened.push(connection);
  return connection;
};

describe('listing a hostile server\'s tools', () => {
  it('stops after the most pages it reads, with an error naming the server and the bound', async () => {
    const { server, pages } = endlessServer();
    const connection = await connectTo(server);
    await expect(connection.tools()).rejects.toMatchObject({ outcome: 'error', message: `the MCP server "endless" lists its tools in more than ${LISTING_LIMITS.pages} pages: Loopscope reads at most ${LISTING_LIMITS.pages}` });
    expect(pages()).toBe(LISTING_LIMITS.pages);
  });

  it('stops at the most tools it reads, however few pages hold them', async () => {
    const { server, pages } = endlessServer(600);
    const connection = await connectTo(server);
    await expect(connection.tools()).rejects.toMatchObject({ outcome: 'error', message: `the MCP server "endless" lists more than ${LISTING_LIMITS.tools} tools: Loopscope reads at most ${LISTING_LIMITS.tools}` });
    expect(pages()).toBe(2);
  });

  it('gives the whole listing one deadline: slow pages, each in time, do not add up to more', async () => {
    const { server, pages } = endlessServer(1, 40);
    const connection = await connectTo(server, { ...LISTING_LIMITS, deadlineMs: 300 });
    const started = Date.now();
    await expect(connection.tools()).rejects.toMatchObject({ outcome: 'error', message: expect.stringMatching(/^the MCP server "endless" did not finish listing its tools within 0.3 s, the time Loopscope gives a listing \(\d+ pages read\)$/) });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(pages()).toBeLessThan(10);
  });

  it('a run\'s attempt is an error that says so, and a server that lists within the bounds is read whole', async () => {
    const connector = cachingConnector(async () => connectTo(endlessServer().server));
    const skill = createMcpSkill('read', McpSkill.parse({ type: 'mcp', server: 'endless', tool: 't1_0' }));
    expect(await skill.call({}, { attempt: 1, state: {}, seed: 1, mcp: connector })).toMatchObject({ outcome: 'error', error: expect.stringContaining('more than 100 pages') });

    const paged = new Server({ name: 'paged', version: '1' }, { capabilities: { tools: {} } });
    paged.setRequestHandler(ListToolsRequestSchema, async (request) => (request.params?.cursor ? { tools: [tool('second')] } : { tools: [tool('first')], nextCursor: 'next' }));
    expect((await (await connectTo(paged)).tools()).map((listed) => listed.name)).toEqual(['first', 'second']);
  });
});

describe('a hostile URL server\'s answer', () => {
  it('is read to SKILL_LIMITS.maxAnswerBytes at most: an endless event stream is cut, not kept in memory', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(1 << 16));
    let pulled = 0;
    let cancelled = false;
    const endless = () => new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('event: message\ndata: ')),
      // Past four times the bound it stalls (as if the server were slow), so that a reader without a bound fails the test, not the machine.
      pull: (controller) => {
        if (pulled > 4 * SKILL_LIMITS.maxAnswerBytes) return;
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel: () => {
        cancelled = true;
      },
    });
    const server = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const message = JSON.parse(String(init?.body ?? '{}')) as { id?: number; method?: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) return new Response(null, { status: 202 });
      const answer = (result: unknown) => new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { headers: { 'content-type': 'application/json', 'mcp-session-id': 's' } });
      if (message.method === 'initialize') return answer({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } });
      if (message.method === 'tools/list') return answer({ tools: [tool('big')] });
      return new Response(endless(), { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof fetch;
    const connection = await openHttpConnection('hostile', 'http://127.0.0.1:9/mcp', { fetch: server });
    opened.push(connection);
    await expect(connection.call('big', {}, 3_000)).rejects.toMatchObject({ outcome: expect.stringMatching(/^(error|timeout)$/) });
    expect(pulled).toBeLessThanOrEqual(SKILL_LIMITS.maxAnswerBytes + 2 * chunk.byteLength);
    expect(cancelled).toBe(true);
  }, 20_000);
});
