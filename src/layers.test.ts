import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The layers are an allow-list per folder of src/, enforced by `npm run lint` (.oxlintrc.json).
// Each probe is a file in a copy of the tree's layout (outside src/, where other tests read every
// file), linted with the project's own configuration.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OXLINT = join(ROOT, 'node_modules/.bin/oxlint');
const probeRoot = mkdtempSync(join(tmpdir(), 'loopscope-layers-'));
copyFileSync(join(ROOT, '.oxlintrc.json'), join(probeRoot, '.oxlintrc.json'));
let probes = 0;

const writeProbe = (folder: string, source: string, name = `probe${(probes += 1)}.ts`) => {
  mkdirSync(join(probeRoot, 'src', folder), { recursive: true });
  const path = join(probeRoot, 'src', folder, name);
  writeFileSync(path, source);
  return path;
};
const lint = (...args: string[]) => spawnSync(OXLINT, ['--deny-warnings', ...args], { cwd: probeRoot, encoding: 'utf8' });
const lintProbe = (folder: string, source: string, name?: string) => lint(writeProbe(folder, source, name));

afterAll(() => rmSync(probeRoot, { recursive: true, force: true }));

/** What each folder may import: every other folder of src/ is refused, by a static import or by import(). */
const ALLOWED: Record<string, string[]> = {
  graph: [],
  skills: ['graph'],
  runtime: ['graph', 'skills'],
  network: ['graph', 'skills', 'runtime'],
  store: ['graph', 'skills', 'runtime', 'network'],
  persistence: ['graph', 'skills', 'runtime', 'network', 'store'],
  server: ['graph', 'skills', 'runtime', 'network', 'store'],
  hooks: ['graph', 'skills', 'runtime', 'network', 'store', 'persistence'],
  ui: ['graph'],
  editor: ['graph', 'skills', 'store', 'hooks', 'ui'],
  debugger: ['graph', 'skills', 'store', 'hooks', 'ui', 'server'],
  app: ['graph', 'skills', 'runtime', 'network', 'store', 'persistence', 'server', 'hooks', 'ui', 'editor', 'debugger'],
  cli: ['graph', 'skills', 'runtime'],
};
const FOLDERS = Object.keys(ALLOWED);

describe('import layers', () => {
  it('each folder may import the folders of its allow-list and no other, statically or with import()', () => {
    const expected: string[] = [];
    const paths: string[] = [];
    for (const from of FOLDERS) {
      for (const to of FOLDERS.filter((folder) => folder !== from)) {
        const allowed = ALLOWED[from].includes(to);
        paths.push(writeProbe(from, `import '../${to}/index.ts';\n`, `static-${to}.ts`));
        paths.push(writeProbe(from, `export const later = () => import('../${to}/index.ts');\n`, `dynamic-${to}.ts`));
        if (!allowed) expected.push(`src/${from}/static-${to}.ts`, `src/${from}/dynamic-${to}.ts`);
      }
    }
    const refused = new Set([...lint('--format', 'unix', ...paths).stdout.matchAll(/^(src\/[^:]+):\d+:\d+: /gm)].map((match) => match[1]));
    expect([...refused].sort()).toEqual(expected.sort());
  });

  it.each([
    ['ui', "import '../store/index.ts';", 'src/ui/ may import from src/graph/ only'],
    ['ui', "export const later = () => import('../editor/index.ts');", 'src/ui/ may import from src/graph/ only'],
    ['graph', "import '../store/index.ts';", 'src/graph/ may import from no other folder of src/'],
    ['editor', "import { useLibrary } from '../persistence/libraryActions.ts';", "it reaches src/persistence/, src/network/ and src/runtime/ through the store's actions or src/hooks/"],
    ['debugger', "import { useHostRequest } from '../network/hosts.ts';", "it reaches src/persistence/, src/network/ and src/runtime/ through the store's actions or src/hooks/"],
    ['debugger', "export const later = () => import('../runtime/index.ts');", "src/debugger/ reaches src/runtime/ through the store's actions or src/hooks/"],
    ['editor/inspector', "import { runGraph } from '../../runtime/index.ts';", "src/editor/ reaches src/runtime/ through the store's actions or src/hooks/"],
    ['store', "import '../persistence/persistence.ts';", 'src/store/ may import from src/graph/, src/skills/, src/runtime/ and src/network/ only'],
    ['cli', "import '../store/index.ts';", 'src/cli/ may import from src/graph/, src/skills/ and src/runtime/ only'],
  ])('an import from src/%s outside its allow-list fails the lint, saying what it may import: %s', (folder, source, message) => {
    const result = lintProbe(folder, source);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain(message);
  });

  it("the editor and the debugger may import runtime's types and the readers of a run's record allowed by name, and their tests may run a graph", () => {
    const reads = lintProbe('debugger/server', "import type { Trace } from '../../runtime/trace.ts';\nimport { type RunController } from '../../runtime/controller.ts';\nimport { traceIndex } from '../../runtime/traceIndex.ts';\nexport type { Trace, RunController };\nexport { traceIndex };");
    expect(reads.stdout).toContain('0 errors');
    const test = lintProbe('editor', "import { runGraph } from '../runtime/index.ts';\nimport { getKey } from '../network/secrets.ts';\nexport { runGraph, getKey };", 'probe.test.tsx');
    expect(test.stdout).toContain('0 errors');
    expect([reads.status, test.status]).toEqual([0, 0]);
  });

  it("the debugger reads a canvas node through React Flow's instance, not its internal node lookup", () => {
    const result = lintProbe('debugger', 'export const nodeOf = (state: { nodeLookup: Map<string, unknown> }, id: string) => state.nodeLookup.get(id);');
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('getInternalNode');
  });

  it('a package path that names a server or hooks is no layer', () => {
    const result = lintProbe('skills', "import '@modelcontextprotocol/sdk/server/index.js';\nimport 'some-package/hooks/index.js';");
    expect(result.stdout).toContain('0 errors');
    expect(result.status).toBe(0);
  });
});
