/**
 * `loopscope serve` before its server answers: `--dir` takes an empty or new folder, or one serve
 * made (and refuses any other, changing nothing), and a Ctrl-C during start-up leaves nothing
 * behind — no LangGraph server reparented to PID 1, no temporary folder.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from './main.ts';
import { parseGraph } from '../graph/parse.ts';
import { UnsafePath } from './safeFs.ts';
import { claimFolder, SERVE_MARKER, serveGraphs, ServeRefused } from './serve.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const securityclaw = join(root, 'src/graph/templates/securityclaw.json');
let folder = '';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'loopscope-serve-start-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** Every file under `dir` with its text: what "changing nothing" is checked against. */
const snapshot = async (dir: string) => {
  const files = await readdir(dir, { recursive: true });
  return Promise.all(files.sort().map(async (file) => [file, await readFile(join(dir, file), 'utf8').catch(() => 'a folder')]));
};

describe('serve --dir', () => {
  it('takes an absent or empty folder (marking it) and one it made before; refuses any other as it is', async () => {
    const absent = join(folder, 'absent', 'deeper');
    await claimFolder(absent);
    expect(await readdir(absent)).toEqual([SERVE_MARKER]);
    await writeFile(join(absent, 'package.json'), '{"name": "served before"}');
    await claimFolder(absent);
    const empty = join(folder, 'empty');
    await mkdir(empty);
    await claimFolder(empty);
    expect(await readdir(empty)).toEqual([SERVE_MARKER]);

    const project = join(folder, 'project');
    await mkdir(join(project, 'node_modules', 'left-pad'), { recursive: true });
    await writeFile(join(project, 'package.json'), '{"name": "mine"}');
    await writeFile(join(project, 'langgraph.json'), '{"graphs": {}}');
    const before = await snapshot(project);
    await expect(claimFolder(project)).rejects.toThrow(ServeRefused);
    expect(await snapshot(project)).toEqual(before);
  });

  it('the command line refuses a folder of someone else\'s with exit 2, changing nothing', async () => {
    const project = join(folder, 'cli-project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), '{"name": "mine"}');
    const before = await snapshot(project);
    const lines: string[] = [];
    const code = await main(['serve', securityclaw, '--dir', project], { out: (line) => lines.push(line), err: (line) => lines.push(line) });
    expect(code).toBe(2);
    expect(lines.at(-1)).toBe(`--dir ${project} is not empty and was not made by loopscope serve: serving writes package.json, langgraph.json and node_modules there, so it takes an empty or new folder only (nothing was changed)`);
    expect(await snapshot(project)).toEqual(before);
  });
});

describe('serve --dir writes nothing outside the folder (issue 51, #2)', () => {
  /** A folder serve made before, beside the person's files that a link in it could reach. */
  const marked = async (name: string) => {
    const home = join(folder, name);
    await mkdir(join(home, 'victim'), { recursive: true });
    await writeFile(join(home, 'victim', 'README.md'), '# mine\n');
    await writeFile(join(home, 'victim', '.gitignore'), 'secrets\n');
    await writeFile(join(home, 'bashrc'), 'alias ls="ls --color"\n');
    const served = join(home, 'served');
    await claimFolder(served);
    return { home, served };
  };

  it.each([
    ['a project\'s folder', 'ro-delete', '../victim'],
    ['package.json', 'package.json', '../bashrc'],
    ['the marker itself', SERVE_MARKER, '../victim/README.md'],
  ])('refuses a marked folder where %s is a link, changing nothing', async (_what, name, target) => {
    const { home, served } = await marked(`link-${name}`);
    if (name === SERVE_MARKER) await rm(join(served, SERVE_MARKER));
    await symlink(target, join(served, name));
    const before = await snapshot(home);
    await expect(claimFolder(served)).rejects.toThrow(new ServeRefused(`--dir ${served}: ${name} is a link, and serve writes nothing through a link: remove it, or choose another folder (nothing was changed)`));
    expect(await snapshot(home)).toEqual(before);
  });

  it('refuses a link deeper in a project\'s folder before the server starts, writing nothing through it', async () => {
    const { home, served } = await marked('deeper');
    const parsed = parseGraph({ ...JSON.parse(await readFile(securityclaw, 'utf8')), name: 'ro-delete' });
    if (!parsed.ok) throw new Error('securityclaw does not parse');
    await mkdir(join(served, 'ro-delete'));
    await symlink('../../victim', join(served, 'ro-delete', 'src'));
    const before = await snapshot(join(home, 'victim'));
    await expect(serveGraphs([parsed.value], { dir: served, startTimeoutMs: 5_000 })).rejects.toThrow(new UnsafePath('ro-delete/src is a link, not a folder: nothing is written or removed through it'));
    expect(await snapshot(join(home, 'victim'))).toEqual(before);
    expect(await readFile(join(home, 'bashrc'), 'utf8')).toBe('alias ls="ls --color"\n');
  }, 60_000);
});

describe('serve --dir takes a marker only in the folder it wrote it in', () => {
  it('refuses a folder copied with its marker, or one with a marker written by hand, changing nothing: the server would load its files (a project\'s own node_modules)', async () => {
    const made = join(folder, 'made-here');
    await claimFolder(made);
    await claimFolder(made);
    const copy = join(folder, 'cloned');
    await cp(made, copy, { recursive: true });
    // What the server would load: a project's own copy of a package the runtime imports.
    await mkdir(join(copy, 'securityclaw-triage', 'node_modules', '@cfworker', 'json-schema'), { recursive: true });
    await writeFile(join(copy, 'securityclaw-triage', 'node_modules', '@cfworker', 'json-schema', 'index.js'), 'process.exit(66)');
    const forged = join(folder, 'forged');
    await mkdir(forged);
    await writeFile(join(forged, SERVE_MARKER), 'This folder holds graphs served by `loopscope serve`, which may replace its files.\n');
    for (const dir of [copy, forged]) {
      const before = await snapshot(dir);
      await expect(claimFolder(dir)).rejects.toThrow(new ServeRefused(`--dir ${dir} holds a ${SERVE_MARKER} that serve did not write in this folder (was it copied, cloned or unpacked?): serving would load the files it holds, so it takes an empty or new folder, or one serve made here (nothing was changed)`));
      expect(await snapshot(dir)).toEqual(before);
    }
  });
});

/** The processes whose working folder is under `dir`: the LangGraph server and its workers run there. */
const processesIn = async (dir: string): Promise<number[]> => {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const found = await Promise.all(pids.map(async (pid) => ((await readlink(`/proc/${pid}/cwd`).catch(() => '')).startsWith(dir) ? [Number(pid)] : [])));
  return found.flat();
};

/** Reads until `done` holds, every 100 ms, failing after `ms` with what was read last. */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> =>
  vi.waitFor(async () => {
    const value = await read();
    if (!done(value)) throw new Error(`waited for ${what}; last: ${JSON.stringify(value)}`);
    return value;
  }, { timeout: ms, interval: 100 });

describe.skipIf(process.platform !== 'linux')('serve interrupted during start-up', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s once the LangGraph server has started: it is stopped by its PID and the temporary folder removed', async (signal) => {
    // A temporary folder of this test's own, so that nothing another test makes is counted.
    const temporary = await mkdtemp(join(folder, 'tmp-'));
    const child = spawn(process.execPath, ['bin/loopscope.mjs', 'serve', securityclaw], { cwd: root, env: { ...process.env, TMPDIR: temporary }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (text: string) => (output += text));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Its server is running (a process in its folder) and has not answered yet.
    await until(() => processesIn(join(temporary, 'loopscope-serve-')), (pids) => pids.length > 0, 'the LangGraph server to start');
    expect(output).not.toContain('LangGraph server: http');
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(output).toContain('stopped during start-up');
    // (tsx keeps its cache there too.)
    expect((await readdir(temporary)).filter((name) => name.startsWith('loopscope-serve-'))).toEqual([]);
    await until(() => processesIn(join(temporary, 'loopscope-serve-')), (pids) => pids.length === 0, 'no process left in the served folder', 10_000);
  }, 120_000);
});
