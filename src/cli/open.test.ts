import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serializeGraph, type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { openFolder } from './folder.ts';
import { hasDesktop, startOpen, type Opened } from './open.ts';

const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
const text = serializeGraph(graph);
const TOKEN = 'test-token-0123456789';
let root: string;
let app: string;
let opened: Opened;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'loopscope-open-'));
  app = await mkdtemp(join(tmpdir(), 'loopscope-app-'));
  await writeFile(join(app, 'index.html'), '<!doctype html><title>Loopscope</title>');
  await mkdir(join(app, 'assets'));
  await writeFile(join(app, 'assets/index-abc.js'), 'export {};');
  await writeFile(join(root, 'graph.json'), text);
  await writeFile(join(root, 'secret.txt'), 'not for the page');
  opened = await startOpen({ folder: await openFolder(root), port: 0, appDir: app, token: TOKEN });
});

afterEach(async () => {
  await opened?.stop();
  await rm(root, { recursive: true, force: true });
  await rm(app, { recursive: true, force: true });
});

/** A raw request: the path as written (fetch would normalise `..`), any Host. */
const raw = (path: string, { method = 'GET', host = `127.0.0.1:${opened.port}`, headers = {} as Record<string, string>, body = '' } = {}) =>
  new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: opened.port, path, method, headers: { Host: host, ...headers } }, (response) => {
      let data = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (data += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, body: data, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(body);
  });
const api = (path: string, options: Parameters<typeof raw>[1] = {}) => raw(path, { ...options, headers: { Authorization: `Bearer ${TOKEN}`, ...options.headers } });

