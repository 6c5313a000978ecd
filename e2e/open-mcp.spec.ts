/**
 * `loopscope open` on a copy of the files template's folder (examples/files-agent): the page
 * reaches the folder's MCP servers through it, stdio ones included. The command line runs as a
 * person runs it (bin/loopscope.mjs), serving the build under test (E2E_OUT); the folder's
 * `.mcp.json` starts the real @modelcontextprotocol/server-filesystem from node_modules with this
 * very node (npx would look it up online), and the process list says when it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FILESYSTEM_SERVER, filesAgentCopy, serversFor, testServers } from '../src/skills/mcpTesting.ts';
import { collectErrors, pane } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

const root = resolve(import.meta.dirname, '..');

interface Open {
  dir: string;
  address: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
  remove: () => Promise<void>;
}

/** A fresh copy of the template's folder, served by `loopscope open`. */
const openCopy = async (): Promise<Open> => {
  const copy = await filesAgentCopy();
  const command = testServers(copy.dir).mcpServers.files;
  await writeFile(join(copy.dir, '.mcp.json'), JSON.stringify({ mcpServers: { files: command } }, null, 2));
  const child = spawn(process.execPath, ['bin/loopscope.mjs', 'open', copy.dir, '--port', '0', '--no-browser'], {
    cwd: root,
    env: { ...process.env, LOOPSCOPE_APP_DIR: resolve(root, process.env.E2E_OUT ?? 'dist') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let printed = '';
  const line = await new Promise<string>((done, fail) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      if (printed.includes('\n')) done(printed.split('\n')[0]);
    });
    void exited.then((code) => fail(new Error(`loopscope open exited (${code}): ${printed}${stderr}`)));
  });
  return { dir: copy.dir, address: /http:\/\/\S+/.exec(line)![0], child, exited, stderr: () => stderr, remove: copy.remove };
};

/** Ctrl-C, as a person stops it; resolves with its exit code. */
const stop = async (open: Open) => {
  if (open.child.exitCode === null) open.child.kill('SIGINT');
  return open.exited;
};

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const call = (page: Page, skill: string) => detail(page).locator(`dl[aria-label="Call of ${skill}, attempt 1"]`);
const consent = (page: Page) => page.getByRole('dialog', { name: 'Start the MCP server “files”?' });
/** The question of what a graph file's run may do with the folder's MCP tools. */
const grant = (page: Page, file: string) => page.getByRole('dialog', { name: `Permission for ${file}` });
const openGraph = async (page: Page, file: string, heading: string) => {
  await button(page, 'Graphs').click();
  await page.getByRole('dialog', { name: 'Graphs' }).getByRole('button', { name: new RegExp(`^${file.replace('.', '\\.')}`) }).click();
  await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
};
/** A node of the canvas by its accessible name: its title, then what its tools row says. */
const canvasNode = (page: Page, name: string) => page.getByRole('region', { name: 'Canvas' }).getByRole('group', { name, exact: true });

let open: Open;

test.beforeEach(async () => {
  open = await openCopy();
});

test.afterEach(async () => {
  await stop(open);
  await open.remove();
});

