import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { link, mkdir, mkdtemp, open, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph, type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { checkedPath, FolderError, openFolder, type FileChange, type Folder } from './folder.ts';
import { main } from './main.ts';
import { parseGraph } from '../graph/parse.ts';

// The folder's check of a graph file, counted: the same text is checked once (issue 57).
vi.mock('../graph/parse.ts', async (actual) => {
  const module = await actual<typeof import('../graph/parse.ts')>();
  return { ...module, parseGraph: vi.fn(module.parseGraph) };
});

const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
const text = serializeGraph(graph);
let root: string;
let outside: string;
let folder: Folder;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'loopscope-folder-'));
  outside = await mkdtemp(join(tmpdir(), 'loopscope-outside-'));
  await mkdir(join(root, 'graphs/deep'), { recursive: true });
  await mkdir(join(root, 'node_modules/pkg'), { recursive: true });
  await mkdir(join(root, '.git'), { recursive: true });
  await writeFile(join(root, 'graphs/triage.json'), text);
  await writeFile(join(root, 'graphs/deep/other.json'), serializeGraph({ ...graph, name: 'Other' }));
  await writeFile(join(root, 'package.json'), '{"name": "not-a-graph"}\n');
  await writeFile(join(root, 'node_modules/pkg/graph.json'), text);
  await writeFile(join(root, '.git/graph.json'), text);
  await writeFile(join(root, 'broken.json'), '{"format": "loopscope/graph", "version": 1, "name": 3}\n');
  await writeFile(join(outside, 'secret.json'), text);
  folder = await openFolder(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(FolderError);
  return error as FolderError;
};

/** The folder's changes as the watcher tells of them; `next(count)` resolves once it has told of `count`. */
const watchChanges = async () => {
  const changes: FileChange[] = [];
  let seen: () => void = () => {};
  const stop = await folder.watch((change) => {
    changes.push(change);
    seen();
  }, { debounceMs: 20 });
  const next = (count: number) => new Promise<void>((resolve) => {
    seen = () => changes.length >= count && resolve();
    seen();
  });
  return { changes, next, stop };
};