describe('loopscope open: the server', () => {
  it('prints an address carrying the token, and serves the app to it', async () => {
    expect(opened.url).toBe(`http://127.0.0.1:${opened.port}/#token=${TOKEN}`);
    const page = await raw('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Loopscope</title>');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await raw('/', { host: `localhost:${opened.port}` })).status).toBe(200);
    expect((await raw('/assets/index-abc.js')).headers['cache-control']).toContain('immutable');
  });

  it('refuses (403) every request whose Host is not 127.0.0.1 or localhost on its port, the page included: DNS rebinding', async () => {
    for (const host of ['evil.example:' + opened.port, `127.0.0.1:${opened.port + 1}`, '127.0.0.1', `localhost.evil.example:${opened.port}`]) {
      expect((await raw('/', { host })).status, host).toBe(403);
      expect((await api('/api/graphs', { host })).status, host).toBe(403);
    }
  });

  it('refuses (403) the API without the token or with another, and a page of another origin', async () => {
    expect((await raw('/api/graphs')).status).toBe(403);
    expect((await raw('/api/graph?path=graph.json')).status).toBe(403);
    expect((await raw('/api/graphs', { headers: { Authorization: 'Bearer wrong' } })).status).toBe(403);
    expect((await raw(`/api/graphs?token=${TOKEN}x`)).status).toBe(403);
    expect((await api('/api/graphs', { headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    const listed = await raw(`/api/graphs?token=${TOKEN}`);
    expect(JSON.parse(listed.body)).toEqual({ graphs: [{ path: 'graph.json', name: 'SecurityClaw triage', savedAt: expect.any(Number) }] });
  });

  it('never reaches outside the folder or the app, encoded or not', async () => {
    for (const path of ['../secret.json', '..%2Fsecret.json', '%2e%2e/secret.json', '/etc/passwd', '%2Fetc%2Fpasswd', 'sub%5C..%5C..%5Csecret.json']) {
      const answer = await api(`/api/graph?path=${path}`);
      expect([400, 403, 404], path).toContain(answer.status);
      expect(answer.body).not.toContain('root:');
    }
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2f..%2fetc%2fpasswd', '/assets/..%2f..%2fsecret.txt']) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('not for the page');
    }
    const written = await api('/api/graph?path=..%2Fescape.json', { method: 'PUT', body: text });
    expect(written.status).toBe(403);
  });

  it('reads, writes, creates and deletes graph files through the API', async () => {
    const read = await api('/api/graph?path=graph.json');
    expect(read.body).toBe(text);
    expect(Number(read.headers['x-saved-at'])).toBeGreaterThan(0);
    const edited = serializeGraph({ ...graph, name: 'Edited' });
    expect((await api('/api/graph?path=graph.json', { method: 'PUT', body: edited })).status).toBe(200);
    expect(await readFile(join(root, 'graph.json'), 'utf8')).toBe(edited);
    expect((await api('/api/graph?path=new.json', { method: 'POST', body: text })).status).toBe(201);
    expect((await api('/api/graph?path=new.json', { method: 'POST', body: text })).status).toBe(409);
    expect((await api('/api/graph?path=new.json', { method: 'DELETE' })).status).toBe(200);
    expect((await api('/api/nothing')).status).toBe(404);
  });

  it('answers every request at once when the folder holds a named pipe linked as a graph file (issue 51, #4)', async () => {
    const pipe = join(root, 'pipe');
    execFileSync('mkfifo', [pipe]);
    await symlink('pipe', join(root, 'a.json'));
    try {
      // More lists than Node has I/O threads: a read waiting on the pipe held one each, then the page itself stopped answering.
      const lists = await Promise.all(Array.from({ length: 6 }, () => api('/api/graphs')));
      for (const list of lists) expect(JSON.parse(list.body)).toEqual({ graphs: [{ path: 'graph.json', name: 'SecurityClaw triage', savedAt: expect.any(Number) }] });
      const read = await api('/api/graph?path=a.json');
      expect(read.status).toBe(403);
      expect(JSON.parse(read.body)).toEqual({ error: 'a.json is a named pipe, not a regular file: it is not read' });
      expect((await raw('/')).status).toBe(200);
      expect((await api('/api/graph?path=graph.json')).body).toBe(text);
    } finally {
      // Whatever waits to read the pipe goes on (an old server's reads), so nothing is left blocked.
      await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK).then((handle) => handle.close(), () => undefined);
    }
  }, 10_000);

  it('streams the changes of graph files on disk to the page', async () => {
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${opened.port}/api/events?token=${TOKEN}`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await reader.read();
    await writeFile(join(root, 'graph.json'), serializeGraph({ ...graph, name: 'Changed on disk' }));
    let received = '';
    while (!received.includes('\n\n')) received += (await reader.read()).value ?? '';
    controller.abort();
    expect(received).toMatch(/^event: change\ndata: \{"path":"graph\.json","kind":"changed","savedAt":[\d.]+\}\n\n$/);
  });

  it('takes more routes through the same checks (the seam for other local services)', async () => {
    await opened.stop();
    let stopped = 0;
    opened = await startOpen({ folder: await openFolder(root), port: 0, appDir: app, token: TOKEN, routes: [{ method: 'POST', path: '/api/echo/*', handle: async ({ url, readText, json }) => json(200, { at: url.pathname, body: await readText() }), stop: () => void (stopped += 1) }] });
    expect(JSON.parse((await api('/api/echo/x', { method: 'POST', body: 'hi' })).body)).toEqual({ at: '/api/echo/x', body: 'hi' });
    expect((await raw('/api/echo/x', { method: 'POST', body: 'hi' })).status).toBe(403);
    await opened.stop();
    expect(stopped).toBe(1);
    opened = await startOpen({ folder: await openFolder(root), port: 0, appDir: app, token: TOKEN });
  });

  it('takes the next free port when the one asked for is in use, and says so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(4420, '127.0.0.1', resolve));
    const notes: string[] = [];
    const next = await startOpen({ folder: await openFolder(root), port: 4420, appDir: app, onNote: (line) => notes.push(line) });
    try {
      expect(next.port).toBeGreaterThan(4420);
      expect(notes).toEqual([`port 4420 is in use; serving on ${next.port} instead`]);
      expect(next.token).toMatch(/^[\w-]{32}$/);
    } finally {
      await next.stop();
      blocker.close();
    }
  });

  it('refuses to start when the app is not built', async () => {
    await expect(startOpen({ folder: await openFolder(root), port: 0, appDir: join(app, 'none') })).rejects.toThrow(/the app is not built/);
  });

  it('opens a browser only where there is a desktop', () => {
    expect(hasDesktop({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDesktop({}, 'linux')).toBe(false);
    expect(hasDesktop({ CI: 'true', DISPLAY: ':0' }, 'linux')).toBe(false);
    expect(hasDesktop({}, 'darwin')).toBe(true);
  });
});