test('loopscope open reaches the folder’s stdio MCP server once allowed: the run reads the files, a write is denied, approved, written; each call’s args and answer are in its attempt; no server is left when open stops', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto(open.address);
  await button(page, 'Graphs').click();
  await page.getByRole('dialog', { name: 'Graphs' }).getByRole('button', { name: /^graph\.json/ }).click();
  await expect(page.getByRole('heading', { name: 'Graph Engineer on your files', exact: true })).toBeVisible();

  // The canvas shows the tools each node calls and the access they need (what the skills declare
  // until the server's tools are listed), in its rows and in its name for a screen reader.
  await expect(canvasNode(page, 'Collect calls 3 tools on files: list_directory read, search_files read, read_text_file read')).toContainText('3 read');
  const act = canvasNode(page, 'Act calls 2 tools on files: read_text_file read, write_file write');
  await expect(act.getByRole('img', { name: 'calls 2 tools on files: read_text_file read, write_file write' })).toContainText('1 read1 write');
  await expect(canvasNode(page, 'Verify calls files read_text_file read')).toContainText('read_text_');
  // Reason plans write_file for Act: it calls no tool itself.
  await expect(canvasNode(page, 'Reason')).toBeVisible();

  // Nothing starts before the person says so: the page names the server and its command line.
  await button(page, 'Run').click();
  const question = consent(page);
  await expect(question).toContainText('“Graph Engineer on your files” calls tools of the MCP server “files” (list_directory, search_files, read_text_file, write_file)');
  await expect(question).toContainText(`${process.execPath} ${join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')} ${join(open.dir, 'data')}`);
  await expect(question).toContainText(join(open.dir, '.mcp.json'));
  expect(serversFor(open.dir)).toEqual([]);
  await question.getByRole('button', { name: 'Allow' }).click();
  // Then what the graph may do: its file asks for read-only, and the person grants it.
  const granting = grant(page, 'graph.json');
  await expect(granting).toContainText('(the file graph.json) asks for read-only');
  await expect(granting.getByRole('region', { name: 'Tools that write' })).toContainText('write_file on “files”');
  await granting.getByRole('button', { name: 'Grant read-only' }).click();

  // Read-only mode: Act's write_file is denied before the call, and the run waits at Approve.
  const approval = page.getByRole('dialog', { name: 'Approval' });
  await expect(approval).toContainText('write_file');
  expect(serversFor(open.dir)).toHaveLength(1);
  await expect(readFile(join(open.dir, 'data', 'report.md'))).rejects.toThrow();

  // Collect read the example files through the real server: each call with its args and answer.
  await steps(page).nth(0).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 1 · Collect/ })).toBeVisible();
  await expect(call(page, 'list_directory')).toContainText('{"path":"."}');
  await expect(call(page, 'list_directory')).toContainText('[FILE] todo.txt');
  await expect(call(page, 'search_files')).toContainText('{"path":".","pattern":"**/*.md"}');
  await expect(call(page, 'search_files')).toContainText('2026-11-30-incident.md');
  await expect(call(page, 'read_text_file').first()).toContainText('{"path":"notes/2026-11-30-incident.md"}');
  await expect(call(page, 'read_text_file').first()).toContainText('left-pad');
  await steps(page).nth(2).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 3 · Act/ })).toBeVisible();
  await expect(call(page, 'write_file')).toContainText('refused before the call, the server was not asked');
  await expect(detail(page)).toContainText('write_file permission_denied');

  // Approved once: the write goes to the server, and the file is on disk.
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' }).first()).toBeVisible();
  expect(await readFile(join(open.dir, 'data', 'report.md'), 'utf8')).toContain('# Nightly build: why it fails');
  await steps(page).nth(4).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 5 · Act/ })).toBeVisible();
  await expect(call(page, 'write_file')).toContainText('"path":"report.md"');
  await expect(call(page, 'write_file')).toContainText('Successfully wrote to report.md');
  // The inspector lists the tools of the folder's server (asked nothing more: it was allowed), with no address to give.
  await pane(page).click({ position: { x: 8, y: 8 } });
  const inspector = page.getByRole('region', { name: 'Inspector' });
  const item = inspector.getByRole('region', { name: 'Skills' }).getByRole('listitem').filter({ hasText: 'write_file' }).first();
  await item.getByText('write_file', { exact: true }).click();
  await expect(item).toContainText('a server of the folder\'s .mcp.json');
  await expect(item.getByLabel('Address of “files” in this browser')).toHaveCount(0);
  await item.getByRole('button', { name: 'List the tools of files' }).click();
  const tools = inspector.getByRole('list', { name: 'Tools of files' });
  await expect(tools.getByRole('listitem', { name: 'Tool read_text_file' })).toContainText('read-only');
  await expect(tools.getByRole('listitem', { name: 'Tool write_file' })).toContainText('writes');
  // The marks are the server's word: the list says Loopscope cannot check them.
  await expect(item).toContainText('annotations (readOnlyHint)');
  await expect(item).toContainText('Loopscope cannot check them');
  await expect(consent(page)).toHaveCount(0);
  // Listed, the tools' annotations give the access on the canvas too: write_file says it is destructive.
  await expect(canvasNode(page, 'Act calls 2 tools on files: read_text_file read, write_file write destructive')).toBeVisible();

  // Asked once: a second run reaches the running server without a question, with what was granted.
  await button(page, 'Run').click();
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  await expect(approval).toBeVisible();
  await expect(consent(page)).toHaveCount(0);
  await expect(grant(page, 'graph.json')).toHaveCount(0);
  expect(errors).toEqual([]);

  // Ctrl-C: open stops the server it started, by its PID; nothing is left.
  const pid = Number(/started the MCP server "files" \(pid (\d+)\)/.exec(open.stderr())?.[1]);
  expect(serversFor(open.dir).map((line) => Number(line.trim().split(/\s+/)[0]))).toEqual([pid]);
  expect(await stop(open)).toBe(0);
  expect(serversFor(open.dir)).toEqual([]);
});

