/**
 * Builds the command line into build/ (run by `prepare`, so by `npm ci` and `npm pack`): Node runs
 * plain JavaScript at each start instead of compiling TypeScript (tsx took 1-2 s of every
 * `loopscope run`). build/cli/ is src/cli/main.ts and what it imports, bundled, with the commands
 * that are loaded on use (the runtime, export, serve, open) in chunks of their own; the packages it
 * uses stay imports (the package's dependencies). build/modules/ holds the modules that `loopscope
 * export` writes into a LangGraph project (its runtime, its server's request check), made here
 * because a package has no sources.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLES, bundleOptions, PREBUILT_MODULES } from '../src/cli/export.ts';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build');

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, 'src/cli/main.ts') },
  outdir: join(out, 'cli'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  legalComments: 'none',
  // The built command line reads the modules made below instead of bundling them (src/cli/export.ts).
  define: { __LOOPSCOPE_BUILT__: 'true' },
  logLevel: 'warning',
});
for (const [path, source] of Object.entries(BUNDLES)) {
  const file = join(out, PREBUILT_MODULES, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, (await build({ ...bundleOptions(root, source), write: false, logLevel: 'warning' })).outputFiles[0].text);
}
console.log('built the command line into build/');
