/**
 * `npm run size`: the first screen's JavaScript, gzipped, against its budget. It builds the app
 * with Vite into dist/ (or reads a build made already) and fails when the entry scripts and
 * modulepreloads of index.html weigh more than the budget, printing the figure and each of those
 * files, biggest first. The bench's `initial.js` row measures the same (bench/initialJs.ts).
 *
 *   npm run size                        build into dist/, then check it
 *   npm run size -- --built .e2e-me     check a build made already (`npm test` checks the e2e's)
 *   npm run size -- --limit 140         another budget, in KB (to see the check fail)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { initialJsFiles, initialJsGzipKb } from '../bench/initialJs.ts';

/** The brief's budget for the first screen: anything new on it must be paid for. */
const BUDGET_KB = 150;

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { built: { type: 'string' }, limit: { type: 'string' } } });
const limit = values.limit === undefined ? BUDGET_KB : Number(values.limit);
if (!(limit > 0)) {
  console.error(`size: --limit must be a number of KB, got "${values.limit}"`);
  process.exit(2);
}

let dir = join(root, 'dist');
if (values.built === undefined) {
  const built = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
} else dir = resolve(root, values.built);
if (!existsSync(join(dir, 'index.html'))) {
  console.error(`size: ${dir} holds no built index.html: build it (npm run build) or leave out --built`);
  process.exit(2);
}

const total = initialJsGzipKb(dir, 'index.html');
const kb = (value: number) => `${value.toFixed(2)} KB`;
const over = total > limit;
console.log(`size: initial JS ${kb(total)} gzip, budget ${kb(limit)}${over ? `: ${kb(total - limit)} over` : ''}`);
for (const { file, gzipKb } of initialJsFiles(dir, 'index.html')) console.log(`  ${kb(gzipKb).padStart(10)}  ${file}`);
if (over) {
  console.error('size: the first screen loads too much JavaScript. Put what is new behind React.lazy at a panel edge, or pay for it elsewhere (docs/performance.md).');
  process.exit(1);
}
