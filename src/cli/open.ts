/**
 * `loopscope open [PATH]`: the app, served on 127.0.0.1, editing the graph files of one folder
 * (folder.ts). Every request must name this server as its `Host` (`127.0.0.1:PORT` or
 * `localhost:PORT`), the page included, so a DNS-rebinding site that resolves its own name to
 * 127.0.0.1 gets nothing; every request of the API must also carry the token made at start, which
 * only the URL printed in the terminal holds, so no other page the person visits can read or
 * write their files. The API is a table of routes (`ROUTES`); more are added through
 * `OpenOptions.routes` (docs/open.md).
 */
import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../graph/limits.ts';
import { FolderError, type FileChange, type Folder } from './folder.ts';

export const HOST = '127.0.0.1';
/** The port tried first: a fixed one keeps the page's origin, and with it the runs kept in the browser, from one start to the next. */
export const DEFAULT_PORT = 5290;
/** How many ports after the asked one are tried when it is taken. */
const PORTS_TRIED = 20;
/** The built app, beside the command line in the package (`dist/`); LOOPSCOPE_APP_DIR names another build. */
export const appDirectory = (env: NodeJS.ProcessEnv = process.env) => env.LOOPSCOPE_APP_DIR ?? fileURLToPath(new URL('../../dist/', import.meta.url));
/** A body bigger than this is refused: a graph's text at the import limit, in UTF-8's widest form. */
const MAX_BODY_BYTES = LIMITS.textChars * 4;
/** A comment on every event stream this often, so nothing between closes an idle one. */
const KEEP_ALIVE_MS = 25_000;

