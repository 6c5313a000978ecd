import { randomBytes } from 'node:crypto';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { graphSchemaStamp } from './scripts/graphSchemaStamp.ts';
import { immutableAssets } from './scripts/immutableAssets.ts';
import { noAjv } from './scripts/noAjv.ts';

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
/**
 * What the first script runs before the page's entry has loaded: its own modules, and the reader of
 * the save it imports (src/persistence/ownSave.ts) with what that imports, and Vite's helper for dynamic
 * imports. They go into one chunk of their own ('early': in two, 0.4 KB gzip larger); every other
 * module of the first screen goes into one chunk ('app'): in a dozen chunks shared with later ones,
 * the first screen's code was 5 KB gzip larger.
 */
const EARLY_MODULES = [FIRST_SCRIPT, 'src/persistence/earlyRead.ts', 'src/persistence/libraryDb.ts', 'src/persistence/ownSave.ts', 'src/graph/untrusted.ts', 'src/graph/common.ts', 'src/graph/limits.ts', 'src/graph/problems.ts'];
/**
 * What the runtime's MCP skill and the page's MCP connector share (the skill, its schema validator,
 * and the graph's skill schemas it reads) goes into one chunk that loads after the first screen:
 * split as rolldown would, each is a chunk of its own, and every chunk's name is in the first
 * screen's map of what loads later (0.03 KB gzip a name).
 */
const MCP_SHARED = ['src/skills/mcp.ts', 'node_modules/@cfworker/json-schema/'];
/**
 * zod as the app's schemas use it (zod/mini, its core and locales) stays in one chunk with the
 * module that configures it (./src/graph/zod.ts): the MCP SDK's client uses some of it too, and
 * rolldown would split what they share into chunks of their own.
 */
const ZOD = /src\/graph\/(zod|skills)\.ts$|node_modules\/zod\/(v4\/(core|mini|locales)|mini|v4-mini)\//;
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
        const chunks = Object.values(context.bundle ?? {}).filter((output) => output.type === 'chunk');
        const reader = chunks.find((output) => output.moduleIds.some((id) => id.endsWith('src/persistence/ownSave.ts')));
        const page = chunks.find((output) => output.moduleIds.some((id) => id.endsWith('src/app/main.tsx')));
        if (reader && page && (reader === page || reader.imports.includes(page.fileName)))
          throw new Error('the first script\'s save reader (src/persistence/ownSave.ts) would wait for the whole page: add what it imports to EARLY_MODULES');
        const src = chunk ? `${base}${chunk.fileName}` : `/${FIRST_SCRIPT}`;
        const byName = new Map(chunks.map((output) => [output.fileName, output]));
        /** The chunks these load statically, and what those load, and so on. */
        const loadedWith = (names: readonly string[], loaded = new Set<string>()): Set<string> => {
          for (const name of names) {
            if (loaded.has(name)) continue;
            loaded.add(name);
            loadedWith(byName.get(name)?.imports ?? [], loaded);
          }
          return loaded;
        };
        // The first screen draws without zod: the schemas load behind a dynamic import() where something is parsed or checked.
        const zodFirst = [...loadedWith([chunk?.fileName, page?.fileName].filter((name) => name !== undefined))].find((name) => byName.get(name)?.moduleIds.some((id) => ZOD.test(id)));
        if (zodFirst) throw new Error(`the page's first screen would load zod (${zodFirst}): import the schemas (src/graph/zod.ts and what imports it) behind a dynamic import()`);
        // What it imports, and what that imports, is asked for with it, not once it has arrived.
        const imported = loadedWith(chunk?.type === 'chunk' ? chunk.imports : []);
        const preloads = [...imported].map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`);
        const tag = [`<script type="module" async crossorigin src="${src}"></script>`, ...preloads].join('\n    ');
        // Listed once, with the first script.
        const rest = preloads.reduce((text, preload) => text.replace(preload, ''), html);
        const firstScript = rest.indexOf('<script');
        if (firstScript < 0) throw new Error('the page has no script to put its first script before');
        return `${rest.slice(0, firstScript)}${tag}\n    ${rest.slice(firstScript)}`;
      },
    },
  };
};

export default defineConfig(({ command }) => {
  // The dev server injects React's refresh preamble inline; a nonce made at each start lets only that run.
  const devNonce = randomBytes(18).toString('base64');
  return {
    plugins: [react(), metaPolicy(), firstScript(), immutableAssets(), noAjv()],
    define: { __GRAPH_SCHEMA__: JSON.stringify(graphSchemaStamp(import.meta.dirname)) },
    build: {
      chunkSizeWarningLimit: 1500,
      // No polyfill for `modulepreload`: a browser without it (Safari before 17) still loads every
      // module, a little later; the polyfill was 0.4 KB of the first script that all others run for nothing.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: { index: 'index.html', first: FIRST_SCRIPT },
        // Each of lucide's icon modules makes its component as it loads (createLucideIcon, which
        // only makes a new component): said pure, the component goes when nothing uses it, and
        // lucide's React code with it. The first screen takes the drawings alone (ui/canvasIcons.tsx).
        // React Flow makes each of its components with memo() as its module loads: said pure, those
        // the page never draws go (its NodeResizer and what only that uses: 2.6 KB gzip of the first screen).
        treeshake: { manualPureFunctions: ['createLucideIcon', 'memo'] },
        output: { codeSplitting: { groups: [{ name: 'early', test: (id: string) => id.includes('vite/preload-helper') || EARLY_MODULES.some((module) => module !== FIRST_SCRIPT && id.endsWith(module)) }, { name: 'app', tags: ['$initial'], test: (id: string) => !id.includes('vite/preload-helper') && !EARLY_MODULES.some((module) => id.endsWith(module)), includeDependenciesRecursively: false }, { name: 'mcp', test: (id: string) => MCP_SHARED.some((module) => id.includes(module)) }, { name: 'zod', test: (id: string) => ZOD.test(id) }] } },
      },
    },
    html: command === 'serve' ? { cspNonce: devNonce } : undefined,
    server: { headers: securityHeaders(policy({ scriptSources: [`'nonce-${devNonce}'`], connectSources: ['ws:', 'wss:'] })) },
    preview: { headers: securityHeaders(policy()) },
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
      setupFiles: ['src/testSetup.ts'],
      environment: 'node',
      // A budget, not a wait: some tests parse megabytes of hostile input, and the machine may be busy.
      testTimeout: 30_000,
      // One test file per core: vitest's default (cores - 1) leaves one of CI's two cores idle while
      // the other's file waits on the processes it started (npm, tsc, the LangGraph and MCP servers).
      maxWorkers: '100%',
    },
  };
});
