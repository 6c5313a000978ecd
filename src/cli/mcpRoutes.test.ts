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
import { McpFailure, type McpTool } from '../skills/mcp.ts';
import { allowServer, folderConnector, grantDigest, listServerTools, type GrantAsk, type ListedServer } from '../skills/mcpFolder.ts';
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

const api = () => ({ origin, token: TOKEN });
const serverOf = async (name: string): Promise<ListedServer> => (await listed()).servers.find((server: ListedServer) => server.name === name);
const post = async (path: string, body?: unknown) => {
  const response = await fetch(`${origin}${MCP_ROUTE}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() };
};

/** The page's side once the person allowed `names` as listed (asked in the page: here, `ask` answers). */
const allowedConnector = async (names: string[], ask: (name: string) => boolean = () => true) => {
  const tools = new Map<string, McpTool[]>();
  for (const name of names) {
    if (!ask(name)) continue;
    await allowServer(api(), name, (await serverOf(name)).digest);
    tools.set(name, await listServerTools(api(), name));
  }
  return { tools, mcp: folderConnector(api(), tools, (name) => new McpFailure('error', `the MCP server "${name}" was not started: it was denied in the page`)) };
};

const template = async () => {
  const parsed = parseGraph(JSON.parse(await readFile(join(copy.dir, 'graph.json'), 'utf8')));
  if (!parsed.ok) throw new Error('not a graph');
  return parsed.value;
};

describe('the folder\'s MCP servers through the local server', () => {
  it('starts a server only once the person allowed it, then the template runs through it: reads, a denied write, approved, written', async () => {
    const asked: string[] = [];
    const { mcp } = await allowedConnector(['files'], (name) => {
      asked.push(name);
      // Nothing has started before the person answers.
      expect(serversFor(copy.dir)).toEqual([]);
      return true;
    });
    const controller = createController(await template(), { mcp, compact: true, granted: 'read-only' });
    await controller.run();
    expect(controller.session.pending).toMatchObject({ skill: 'write_file' });
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
    const trace = await runGraph(await template(), { mcp: (await allowedConnector(['files'], () => false)).mcp, compact: true });
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
    const { mcp } = await allowedConnector(['fixture']);
    const connection = await mcp.connect('fixture');
    await expect(connection.call('hang', {}, 100)).rejects.toMatchObject({ outcome: 'timeout', message: 'the MCP server "fixture" did not answer hang within 100 ms' });
    await expect(connection.call('crash', {}, 5000)).rejects.toMatchObject({ outcome: 'error', message: 'the MCP server "fixture" stopped while calling crash; its last words on stderr: fixture: about to crash' });
  });

  it('reads .mcp.json again on each use: a changed server stops and is asked about again, a broken file is said, a server added later is seen', async () => {
    const call = (path: string) => fetch(`${origin}${MCP_ROUTE}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    await allowServer(api(), 'files', (await serverOf('files')).digest);
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

  it('shows each server as it runs: the command line quoted as a shell reads it, the absolute folder it starts in, every environment variable with its value', async () => {
    const config = testServers(copy.dir);
    config.mcpServers.files = { ...config.mcpServers.files, args: [...(config.mcpServers.files as { args: string[] }).args, './a b'], env: { NODE_OPTIONS: '--require ./.cache/x.cjs', TOKEN: '${GITHUB_TOKEN}' }, cwd: 'data' };
    await writeServers(config);
    expect(await serverOf('files')).toMatchObject({
      command: expect.stringMatching(/ '\.\/a b'$/),
      cwd: join(copy.dir, 'data'),
      env: [['NODE_OPTIONS', '--require ./.cache/x.cjs'], ['TOKEN', '${GITHUB_TOKEN}']],
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('shows which of this machine\'s environment variables the headers of a URL server send (their values are not shown: they may be keys)', async () => {
    const config = testServers(copy.dir);
    config.mcpServers.remote = { url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer ${GITHUB_TOKEN}', 'x-note': '${AWS_SECRET_ACCESS_KEY:-none}', 'x-plain': 'sk-literal' } };
    await writeServers(config);
    expect(await serverOf('remote')).toMatchObject({ url: 'http://127.0.0.1:9/mcp', headers: ['authorization', 'x-note', 'x-plain'], headerVariables: ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY'] });
    expect(JSON.stringify(await serverOf('remote'))).not.toContain('sk-literal');
  });

  it('shows the folder a server starts in as it will be: its variables filled in, not resolved as a name inside the folder', async () => {
    const config = testServers(copy.dir);
    config.mcpServers.files = { ...config.mcpServers.files, cwd: '${HOME}' };
    await writeServers(config);
    expect((await serverOf('files')).cwd).toBe(process.env.HOME);
  });

  it('answers an address that is not well formed with 400, naming it', async () => {
    expect(await post('%E0%A4%A/call', {})).toEqual({ status: 400, body: { error: 'not a route: /api/mcp/%E0%A4%A/call is not a well-formed address' } });
  });

  it('an allowance is bound to the definition the page showed: one changed since is refused (409) and started from neither', async () => {
    const shown = await serverOf('files');
    const changed = testServers(copy.dir);
    changed.mcpServers.files = { ...changed.mcpServers.files, env: { NODE_OPTIONS: '--require ./.cache/x.cjs' } };
    await writeServers(changed);
    expect(await post('files/allow', { digest: shown.digest })).toEqual({ status: 409, body: { error: `the MCP server "files" changed in ./.mcp.json since the page showed it: it is asked about again` } });
    expect(await post('files/allow', {})).toEqual({ status: 400, body: { error: 'the request\'s body: digest: required: expected text (a string)' } });
    expect((await post('files/tools')).status).toBe(403);
    expect((await serverOf('files')).allowed).toBe(false);
    // Allowed as shown now, it starts.
    await allowServer(api(), 'files', (await serverOf('files')).digest);
    expect((await post('files/tools')).status).toBe(200);
    expect(started).toHaveLength(1);
  });

  it('a grant is the person\'s, per graph file, for exactly what was shown: another file asking workspace is asked again, and a changed server or tool list is refused (409)', async () => {
    const { tools } = await allowedConnector(['files']);
    const files = { name: 'files', digest: (await serverOf('files')).digest };
    const reads: GrantAsk = { graph: 'graph.json', mode: 'read-only', servers: [files], calls: [{ skill: 'read', server: 'files', tool: 'read_text_file', declared: 'read' }] };
    const granted = async (ask: GrantAsk) => (await post('granted', { ...ask, digest: await grantDigest(ask, tools) })).body;
    const grant = async (ask: GrantAsk, mode: string, digest?: string) => post('grant', { ...ask, digest: digest ?? (await grantDigest(ask, tools)), granted: mode });

    expect(await granted(reads)).toEqual({ granted: null });
    expect(await grant(reads, 'read-only')).toEqual({ status: 200, body: { granted: 'read-only' } });
    expect(await granted(reads)).toEqual({ granted: 'read-only' });

    // Another file of the folder asks for workspace and calls write_file: nothing granted for it.
    const writes: GrantAsk = { graph: 'evil.json', mode: 'workspace', servers: [files], calls: [...reads.calls, { skill: 'write', server: 'files', tool: 'write_file', declared: 'read' }] };
    expect(await granted(writes)).toEqual({ granted: null });
    // The file cannot grant itself more than it asks, and the page cannot grant what it did not show.
    expect(await grant(writes, 'full')).toEqual({ status: 400, body: { error: 'granted: the person grants the mode the graph asks (workspace) or read-only, not "full"' } });
    const shownAsRead = await grantDigest({ ...writes, calls: writes.calls.map((call) => ({ ...call, declared: 'read' })) }, new Map([['files', tools.get('files')!.map((tool) => ({ ...tool, annotations: { readOnlyHint: true } }))]]));
    expect(await grant(writes, 'workspace', shownAsRead)).toEqual({ status: 409, body: { error: 'the tools of "files" changed since the page showed them: the page asks again' } });
    expect(await granted(writes)).toEqual({ granted: null });
    // The same file asking for more than it was granted is asked again.
    expect(await granted({ ...reads, mode: 'workspace' })).toEqual({ granted: null });
    expect(await grant(writes, 'read-only')).toEqual({ status: 200, body: { granted: 'read-only' } });
    expect(await granted(writes)).toEqual({ granted: 'read-only' });

    // The server's definition changes: what was shown no longer holds.
    const changed = testServers(copy.dir);
    changed.mcpServers.files = { ...changed.mcpServers.files, env: { NODE_OPTIONS: '--require ./.cache/x.cjs' } };
    await writeServers(changed);
    expect((await post('granted', { ...reads, digest: await grantDigest(reads, tools) })).status).toBe(409);
    expect(await grant(reads, 'read-only')).toEqual({ status: 409, body: { error: `the MCP server "files" changed in ./.mcp.json since the page showed it: the page asks again` } });
    expect((await post('grant', { graph: 'a.json' })).status).toBe(400);
  });
});