describe('the folder of loopscope open', () => {
  it('lists the graph files by path, subfolders included, node_modules, dot-folders and other JSON left out; a broken one with its problem', async () => {
    const listed = await folder.list();
    expect(listed.map((listing) => listing.path)).toEqual(['broken.json', 'graphs/deep/other.json', 'graphs/triage.json']);
    expect(listed[2]).toMatchObject({ name: 'SecurityClaw triage' });
    expect(listed[0].problem).toMatch(/^broken\.json: name: expected text/);
    expect(listed[0].name).toBeUndefined();
  });

  it('refuses a folder that is not there, naming it', async () => {
    const error = await refusal(openFolder(join(root, 'nowhere')));
    expect(error.message).toBe(`${join(root, 'nowhere')}: no such folder`);
  });

  it('refuses every path that would leave the folder or reach what the list leaves out, before touching a file', async () => {
    for (const path of ['../x.json', 'graphs/../../x.json', '/etc/passwd.json', 'C:/x.json', 'graphs\\..\\x.json', '.git/graph.json', 'node_modules/pkg/graph.json', 'graphs/./triage.json', 'graphs//triage.json', 'package', '', 'a\0.json'])
      expect(() => checkedPath(path), path).toThrow(FolderError);
    expect(checkedPath('graphs/triage.json')).toBe('graphs/triage.json');
    // Encoded forms are not decoded again here: `%2e%2e` is a file name inside the folder, never "..".
    expect((await refusal(folder.read('%2e%2e/secret.json'))).status).toBe(404);
  });

  it('follows no link out of the folder, for reading, writing or deleting', async () => {
    await symlink(join(outside, 'secret.json'), join(root, 'link.json'));
    await symlink(outside, join(root, 'away'));
    expect((await folder.list()).map((listing) => listing.path)).not.toContain('link.json');
    expect((await refusal(folder.read('link.json'))).status).toBe(403);
    expect((await refusal(folder.write('link.json', text))).status).toBe(403);
    expect((await refusal(folder.write('away/new.json', text, { create: true }))).status).toBe(403);
    expect((await refusal(folder.remove('away/secret.json'))).status).toBe(403);
    expect(await readFile(join(outside, 'secret.json'), 'utf8')).toBe(text);
    expect(await readdir(outside)).toEqual(['secret.json']);
  });

  it('writes and deletes through no link at all, even one that stays inside; a hard link of a file outside is replaced, not written through', async () => {
    await symlink('graphs/triage.json', join(root, 'alias.json'));
    await symlink('graphs', join(root, 'sub'));
    await link(join(outside, 'secret.json'), join(root, 'hard.json'));
    const edited = serializeGraph({ ...graph, name: 'Edited' });
    expect((await refusal(folder.write('alias.json', edited))).message).toBe('alias.json is a link, not a regular file: nothing is written or removed through it');
    expect((await refusal(folder.write('sub/triage.json', edited))).message).toBe('sub/triage.json: sub is a link, not a folder: nothing is written or removed through it');
    expect((await refusal(folder.write('sub/new.json', edited, { create: true }))).status).toBe(403);
    expect((await refusal(folder.remove('alias.json'))).status).toBe(403);
    expect((await refusal(folder.remove('sub/triage.json'))).status).toBe(403);
    expect(await readFile(join(root, 'graphs/triage.json'), 'utf8')).toBe(text);
    expect(await readlink(join(root, 'alias.json'))).toBe('graphs/triage.json');
    expect(await readdir(join(root, 'graphs'))).toEqual(['deep', 'triage.json']);
    await folder.write('hard.json', edited);
    expect(await readFile(join(root, 'hard.json'), 'utf8')).toBe(edited);
    expect(await readFile(join(outside, 'secret.json'), 'utf8')).toBe(text);
  });

  it('writes atomically, the stable text, leaving no temporary file; a new file only under a free name', async () => {
    const edited = serializeGraph({ ...graph, name: 'Edited' });
    const { savedAt } = await folder.write('graphs/triage.json', edited);
    expect(await readFile(join(root, 'graphs/triage.json'), 'utf8')).toBe(edited);
    expect(savedAt).toBeGreaterThan(0);
    expect(await readdir(join(root, 'graphs'))).toEqual(['deep', 'triage.json']);
    expect((await refusal(folder.write('graphs/triage.json', text, { create: true }))).status).toBe(409);
    await folder.write('graphs/new.json', text, { create: true });
    expect((await folder.read('graphs/new.json')).text).toBe(text);
    expect((await refusal(folder.write('missing/new.json', text, { create: true }))).message).toBe('missing/new.json: the folder missing/ does not exist');
  });

  it('never writes a file that is not a graph, nor a text that is not one', async () => {
    expect((await refusal(folder.write('package.json', text))).status).toBe(409);
    expect(await readFile(join(root, 'package.json'), 'utf8')).toBe('{"name": "not-a-graph"}\n');
    expect((await refusal(folder.write('graphs/triage.json', '{"format": "loopscope/graph"}'))).status).toBe(400);
    expect((await refusal(folder.remove('package.json'))).status).toBe(409);
  });

  it('reads an invalid graph file for the page to show read-only; a file past the import limit is refused with its path', async () => {
    expect((await folder.read('broken.json')).text).toContain('"name": 3');
    await writeFile(join(root, 'big.json'), `{"format": "loopscope/graph", "version": 1, "name": "${'x'.repeat(33_000_000)}"}`);
    const error = await refusal(folder.read('big.json'));
    expect(error.status).toBe(413);
    expect(error.message).toBe('big.json: too large: 33.0 MB, at most 8.0 MB of text can be opened');
    expect((await folder.list()).find((listing) => listing.path === 'big.json')?.problem).toBe(error.message);
    // Within the bytes but past the characters: the limit of an import, as an import says it.
    await writeFile(join(root, 'big.json'), `{"format": "loopscope/graph", "version": 1, "name": "${'x'.repeat(8_100_000)}"}`);
    expect((await folder.list()).find((listing) => listing.path === 'big.json')?.problem).toMatch(/^big\.json: too large: 8\.1 MB of text, at most 8\.0 MB can be opened/);
  });

  it('checks a file\'s text once: listed, read and written back, a 10,000-node file is not checked again on each (issue 57)', async () => {
    const checks = vi.mocked(parseGraph);
    await folder.list();
    checks.mockClear();
    // As a page under `loopscope open` opens a graph: the list, then the file.
    await folder.list();
    expect((await folder.read('graphs/triage.json')).text).toBe(text);
    expect(checks).not.toHaveBeenCalled();
    // A save: its own text checked (a text that is not a graph is never written), the file it replaces not again.
    const edited = serializeGraph({ ...graph, name: 'Edited' });
    await folder.write('graphs/triage.json', edited);
    expect(checks).toHaveBeenCalledTimes(1);
    expect(await folder.read('graphs/triage.json')).toEqual({ text: edited, savedAt: expect.any(Number) });
    expect((await folder.list()).find((listing) => listing.path === 'graphs/triage.json')?.name).toBe('Edited');
    expect(checks).toHaveBeenCalledTimes(1);
    // Changed on disk by someone else: checked again, its problem said.
    await writeFile(join(root, 'graphs/triage.json'), edited.replace('"Edited"', '3'));
    expect((await folder.read('graphs/triage.json')).problem).toMatch(/^graphs\/triage\.json: name: expected text/);
    expect(checks).toHaveBeenCalledTimes(2);
  });

  it('deletes a graph file', async () => {
    await folder.remove('graphs/deep/other.json');
    expect((await folder.list()).map((listing) => listing.path)).toEqual(['broken.json', 'graphs/triage.json']);
  });

  it('tells of a graph file changed, added or removed on disk, once per change, and not of files it leaves out', async () => {
    const { changes, next, stop } = await watchChanges();
    try {
      await writeFile(join(root, 'node_modules/pkg/graph.json'), `${text} `);
      await writeFile(join(root, 'graphs/triage.json'), serializeGraph({ ...graph, name: 'On disk' }));
      await next(1);
      await rm(join(root, 'graphs/deep/other.json'));
      await next(2);
      expect(changes).toEqual([{ path: 'graphs/triage.json', kind: 'changed', savedAt: expect.any(Number) }, { path: 'graphs/deep/other.json', kind: 'removed' }]);
    } finally {
      await stop();
    }
  });

  it('tags the change its own write for a page makes with the writer the page named, and a change made on disk after it with none', async () => {
    const { changes, next, stop } = await watchChanges();
    try {
      const { savedAt } = await folder.write('graphs/triage.json', serializeGraph({ ...graph, name: 'From a page' }), { by: 'page-1' });
      await next(1);
      expect(changes[0]).toEqual({ path: 'graphs/triage.json', kind: 'changed', savedAt, by: 'page-1' });
      // Written until the watcher tells of it: it may miss a write made as it follows the file the page's rename put in place.
      await vi.waitFor(async () => {
        await writeFile(join(root, 'graphs/triage.json'), serializeGraph({ ...graph, name: 'From an editor' }));
        expect(changes.length).toBeGreaterThan(1);
      }, { timeout: 10_000, interval: 200 });
      expect(changes.slice(1)).toEqual(changes.slice(1).map(() => ({ path: 'graphs/triage.json', kind: 'changed', savedAt: expect.any(Number) })));
    } finally {
      await stop();
    }
  });
});

