#!/usr/bin/env node
// Builds the app and runs the Playwright journeys against its production preview.
//   E2E_PORT=4305 E2E_OUT=.e2e-me node scripts/e2e.mjs e2e/smoke.spec.ts
// Arguments after the script go to `playwright test` unchanged. Each concurrent run needs its
// own E2E_PORT and E2E_OUT, so that builds and preview servers do not collide.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFresh } from './buildFresh.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const INSTALL_HINT = 'apt-get update && apt-get install -y chromium';
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || null;

const findChromium = () => {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return isExecutable(chosen) ? chosen : null;
  return CANDIDATES.find(isExecutable) ?? onPath('chromium') ?? onPath('chromium-browser');
};

const run = (command, args, env = process.env) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

const installChromium = () => {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) return false;
  console.log(`e2e: Chromium not found; installing it (${INSTALL_HINT})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return run('apt-get', ['update'], env) === 0 && run('apt-get', ['install', '-y', 'chromium'], env) === 0;
};

let chromium = findChromium();
if (!chromium && !process.env.CHROMIUM_PATH && installChromium()) chromium = findChromium();
if (!chromium) {
  const given = process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable. ` : '';
  console.error(`e2e: no Chromium found. ${given}Install Debian's chromium (as root: ${INSTALL_HINT}) or set CHROMIUM_PATH to a Chromium binary.`);
  process.exit(1);
}

const port = process.env.E2E_PORT ?? '4173';
const outDir = process.env.E2E_OUT ?? 'dist';
if (!/^\d+$/.test(port)) {
  console.error(`e2e: E2E_PORT must be a port number, got "${port}"`);
  process.exit(1);
}

console.log(`e2e: building into ${outDir}, preview on port ${port}, Chromium ${chromium}`);
// Journeys run the command line too (loopscope open, serve, run): both built from these sources,
// unless a build made since they last changed is there (src/cli/pack.test.ts's, in `npm test`).
const built = buildFresh(outDir);
if (built !== 0) process.exit(built);

const env = { ...process.env, E2E_PORT: port, E2E_OUT: outDir, CHROMIUM_PATH: chromium };
process.exit(run(bin('playwright'), ['test', ...process.argv.slice(2)], env));
