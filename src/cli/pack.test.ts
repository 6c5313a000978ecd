/**
 * The package as a person installs it: `npm pack` (with the app and the command line built as its
 * prepack and prepare scripts build them), then `npm install ./loopscope-X.tgz` into an empty
 * folder, and the commands run there from the built files alone. The install leaves the optional LangGraph dev server out (`--omit=optional`,
 * as a CI that only tests does): fast, and `serve` then says what is missing. npm takes the
 * packages from its cache where it has them.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
let work: string;
let project: string;

/** `npx loopscope …` in the project; its output and exit code. */
const loopscope = (...args: string[]) =>
  run('npx', ['--no', 'loopscope', ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'loopscope-pack-'));
  project = join(work, 'project');
  // What `npm pack`'s prepack and prepare scripts build (the app into dist/, the command line into
  // build/), built only if older than the sources: `npm test`'s journeys then use this dist/ as it is.
  await run(process.execPath, ['scripts/buildFresh.mjs', 'dist'], { cwd: root, maxBuffer: 50_000_000 });
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], { cwd: root, maxBuffer: 50_000_000 });
  const [tarball] = (await readdir(work)).filter((name) => name.endsWith('.tgz'));
  await mkdir(join(project, 'graphs'), { recursive: true });
  await cp(join(root, 'src/graph/templates/securityclaw.json'), join(project, 'graphs', 'triage.json'));
  await writeFile(join(project, 'package.json'), '{ "name": "a-project", "private": true }\n');
  await run('npm', ['install', join(work, tarball), '--prefer-offline', '--omit=optional', '--no-audit', '--no-fund'], { cwd: project });
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the package, installed into another folder', () => {
  it('carries the built command line and the built app, and none of the sources or the development setup', async () => {
    const installed = join(project, 'node_modules', 'loopscope');
    const top = await readdir(installed);
    expect(top.sort()).toEqual(['README.md', 'bin', 'build', 'dist', 'docs', 'package.json']);
    expect(await readdir(join(installed, 'dist'))).toContain('index.html');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).not.toContain('react');
    // What the pack above built in their place (scripts/buildFresh.mjs): were they to do more, it would have to too.
    expect(manifest.scripts).toMatchObject({ prepack: 'npm run build', build: 'vite build', prepare: 'npm run build:cli', 'build:cli': 'node --import tsx scripts/buildCli.ts' });
    // Nothing to compile at start: no TypeScript runner, no bundler installed with it.
    expect(await readdir(join(project, 'node_modules'))).not.toEqual(expect.arrayContaining(['tsx', 'esbuild', 'vite', 'react']));
  });

  it('validates, runs, tests and exports there', async () => {
    expect(await loopscope('validate', 'graphs/triage.json')).toMatchObject({ code: 0, stdout: 'graphs/triage.json: valid\n' });
    const ran = await loopscope('run', 'graphs/triage.json');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^SecurityClaw triage — seed 1\n/);
    const tested = await loopscope('test', 'graphs', '--reporter', 'junit');
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain('<testsuites');
    const exported = await loopscope('export', 'graphs/triage.json', '--langgraph', 'exported');
    expect(exported.code).toBe(0);
    expect(await readFile(join(project, 'exported', 'src', 'loopscope-runtime.js'), 'utf8')).toContain('bundled by `loopscope export`');
    // The dev server was left out of this install: serve says how to have it.
    const served = await loopscope('serve', 'graphs/triage.json');
    expect(served.stderr).toContain('serve needs the LangGraph dev server, which this install left out');
  }, 120_000);

  it('opens the folder: the app and its graph files served on 127.0.0.1 with the token', async () => {
    // What `npx loopscope` runs, started directly: this test stops it by its own PID.
    const child = spawn(join(project, 'node_modules', '.bin', 'loopscope'), ['open', '--port', '0'], { cwd: project, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let printed = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          printed += chunk;
          if (printed.includes('\n')) resolve(printed);
        });
        child.once('exit', (code) => reject(new Error(`loopscope open exited with ${code}`)));
      });
      const address = new URL(/http:\/\/\S+/.exec(line)![0]);
      const token = new URLSearchParams(address.hash.slice(1)).get('token');
      expect(await (await fetch(address.origin)).text()).toContain('<div id="root">');
      const listed = await (await fetch(`${address.origin}/api/graphs`, { headers: { Authorization: `Bearer ${token}` } })).json();
      expect(listed.graphs.map((graph: { path: string }) => graph.path)).toContain('graphs/triage.json');
      expect((await fetch(`${address.origin}/api/graphs`)).status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
