/**
 * `loopscope open` on a temporary folder: the page edits the folder's graph files, and the files'
 * changes on disk come back to the page. The command line runs as a person runs it (bin/loopscope.mjs),
 * serving the build under test (E2E_OUT).
 */
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from './test.ts';
import { collectErrors, flowNode, openFolderServer, pane, relabel } from './helpers.ts';

const root = resolve(import.meta.dirname, '..');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const notice = (page: Page) => page.getByRole('region', { name: 'File on disk' });

let folder: string;
let stop: () => void;
let address: URL;

const graphFile = () => join(folder, 'graphs', 'triage.json');
const onDisk = async () => JSON.parse(await readFile(graphFile(), 'utf8')) as { nodes: { id: string; label?: string; position: { x: number } }[] };
/** A top-level field of a file of the folder; undefined while the file is not there. */
const fileField = async (path: string, field: string) => (JSON.parse(await readFile(join(folder, path), 'utf8').catch(() => '{}')) as Record<string, unknown>)[field];
/** Writes the graph file as an editor or `git checkout` would, with one node relabelled. */
const writeOnDisk = async (node: string, label: string) => {
  const graph = await onDisk();
  for (const candidate of graph.nodes) if (candidate.id === node) candidate.label = label;
  await writeFile(graphFile(), JSON.stringify(graph, null, 2));
};

/** A raw request to the server, with any Host and headers (fetch sets its own Host). */
const raw = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: string }>((done, fail) => {
    const request = httpRequest({ host: '127.0.0.1', port: Number(address.port), path, headers: { Host: address.host, ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => done({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', fail);
    request.end();
  });

test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'loopscope-open-e2e-'));
  await mkdir(join(folder, 'graphs'));
  await mkdir(join(folder, 'node_modules', 'pkg'), { recursive: true });
  await writeFile(graphFile(), await readFile(join(root, 'src/graph/templates/securityclaw.json'), 'utf8'));
  await writeFile(join(folder, 'node_modules', 'pkg', 'graph.json'), await readFile(join(root, 'src/graph/templates/approval-gate.json'), 'utf8'));
  await writeFile(join(folder, 'settings.json'), '{"theme": "dark"}\n');
  await writeFile(join(folder, 'broken.json'), '{"format": "loopscope/graph", "version": 1, "name": 3}\n');
  ({ address, stop } = await openFolderServer(folder));
});

test.afterAll(async () => {
  stop?.();
  await rm(folder, { recursive: true, force: true });
});

test('loopscope open: Graphs lists the folder’s graph files; edits go to the file in stable text, changes on disk come to the page, a conflict asks', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto(address.href);
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage', exact: true })).toBeVisible();

  // Only the graph files: not the other JSON, not node_modules; the broken one with its problem.
  await button(page, 'Graphs').click();
  const graphs = page.getByRole('dialog', { name: 'Graphs' });
  const files = graphs.getByRole('list', { name: 'Graph files' }).getByRole('listitem');
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toContainText('broken.json');
  await expect(files.nth(0)).toContainText('name: expected text');
  await expect(files.nth(1)).toContainText('graphs/triage.json');
  await expect(files.nth(1)).toContainText('SecurityClaw triage');
  await page.keyboard.press('Escape');

  // An edit is in the file within moments, in the stable text of Export JSON.
  await relabel(page, 'decide', 'Decide, saved to disk');
  await expect.poll(async () => (await onDisk()).nodes.find((node) => node.id === 'decide')?.label, { timeout: 1_500 }).toBe('Decide, saved to disk');
  const text = await readFile(graphFile(), 'utf8');
  expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  expect(Object.keys(JSON.parse(text)).slice(0, 3)).toEqual(['format', 'version', 'name']);

  // A change on disk shows at once when the page holds no unsaved edit; Undo takes it back.
  await writeOnDisk('execute', 'Changed in an editor');
  await expect(flowNode(page, 'execute')).toContainText('Changed in an editor');
  await expect(notice(page)).toHaveCount(0);

  // A change on disk while the page holds an unsaved edit (an Undo, its save held back while the
  // canvas is being panned): the page asks. Keep mine writes this version over the file.
  const holdPan = async () => {
    // The pane takes no focus on press (it pans instead): the field typed in last lets go of it, so Ctrl+Z reaches the editor.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const area = (await pane(page).boundingBox())!;
    await page.mouse.move(area.x + 12, area.y + 12);
    await page.mouse.down();
    await page.mouse.move(area.x + 40, area.y + 30, { steps: 4 });
  };
  await holdPan();
  await page.keyboard.press('Control+z');
  await expect(flowNode(page, 'execute')).not.toContainText('Changed in an editor');
  await writeOnDisk('answer', 'Answer from disk');
  await expect(notice(page)).toContainText('The file changed on disk');
  await page.mouse.up();
  await button(page, 'Keep mine').click();
  await expect(notice(page)).toHaveCount(0);
  await expect.poll(async () => (await onDisk()).nodes.find((node) => node.id === 'execute')?.label).not.toBe('Changed in an editor');
  expect((await onDisk()).nodes.find((node) => node.id === 'answer')?.label).not.toBe('Answer from disk');
  await expect(flowNode(page, 'answer')).not.toContainText('Answer from disk');

  // Load from disk: the file's version replaces the page's (which stays one Undo away).
  await holdPan();
  await page.keyboard.press('Control+Shift+z');
  await expect(flowNode(page, 'execute')).toContainText('Changed in an editor');
  await writeOnDisk('answer', 'Answer loaded');
  await expect(notice(page)).toContainText('The file changed on disk');
  await page.mouse.up();
  await button(page, 'Load from disk').click();
  await expect(flowNode(page, 'answer')).toContainText('Answer loaded');
  await expect(notice(page)).toHaveCount(0);
  expect((await onDisk()).nodes.find((node) => node.id === 'answer')?.label).toBe('Answer loaded');

  // A run is kept in the browser, keyed by the file: a reload restores it, and the file is still the one open.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' }).first()).toBeVisible();
  const steps = await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').count();
  await page.reload();
  await expect(flowNode(page, 'answer')).toContainText('Answer loaded');
  await expect(page.getByRole('list', { name: 'Timeline' }).getByRole('listitem')).toHaveCount(steps);

  // Deleted on disk: the page says so and keeps the graph; a failed save again says why, a retry writes it.
  await rm(join(folder, 'graphs'), { recursive: true });
  await expect(notice(page)).toContainText('graphs/triage.json was deleted on disk');
  await button(page, 'Save it again').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Autosave failed' })).toContainText('the folder graphs/ does not exist');
  await mkdir(join(folder, 'graphs'));
  await button(page, 'Retry').click();
  // Not there until the retry has written it.
  await expect.poll(async () => (await onDisk().catch(() => null))?.nodes.find((node) => node.id === 'answer')?.label).toBe('Answer loaded');

  // A file that is not a valid graph opens read-only, its problem shown, and is never written.
  const before = await readFile(join(folder, 'broken.json'), 'utf8');
  await button(page, 'Graphs').click();
  await graphs.getByRole('button', { name: /^broken\.json/ }).click();
  await expect(notice(page)).toContainText('broken.json: name: expected text');
  await expect(notice(page)).toContainText('read-only');
  await expect(page.getByRole('heading', { name: 'broken.json', exact: true })).toBeVisible();
  expect(await readFile(join(folder, 'broken.json'), 'utf8')).toBe(before);
  expect(errors.filter((error) => !/the server responded with a status of 4\d\d/.test(error))).toEqual([]);
});