const SECURITY_HEADERS = {
  // The page carries the rest of its policy in a <meta> tag; framing can only be refused by a header.
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** The page's event stream: every open tab gets each change of the folder's graph files. */
export interface EventHub {
  send: (event: string, data: unknown) => void;
  /** Takes a response over as an event stream until the client goes. */
  attach: (request: IncomingMessage, response: ServerResponse) => void;
  close: () => void;
}

const eventHub = (): EventHub => {
  const clients = new Set<ServerResponse>();
  const keepAlive = setInterval(() => {
    for (const client of clients) client.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  return {
    send: (event, data) => {
      const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const client of clients) client.write(text);
    },
    attach: (request, response) => {
      response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(': connected\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
    },
    close: () => {
      clearInterval(keepAlive);
      for (const client of clients) client.end();
      clients.clear();
    },
  };
};

/** What a route is given: the request, its query, the folder, the event stream, and ways to answer. */
export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  folder: Folder;
  events: EventHub;
  /** The request's body as text, refused (413) past `limit` bytes. */
  readText: (limit?: number) => Promise<string>;
  /** Answers with JSON. */
  json: (status: number, value: unknown) => void;
}

/**
 * One route of the API: `path` is the URL's path exactly, or a prefix when it ends in `/*`. Every
 * route is reached only with the right Host and the token; its handler answers through the context
 * (a thrown FolderError becomes its status and message).
 */
export interface Route {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  handle: (context: RouteContext) => Promise<void> | void;
  /** Called when `open` stops: a route that started something (a process) stops it here. */
  stop?: () => Promise<void> | void;
}

const pathOf = (url: URL) => url.searchParams.get('path') ?? '';
/** The page a write is for, as it names itself (`by`): the change on disk it makes comes back tagged with it (fileSync.ts). */
const writerOf = (url: URL) => {
  const by = url.searchParams.get('by');
  return by && by.length <= 64 ? { by } : {};
};

/** The folder's graph files: list, read, write, create, delete, and the stream of their changes. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/info', handle: ({ folder, json }) => json(200, { folder: folder.root }) },
  { method: 'GET', path: '/api/graphs', handle: async ({ folder, json }) => json(200, { graphs: await folder.list() }) },
  {
    method: 'GET',
    path: '/api/graph',
    handle: async ({ folder, url, response }) => {
      const { text, savedAt, problem } = await folder.read(pathOf(url));
      // A file that is not a valid graph comes with its problem (encoded: a header is ASCII), for the page to show it read-only.
      const said = problem === undefined ? {} : { 'X-Problem': encodeURIComponent(problem) };
      response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Saved-At': String(savedAt), ...said });
      response.end(text);
    },
  },
  {
    method: 'PUT',
    path: '/api/graph',
    handle: async ({ folder, url, readText, json }) => json(200, await folder.write(pathOf(url), await readText(), writerOf(url))),
  },
  {
    method: 'POST',
    path: '/api/graph',
    handle: async ({ folder, url, readText, json }) => json(201, await folder.write(pathOf(url), await readText(), { create: true, ...writerOf(url) })),
  },
  {
    method: 'DELETE',
    path: '/api/graph',
    handle: async ({ folder, url, json }) => {
      await folder.remove(pathOf(url));
      json(200, { removed: pathOf(url) });
    },
  },
  { method: 'GET', path: '/api/events', handle: ({ events, request, response }) => events.attach(request, response) },
];

const matches = (route: Route, method: string, path: string) =>
  route.method === method && (route.path.endsWith('/*') ? path.startsWith(route.path.slice(0, -1)) : route.path === path);

const sameText = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The token a request carries: `Authorization: Bearer …` (fetch) or `?token=` (EventSource, which sends no headers). */
const tokenOf = (request: IncomingMessage, url: URL) => {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length);
  return url.searchParams.get('token') ?? '';
};

const readBody = (request: IncomingMessage, limit: number) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new FolderError(413, `the body is larger than ${limit} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

export interface OpenOptions {
  folder: Folder;
  /** The port asked for; the next free one after it when it is taken. */
  port?: number;
  /** Where the built app is (its index.html). */
  appDir?: string;
  /** Routes added to the API (docs/open.md: how the page reaches more of the person's machine). */
  routes?: readonly Route[];
  /** The token; made here when not given (tests give their own). */
  token?: string;
  /** Said when the port asked for was taken. */
  onNote?: (line: string) => void;
}

export interface Opened {
  /** The address to open, token included. */
  url: string;
  port: number;
  token: string;
  server: Server;
  stop: () => Promise<void>;
}

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(port, HOST, () => {
      server.off('error', failed);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });

/** Serves the app and the folder's API; refuses when the app is not built. */
export const startOpen = async ({ folder, port: asked = DEFAULT_PORT, appDir = appDirectory(), routes = [], token = randomBytes(24).toString('base64url'), onNote }: OpenOptions): Promise<Opened> => {
  const app = normalize(appDir);
  try {
    await stat(join(app, 'index.html'));
  } catch {
    throw new FolderError(404, `the app is not built (no ${join(app, 'index.html')}): run \`npm run build\` in Loopscope's folder`);
  }
  const table = [...ROUTES, ...routes];
  const events = eventHub();
  let port = asked;

  const serveFile = async (response: ServerResponse, pathname: string) => {
    let relativePath: string;
    try {
      relativePath = decodeURIComponent(pathname);
    } catch {
      relativePath = '';
    }
    if (relativePath === '/' || relativePath === '') relativePath = '/index.html';
    const file = normalize(join(app, relativePath));
    const type = TYPES[extname(file)];
    if (!file.startsWith(app.endsWith(sep) ? app : app + sep) || relativePath.includes('\0') || !type) {
      response.writeHead(404, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      response.writeHead(404, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    // Built assets carry their content's hash in their names.
    const cache = relativePath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': cache }).end(body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refuse = (status: number, message: string) => {
      if (!response.headersSent) response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(JSON.stringify({ error: message }));
    };
    // Another name for this machine (a rebinding site's) gets nothing, the page included.
    const host = (request.headers.host ?? '').toLowerCase();
    if (host !== `${HOST}:${port}` && host !== `localhost:${port}`) return refuse(403, 'this server answers only to 127.0.0.1 and localhost on its own port');
    const url = new URL(request.url ?? '/', `http://${HOST}:${port}`);
    if (!url.pathname.startsWith('/api/')) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'the app is read with GET');
      return serveFile(response, url.pathname);
    }
    if (!sameText(tokenOf(request, url), token)) return refuse(403, 'the token is missing or wrong: open the address `loopscope open` printed');
    // A page of another origin never gets here without the token; this says so plainly to one that tries.
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${HOST}:${port}` && origin !== `http://localhost:${port}`) return refuse(403, `requests from ${origin} are refused`);
    const route = table.find((candidate) => matches(candidate, request.method ?? '', url.pathname));
    if (!route) return refuse(table.some((candidate) => matches(candidate, candidate.method, url.pathname)) ? 405 : 404, `no ${request.method} ${url.pathname}`);
    try {
      await route.handle({
        request, response, url, folder, events,
        readText: (limit = MAX_BODY_BYTES) => readBody(request, limit),
        json: (status, value) => {
          response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
          response.end(JSON.stringify(value));
        },
      });
    } catch (error) {
      if (error instanceof FolderError) return refuse(error.status, error.message);
      return refuse(500, error instanceof Error ? error.message : String(error));
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  for (let attempt = 0; ; attempt += 1) {
    try {
      port = await listen(server, asked === 0 ? 0 : asked + attempt);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || asked === 0 || attempt + 1 >= PORTS_TRIED) throw error;
    }
  }
  if (asked !== 0 && port !== asked) onNote?.(`port ${asked} is in use; serving on ${port} instead`);

  const stopWatching = await folder.watch((change: FileChange) => events.send('change', change), {
    onError: (error) => onNote?.(`watching the folder failed (${error.message}); changes made on disk show when a graph is opened again`),
  });
  const stop = async () => {
    for (const route of table) await route.stop?.();
    await stopWatching();
    events.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://${HOST}:${port}/#token=${token}`, port, token, server, stop };
};

/** Where a person can see a browser: not in CI, not on a Linux machine with no display. */
export const hasDesktop = (env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform) =>
  !env.CI && (platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY));

/** Opens the address in the person's browser; a failure only means they open it themselves. */
export const openBrowser = (url: string, platform: NodeJS.Platform = process.platform) => {
  const [command, args] = platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed: the person opens it.
  }
};