test('loopscope open: a server the person denies is never started, and its calls are errors that say so; the next run asks again', async ({ page }) => {
  test.slow();
  await page.goto(open.address);
  await button(page, 'Graphs').click();
  await page.getByRole('dialog', { name: 'Graphs' }).getByRole('button', { name: /^graph\.json/ }).click();
  await expect(page.getByRole('heading', { name: 'Graph Engineer on your files', exact: true })).toBeVisible();
  await button(page, 'Run').click();
  await consent(page).getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'stopped' }).first()).toBeVisible();
  await steps(page).nth(0).click();
  await expect(detail(page)).toContainText('list_directory error');
  await expect(detail(page)).toContainText('the MCP server "files" was not started: it was denied in the page');
  expect(serversFor(open.dir)).toEqual([]);

  // A denial holds for its run: the next run asks again (Esc denies too).
  await button(page, 'Run').click();
  await expect(consent(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  await expect(page.getByRole('status').filter({ hasText: 'stopped' }).first()).toBeVisible();
  expect(serversFor(open.dir)).toEqual([]);
});

test('loopscope open: a graph file only asks; after the person allowed a server for their read-only graph, another file asking workspace is asked about for itself, and granted read-only its write is denied and the file on disk is unchanged', async ({ page }) => {
  test.slow();
  // The server as .mcp.json defines it: a folder with a bidi override in its name among its args, and an environment.
  const hidden = 'notes\u202etxt.exe';
  await mkdir(join(open.dir, 'data', hidden));
  await writeFile(join(open.dir, 'data', 'a.txt'), 'mine\n');
  await writeFile(join(open.dir, '.mcp.json'), JSON.stringify({
    mcpServers: { files: { command: process.execPath, args: [FILESYSTEM_SERVER, join(open.dir, 'data'), join(open.dir, 'data', hidden)], env: { NODE_OPTIONS: '--no-warnings', NOTE: 'safe\u202egnp.exe' } } },
  }));
  // Another graph file of the folder: the same agent, asking for workspace, writing a.txt.
  const graph = JSON.parse(await readFile(join(open.dir, 'graph.json'), 'utf8'));
  graph.name = 'Tidy the notes';
  graph.permissions = { mode: 'workspace' };
  for (const entry of graph.skills.writer.script) if (entry.reply?.tool === 'write_file') entry.reply.args = { path: 'a.txt', content: 'overwritten by a graph file\n' };
  await writeFile(join(open.dir, 'evil.json'), JSON.stringify(graph, null, 2));

  await page.goto(open.address);
  await openGraph(page, 'graph.json', 'Graph Engineer on your files');
  await button(page, 'Run').click();
  // What runs is what is shown: the whole command line with the override escaped, the folder it runs in, each variable with its value.
  const question = consent(page);
  await expect(question).toContainText(`${join(open.dir, 'data')} '${join(open.dir, 'data', 'notes\\u202etxt.exe')}'`);
  await expect(question.getByRole('definition').nth(1)).toHaveText(open.dir);
  await expect(question).toContainText('NODE_OPTIONS=--no-warnings');
  await expect(question).toContainText('NOTE=safe\\u202egnp.exe');
  expect(await question.textContent()).not.toContain('\u202e');
  await question.getByRole('button', { name: 'Allow' }).click();
  await grant(page, 'graph.json').getByRole('button', { name: 'Grant read-only' }).click();
  const approval = page.getByRole('dialog', { name: 'Approval' });
  await expect(approval).toContainText('write_file');

  // The other file: the server is allowed already, but what this graph may do is asked for itself.
  await openGraph(page, 'evil.json', 'Tidy the notes');
  await button(page, 'Run').click();
  const granting = grant(page, 'evil.json');
  await expect(granting).toContainText('“Tidy the notes” (the file evil.json) asks for workspace');
  await expect(granting.getByRole('region', { name: 'Tools that write' })).toContainText('write_file on “files” (skill write_file)');
  await expect(granting).toContainText('Loopscope cannot check them');
  await expect(consent(page)).toHaveCount(0);
  await granting.getByRole('button', { name: 'Read-only only' }).click();

  // Granted read-only: the write is refused before the call (this needs the runtime's check of the grant), and a.txt is as it was.
  await expect(approval).toContainText('write_file');
  await steps(page).nth(2).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 3 · Act/ })).toBeVisible();
  await expect(detail(page)).toContainText('write_file permission_denied');
  expect(await readFile(join(open.dir, 'data', 'a.txt'), 'utf8')).toBe('mine\n');
});
