import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The layers (graph <- skills <- runtime <- network <- store <- persistence <- ui <- editor / debugger <- app, and
// store <- server <- debugger; the command line on graph, skills and runtime) are enforced by `npm run lint` (.oxlintrc.json). Each probe is a file
// in a copy of the tree's layout (outside src/, where other tests read every file), linted with the
// project's own configuration.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OXLINT = join(ROOT, 'node_modules/.bin/oxlint');
const probeRoot = mkdtempSync(join(tmpdir(), 'loopscope-layers-'));
copyFileSync(join(ROOT, '.oxlintrc.json'), join(probeRoot, '.oxlintrc.json'));
let probes = 0;

const lintProbe = (folder: string, source: string) => {
  mkdirSync(join(probeRoot, 'src', folder), { recursive: true });
  const path = join(probeRoot, 'src', folder, `probe${(probes += 1)}.ts`);
  writeFileSync(path, source);
  return spawnSync(OXLINT, ['--deny-warnings', path], { cwd: probeRoot, encoding: 'utf8' });
};

afterAll(() => rmSync(probeRoot, { recursive: true, force: true }));

describe('import layers', () => {
  it.each([
    ['graph', "import '../store/index.ts';", 'src/graph/ may not import from src/store/'],
    ['graph', "export const later = () => import('../runtime/index.ts');", 'src/graph/ may not import from src/runtime/'],
    ['runtime', "import '../store/index.ts';", 'src/runtime/ may not import from src/store/'],
    ['store', "import '../persistence/persistence.ts';", 'src/store/ may not import from src/persistence/'],
    ['network', "import '../store/index.ts';", 'src/network/ may not import from src/store/'],
    ['runtime', "export const later = () => import('../network/hosts.ts');", 'src/runtime/ may not import from src/network/'],
    ['store', "export const later = () => import('../persistence/runSessions.ts');", 'src/store/ may not import from src/persistence/'],
    ['persistence', "import '../ui/index.ts';", 'src/persistence/ may not import from src/ui/'],
    ['store', "export const later = () => import('../server/langgraphServer.ts');", 'src/store/ may not import from src/server/'],
    ['runtime', "import '../server/langgraphServer.ts';", 'src/runtime/ may not import from src/server/'],
    ['server', "import '../debugger/index.ts';", 'src/server/ may not import from src/debugger/'],
    ['cli', "import '../store/index.ts';", 'src/cli/ may not import from src/store/'],
    ['debugger', "import '../editor/index.ts';", 'src/debugger/ may not import from src/editor/'],
  ])('an import from src/%s against the layers fails the lint: %s', (folder, source, message) => {
    const result = lintProbe(folder, source);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain(message);
  });

  it('an import along the layers passes', () => {
    const result = lintProbe('store', "import '../graph/index.ts';\nimport '../runtime/index.ts';\nimport '../network/hosts.ts';");
    expect(result.stdout).toContain('0 errors');
    expect(result.status).toBe(0);
  });

  it('the debugger may use the edge routing it shares with the editor (src/ui)', () => {
    const result = lintProbe('debugger', "import '../ui/edgeRouting.ts';\nimport '../ui/labelPlacement.ts';\nimport '../ui/edgeGeometry.ts';");
    expect(result.stdout).toContain('0 errors');
    expect(result.status).toBe(0);
  });

  it('persistence may import the store and the layers below it', () => {
    const result = lintProbe('persistence', "import '../store/index.ts';\nimport '../graph/index.ts';\nexport const later = () => import('../runtime/index.ts');");
    expect(result.stdout).toContain('0 errors');
    expect(result.status).toBe(0);
  });

  it('the server layer may use the store, and a package path that names a server is no layer', () => {
    const server = lintProbe('server', "import '../store/index.ts';\nimport '../runtime/index.ts';");
    expect(server.stdout).toContain('0 errors');
    const skills = lintProbe('skills', "import '@modelcontextprotocol/sdk/server/index.js';");
    expect(skills.stdout).toContain('0 errors');
    expect([server.status, skills.status]).toEqual([0, 0]);
  });
});