/** Opens a named pipe for writing without waiting, so that whatever waits to read it goes on: nothing is left blocked after the test, whatever it found. */
const release = (pipe: string) => open(pipe, constants.O_WRONLY | constants.O_NONBLOCK).then((handle) => handle.close(), () => undefined);

describe('a named pipe in the folder (issue 51, #4)', () => {
  let pipe = '';
  beforeEach(() => {
    pipe = join(root, 'graphs/pipe');
    execFileSync('mkfifo', [pipe]);
    return symlink('pipe', join(root, 'graphs/a.json'));
  });
  afterEach(() => release(pipe));

  it('is neither listed nor read, nor written, nor deleted: each says so at once, and the rest of the folder works', async () => {
    expect((await folder.list()).map((listing) => listing.path)).toEqual(['broken.json', 'graphs/deep/other.json', 'graphs/triage.json']);
    expect((await refusal(folder.read('graphs/a.json'))).message).toBe('graphs/a.json is a named pipe, not a regular file: it is not read');
    expect((await refusal(folder.write('graphs/a.json', text))).status).toBe(409);
    expect((await refusal(folder.remove('graphs/a.json'))).status).toBe(409);
    expect((await folder.read('graphs/triage.json')).text).toBe(text);
  }, 5_000);

  it('leaves `loopscope test FOLDER` to test the graph files around it', async () => {
    const lines: string[] = [];
    const code = await main(['test', root], { out: (line) => lines.push(line), err: (line) => lines.push(line) });
    expect(lines.join('\n')).toContain(join(root, 'graphs/triage.json'));
    expect(lines.join('\n')).not.toContain('a.json');
    expect(code).toBe(2);
  }, 20_000);
});
