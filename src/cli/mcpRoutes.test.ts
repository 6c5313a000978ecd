/**
 * The folder's MCP servers reached through `loopscope open` (its server with the MCP routes in its
 * table): the page's connector on one side, the routes and the node connector on the other, over
 * real HTTP, with open's Host and token checks.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseGraph } from '../graph/parse.ts';
import { runGraph, createController } from '../runtime/index.ts';
import { folderConnector } from '../skills/mcpFolder.ts';
import { filesAgentCopy, serversFor, testServers } from '../skills/mcpTesting.ts';
import { openFolder } from './folder.ts';
import { readProjectServers } from './mcp.ts';
import { MCP_ROUTE, mcpRoutes, openMcpRoutes } from './mcpRoutes.ts';
import { startOpen, type Opened } from './open.ts';

const TOKEN = 'secret-token';
let copy: Awaited<ReturnType<typeof filesAgentCopy>>;
let app: string;
let opened: Opened;
let origin: string;
const started: number[] = [];

beforeEach(async () => {
  copy = await filesAgentCopy();
  app = await mkdtemp(join(tmpdir(), 'loopscope-app-'));
  await writeFile(join(app, 'index.html'), '<!doctype html><title>Loopscope</title>');
  started.length = 0;
  await writeServers(testServers(copy.dir));
  const routes = mcpRoutes(() => readProjectServers(undefined, copy.dir), { dir: copy.dir, onStart: (_name, pid) => started.push(pid) });
  opened = await startOpen({ folder: await openFolder(copy.dir), port: 0, appDir: app, token: TOKEN, routes: openMcpRoutes(routes) });
  origin = `http://127.0.0.1:${opened.port}`;
});

afterEach(async () => {
  // Stopping open stops the servers it started, by PID.
  await opened.stop();
  expect(serversFor(copy.dir)).toEqual([]);
  await copy.remove();
  await rm(app, { recursive: true, force: true });
});

const writeServers = (config: unknown) => writeFile(join(copy.dir, '.mcp.json'), typeof config === 'string' ? config : JSON.stringify(config));
const listed = async () => (await fetch(`${origin}${MCP_ROUTE}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();

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
    expect(started).toHaveLength(1);
    expect(serversFor(copy.dir).map((line) => Number(line.trim().split(/\s+/)[0]))).toEqual(started);
    expect(controller.trace.steps[0].attempts.find((attempt) => attempt.skill === 'read_text_file')?.returned?.[0]).toMatchObject({ content: expect.stringContaining('left-pad') });
    expect(await readFile(join(copy.dir, 'data', 'report.md'), 'utf8')).toContain('left-pad');
  });

  it('a server the person denied is never started: its calls are errors that say so', async () => {
    const trace = await runGraph(await template(), { mcp: folderConnector({ origin, token: TOKEN }, async () => false), compact: true });
    expect(trace.steps[0].attempts.find((attempt) => attempt.skill === 'list_directory')).toMatchObject({ outcome: 'error', error: 'the MCP server "files" was not started: it was denied in the page' });
    expect(serversFor(copy.dir)).toEqual([]);
  });

  it('refuses a server not allowed yet, one the folder does not define, a request without the token and one for another Host', async () => {
    const call = (path: string, token = TOKEN) => fetch(`${origin}${MCP_ROUTE}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect((await call('files/tools')).status).toBe(403);
    expect(await (await call('nope/allow')).json()).toEqual({ error: 'there is no MCP server "nope" in ./.mcp.json' });
    expect((await call('files/allow', 'wrong')).status).toBe(403);
    // Another name for this machine (a DNS-rebinding site's) is refused, token or not.
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: opened.port, path: `${MCP_ROUTE}/files/allow`, method: 'POST', headers: { Host: `evil.example:${opened.port}`, authorization: `Bearer ${TOKEN}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(rebound).toBe(403);
    expect(serversFor(copy.dir)).toEqual([]);
    expect((await listed()).servers.map((entry: { name: string; allowed: boolean }) => [entry.name, entry.allowed])).toEqual([['files', false], ['fixture', false]]);
  });

  it('passes a server\'s failures on with their outcome: a timeout, a crash named with its last words', async () => {
    const mcp = folderConnector({ origin, token: TOKEN }, async () => true);
    const connection = await mcp.connect('fixture');
    await expect(connection.call('hang', {}, 100)).rejects.toMatchObject({ outcome: 'timeout', message: 'the MCP server "fixture" did not answer hang within 100 ms' });
    await expect(connection.call('crash', {}, 5000)).rejects.toMatchObject({ outcome: 'error', message: 'the MCP server "fixture" stopped while calling crash; its last words on stderr: fixture: about to crash' });
  });

  it('reads .mcp.json again on each use: a changed server stops and is asked about again, a broken file is said, a server added later is seen', async () => {
    const call = (path: string) => fetch(`${origin}${MCP_ROUTE}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    await call('files/allow');
    expect((await call('files/tools')).status).toBe(200);
    expect(started).toHaveLength(1);
    // The same definition, another server changed: files keeps running and stays allowed.
    await writeServers(testServers(copy.dir, { extra: { url: 'http://127.0.0.1:9/mcp' } }));
    expect((await listed()).servers.map((entry: { name: string; allowed: boolean }) => [entry.name, entry.allowed])).toEqual([['files', true], ['fixture', false], ['extra', false]]);
    expect(serversFor(copy.dir)).toHaveLength(1);
    // Files now starts another way: the one running stops, and nothing starts before it is allowed again.
    const changed = testServers(copy.dir);
    changed.mcpServers.files = { ...changed.mcpServers.files, args: [...(changed.mcpServers.files as { args: string[] }).args, join(copy.dir, 'data')] };
    await writeServers(changed);
    expect((await listed()).servers[0]).toMatchObject({ name: 'files', allowed: false });
    expect(serversFor(copy.dir)).toEqual([]);
    expect((await call('files/tools')).status).toBe(403);
    await writeServers('{"mcpServers": ');
    expect((await listed()).problem).toMatch(/\.mcp\.json is not JSON/);
    expect(await (await call('files/allow')).json()).toEqual({ error: expect.stringMatching(/\.mcp\.json is not JSON/) });
    await rm(join(copy.dir, '.mcp.json'));
    expect((await listed()).problem).toMatch(/the folder has no \.mcp\.json/);
  });
});
