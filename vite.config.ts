import { randomBytes } from 'node:crypto';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { graphSchemaStamp } from './scripts/graphSchemaStamp.ts';
import { immutableAssets } from './scripts/immutableAssets.ts';

/**
 * The page's Content Security Policy: scripts only from this origin (nothing inline, no eval;
 * zod runs jitless), no framing. Skills may call any http(s) service a graph names, so
 * `connect-src` stays open to those; which hosts a run contacts is asked before it runs.
 * Styles allow inline because React Flow positions nodes with style attributes.
 */
const policy = ({ scriptSources = [] as string[], connectSources = [] as string[], framing = true } = {}) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self' http: https:", ...connectSources].join(' '),
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    // Browsers ignore frame-ancestors in a <meta> tag (and say so in the console): headers only.
    ...(framing ? ["frame-ancestors 'none'"] : []),
  ].join('; ');

const securityHeaders = (csp: string) => ({
  'Content-Security-Policy': csp,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
});

/** The built page carries its policy itself, for hosts that send no headers. */
const metaPolicy = (): Plugin => ({
  name: 'loopscope-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: policy({ framing: false }) }, injectTo: 'head-prepend' },
    { tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' }, injectTo: 'head-prepend' },
  ],
});

/**
 * The page's first script (src/app/first.ts) as a script of its own, `async` so that it runs as
 * soon as it has loaded: Vite bundles the page's module scripts into one entry, which runs only
 * once all of the page's scripts have loaded. It goes before the page's other scripts (after the
 * policy), so that it is fetched first.
 */
const FIRST_SCRIPT = 'src/app/first.ts';
const firstScript = (): Plugin => {
  let base = '/';
  return {
    name: 'loopscope-first-script',
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => {
        const chunk = context.bundle && Object.values(context.bundle).find((output) => output.type === 'chunk' && output.isEntry && output.facadeModuleId?.endsWith(FIRST_SCRIPT));
        if (context.bundle && !chunk) throw new Error(`the build has no entry for ${FIRST_SCRIPT}`);
        const src = chunk ? `${base}${chunk.fileName}` : `/${FIRST_SCRIPT}`;
        // What it imports is asked for with it, not once it has arrived.
        const preloads = (chunk?.type === 'chunk' ? chunk.imports : []).map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`);
        const tag = [`<script type="module" async crossorigin src="${src}"></script>`, ...preloads].join('\n    ');
        // Listed once, with the first script.
        const page = preloads.reduce((text, preload) => text.replace(preload, ''), html);
        const firstScript = page.indexOf('<script');
        if (firstScript < 0) throw new Error('the page has no script to put its first script before');
        return `${page.slice(0, firstScript)}${tag}\n    ${page.slice(firstScript)}`;
      },
    },
  };
};

export default defineConfig(({ command }) => {
  // The dev server injects React's refresh preamble inline; a nonce made at each start lets only that run.
  const devNonce = randomBytes(18).toString('base64');
  return {
    plugins: [react(), metaPolicy(), firstScript(), immutableAssets()],
    define: { __GRAPH_SCHEMA__: JSON.stringify(graphSchemaStamp(import.meta.dirname)) },
    build: { chunkSizeWarningLimit: 1500, rolldownOptions: { input: { index: 'index.html', first: FIRST_SCRIPT } } },
    html: command === 'serve' ? { cspNonce: devNonce } : undefined,
    server: { headers: securityHeaders(policy({ scriptSources: [`'nonce-${devNonce}'`], connectSources: ['ws:', 'wss:'] })) },
    preview: { headers: securityHeaders(policy()) },
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
      // Node's entries provide zod to the graph layer's schemas (src/graph/lazySchema.ts); so do the tests.
      setupFiles: ['src/graph/zodProvided.ts'],
      environment: 'node',
      // A budget, not a wait: some tests parse megabytes of hostile input, and the machine may be busy.
      testTimeout: 30_000,
    },
  };
});
