#!/usr/bin/env node
// Builds the app into a folder (vite build) and the command line into build/ (scripts/buildCli.ts),
// each only when it is missing or older than a file it is built from, as make does: `npm test`
// then builds each once. Without it, CI built the command line three times (npm ci's `prepare`,
// `npm pack` in src/cli/pack.test.ts, scripts/e2e.mjs) and the app twice (`npm pack`, e2e.mjs):
// over a minute of a 2-core machine's run. E2E_REBUILD=1 builds both whatever the times say.
//   node scripts/buildFresh.mjs [outDir]      (outDir: dist when not given)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What each build reads: the sources (not their tests), its configuration and the installed packages' versions. */
const APP_INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const CLI_INPUTS = ['src', 'scripts/buildCli.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

/** The newest modification time of the files under `path` (0 when there is none), tests left out. */
const newest = (path) => {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};

/** Whether `output` exists and was written after every file of `inputs` changed. */
const fresh = (output, inputs) => {
  if (process.env.E2E_REBUILD === '1') return false;
  const written = newest(join(root, output));
  return written > 0 && written > Math.max(...inputs.map((input) => newest(join(root, input))));
};

// The production build whoever asks for it: vitest (src/cli/pack.test.ts) sets NODE_ENV=test, with
// which vite would bundle React's development build.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && !key.startsWith('VITEST')));

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

/** Builds what is not fresh; the first failing build's exit code, or 0. */
export const buildFresh = (outDir = 'dist') => {
  if (fresh(join(outDir, 'index.html'), APP_INPUTS)) console.log(`build: ${outDir} is newer than its sources, not built again`);
  else {
    const built = run(join(root, 'node_modules', '.bin', 'vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn']);
    if (built !== 0) return built;
  }
  if (fresh('build/cli/main.js', CLI_INPUTS)) console.log('build: build/ (the command line) is newer than its sources, not built again');
  else {
    const built = run(process.execPath, ['--import', 'tsx', 'scripts/buildCli.ts']);
    if (built !== 0) return built;
  }
  return 0;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(buildFresh(process.argv[2]));