test('loopscope open: New graph asks for a file name; Remove asks, then deletes the file; a template waits for a name', async ({ page }) => {
  await page.goto(address.href);
  await expect(page.getByRole('heading', { name: /./ }).first()).toBeVisible();
  await button(page, 'New graph').click();
  const dialog = page.getByRole('dialog', { name: 'New graph file' });
  await dialog.getByLabel('File name').fill('graphs/triage');
  await dialog.getByRole('button', { name: 'Create' }).click();
  // Taken: said, and nothing written over.
  await expect(dialog.getByRole('alert')).toContainText('graphs/triage.json already exists');
  await dialog.getByLabel('File name').fill('drafts/new.json');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toContainText('the folder drafts/ does not exist');
  await dialog.getByLabel('File name').fill('fresh');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => fileField('fresh.json', 'format')).toBe('loopscope/graph');

  // A template opens as no file yet, until it is given a name.
  await button(page, 'Graphs').click();
  await page.getByRole('button', { name: 'New graph from the template Approval gate' }).click();
  await expect(notice(page)).toContainText('is not a file in');
  await button(page, 'Save as file…').click();
  await page.getByRole('dialog', { name: 'Save as a graph file' }).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(notice(page)).toHaveCount(0);
  await expect.poll(() => fileField('approval-gate.json', 'name')).toMatch(/Approval/);

  // Remove asks first, then deletes the file.
  await button(page, 'Graphs').click();
  const graphs = page.getByRole('dialog', { name: 'Graphs' });
  await graphs.getByRole('button', { name: 'Remove fresh.json' }).click();
  await expect(graphs).toContainText('Delete fresh.json from the folder?');
  await graphs.getByRole('button', { name: 'Delete the file' }).click();
  // The question stays until the file is deleted and the list read again (its row shows no open button meanwhile).
  await expect(graphs).not.toContainText('Delete fresh.json from the folder?');
  await expect(graphs.getByRole('button', { name: /^fresh\.json/ })).toHaveCount(0);
  await expect(readFile(join(folder, 'fresh.json'))).rejects.toThrow();
  await page.keyboard.press('Escape');

  // A second tab on the same address opens the file changed last, the one this tab has: as two tabs on one graph, it is told.
  const second = await page.context().newPage();
  await second.goto(address.href);
  await expect(second.getByRole('heading', { name: /Approval/ })).toBeVisible();
  await expect(second.getByRole('region', { name: 'Graph open in another tab' })).toContainText('This graph is open in another tab');
});

test('loopscope open: requests without the token or with another Host are refused, and .. never reaches outside', async () => {
  const token = new URLSearchParams(address.hash.slice(1)).get('token')!;
  expect((await raw('/')).status).toBe(200);
  expect((await raw('/', { Host: `attacker.example:${address.port}` })).status).toBe(403);
  expect((await raw('/api/graphs')).status).toBe(403);
  expect((await raw('/api/graphs', { Authorization: 'Bearer nope' })).status).toBe(403);
  expect((await raw('/api/graphs', { Authorization: `Bearer ${token}`, Host: `rebound.example:${address.port}` })).status).toBe(403);
  expect((await raw('/api/graphs', { Authorization: `Bearer ${token}` })).status).toBe(200);
  for (const path of ['../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'graphs%2F..%2F..%2Fx.json']) {
    const answer = await raw(`/api/graph?path=${path}`, { Authorization: `Bearer ${token}` });
    expect([400, 403], path).toContain(answer.status);
  }
  expect((await raw('/..%2F..%2F..%2Fetc%2Fpasswd')).body).not.toContain('root:');
});
