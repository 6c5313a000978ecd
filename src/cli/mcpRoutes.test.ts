/**
 * The folder's MCP servers reached through a local server (the seam `loopscope open` mounts): the
 * page's connector on one side, the routes and the node connector on the other, over real HTTP.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../graph/zodProvided.ts';
import { parseGraph } from '../graph/parse.ts';
import { runGraph, createController } from '../runtime/index.ts';
import { folderConnector } from '../skills/mcpFolder.ts';
import { filesAgentCopy, serversFor, testServers } from '../skills/mcpTesting.ts';
import { MCP_ROUTE, mcpRoutes, type McpRoutes } from './mcpRoutes.ts';

const TOKEN = 'secret-token';
let copy: Awaited<ReturnType<typeof filesAgentCopy>>;
let routes: McpRoutes;
let server: Server;
let origin: string;

beforeEach(async () => {
  copy = await filesAgentCopy();
  routes = mcpRoutes({ config: testServers(copy.dir), file: join(copy.dir, '.mcp.json'), source: './.mcp.json' }, { dir: copy.dir });
  // What `open` does for its API routes: the token first, then the route.
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.headers.authorization !== `Bearer ${TOKEN}` || !url.pathname.startsWith(MCP_ROUTE)) return void response.writeHead(403).end();
    const readBody = () => new Promise<string>((resolve) => {
      let text = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
    });
    void routes.handle(request.method ?? 'GET', url.pathname, readBody).then(({ status, body }) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterEach(async () => {
  await routes.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  expect(serversFor(copy.dir)).toEqual([]);
  await copy.remove();
});

const template = async () => {
  const parsed = parseGraph(JSON.parse(await readFile(join(copy.dir, 'graph.json'), 'utf8')));
  if (!parsed.ok) throw new Error('not a graph');
  return parsed.value;
};

describe('the folder\'s MCP servers through the local server', () => {
  it('asks the person once per server before one is started, then the template runs through it: reads, a denied write, approved, written', async () => {
    const asked: string[] = [];
    const mcp = folderConnector({ origin, token: TOKEN }, async (name) => {
      asked.push(name);
      // Nothing has started before the person answers.
      expect(serversFor(copy.dir)).toEqual([]);
      return true;
    });
    const controller = createController(await template(), { mcp, compact: true });
    await controller.run();
    expect(controller.pendingApproval).toMatchObject({ skill: 'write_file' });
    expect(existsSync(join(copy.dir, 'data', 'report.md'))).toBe(false);
    controller.decide('approved');
    await controller.run();
    expect(controller.trace.stopReason).toBe('completed');
    expect(asked).toEqual(['files']);
    expect(controller.trace.steps[0].attempts.find((attempt) => attempt.skill === 'read_text_file')?.returned?.[0]).toMatchObject({ content: expect.stringContaining('left-pad') });
    expect(await readFile(join(copy.dir, 'data', 'report.md'), 'utf8')).toContain('left-pad');
  });

  it('a server the person did not allow is never started: its calls are permission_denied', async () => {
    const trace = await runGraph(await template(), { mcp: folderConnector({ origin, token: TOKEN }, async () => false), compact: true });
    expect(trace.steps[0].attempts.find((attempt) => attempt.skill === 'list_directory')).toMatchObject({ outcome: 'permission_denied', error: 'the MCP server "files" was not allowed to start' });
    expect(serversFor(copy.dir)).toEqual([]);
  });

  it('refuses a server not allowed yet, one the folder does not define, and a request without the token', async () => {
    const call = (path: string, token = TOKEN) => fetch(`${origin}${MCP_ROUTE}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect((await call('files/tools')).status).toBe(403);
    expect(await (await call('nope/allow')).json()).toEqual({ error: 'there is no MCP server "nope" in ./.mcp.json' });
    expect((await call('files/allow', 'wrong')).status).toBe(403);
    expect(serversFor(copy.dir)).toEqual([]);
    const listed = await (await fetch(`${origin}${MCP_ROUTE}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(listed.servers.map((entry: { name: string; allowed: boolean }) => [entry.name, entry.allowed])).toEqual([['files', false], ['fixture', false]]);
  });

  it('passes a server\'s failures on with their outcome: a timeout, a crash named with its last words', async () => {
    const mcp = folderConnector({ origin, token: TOKEN }, async () => true);
    const connection = await mcp.connect('fixture');
    await expect(connection.call('hang', {}, 100)).rejects.toMatchObject({ outcome: 'timeout', message: 'the MCP server "fixture" did not answer hang within 100 ms' });
    await expect(connection.call('crash', {}, 5000)).rejects.toMatchObject({ outcome: 'error', message: 'the MCP server "fixture" stopped while calling crash; its last words on stderr: fixture: about to crash' });
  });
});
