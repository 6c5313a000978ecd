/**
 * The debugger attached to a LangGraph server: `loopscope serve` (started here, on a free port or
 * E2E_SERVER_PORT) serves the SecurityClaw export; the page connects to it, runs a thread there,
 * shows it with the timeline, attempts and fired edges of a local run, steps it, and forks it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@langchain/langgraph-sdk';
import { expect, test, type Page } from './test.ts';
import { collectErrors } from './helpers.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
let server: ChildProcess | undefined;
let url = '';

/**
 * A search service that holds every answer until the journey opens its gate: a run on it is
 * surely still going when the page opens its thread, however loaded the machine.
 */
let held: Server | undefined;
let openGate = () => {};
const gate = new Promise<void>((resolve) => (openGate = resolve));
let folder = '';

/** A loop that never has enough records: a few rounds of one search each, then its round guard. */
const slowLoop = (service: string) => ({
  format: 'loopscope/graph', version: 1, name: 'Slow loop', entry: 'plan', limits: { maxRounds: 4, maxSteps: 20 },
  skills: { search: { type: 'http', access: 'read', method: 'GET', timeoutMs: 60_000, url: `${service}/search` } },
  nodes: [
    { id: 'plan', kind: 'reason', position: { x: 0, y: 0 }, config: { plans: [{ actions: [{ skill: 'search' }] }] } },
    { id: 'act', kind: 'act', position: { x: 300, y: 0 } },
    { id: 'verify', kind: 'verify', position: { x: 600, y: 0 }, config: { minRecords: 5000 } },
    { id: 'done', kind: 'respond', position: { x: 900, y: 0 } },
  ],
  edges: [
    { id: 'l1', source: 'plan', target: 'act' },
    { id: 'l2', source: 'act', target: 'verify' },
    { id: 'l3', source: 'verify', target: 'done', when: { outcome: 'sufficient' } },
    { id: 'l4', source: 'verify', target: 'plan', when: 'otherwise' },
  ],
});

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = process.env.E2E_SERVER_PORT ? ['--port', process.env.E2E_SERVER_PORT] : [];
  const search = createServer((_request, response) => void gate.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('[{"hit": 1}]')));
  held = search;
  await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve));
  const address = search.address();
  folder = await mkdtemp(join(tmpdir(), 'loopscope-e2e-'));
  const slow = join(folder, 'slow-loop.json');
  const searchOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await writeFile(slow, JSON.stringify(slowLoop(searchOrigin)));
  // The person allows the host the slow loop's search skill contacts: a graph file cannot.
  server = spawn(process.execPath, ['bin/loopscope.mjs', 'serve', 'src/graph/templates/securityclaw.json', 'src/graph/templates/approval-gate.json', slow, '--host', searchOrigin, ...port], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const child = server;
  let output = '';
  url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      const found = /LangGraph server: (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]);
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('exit', (code) => reject(new Error(`loopscope serve exited (${code}):\n${output}`)));
  });
});

test.afterAll(async () => {
  openGate();
  held?.closeAllConnections();
  held?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
  const child = server;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // As Ctrl-C would: serve stops its LangGraph server by that server's PID, then exits.
  child.kill('SIGINT');
  await exited;
});

const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' });
const steps = (page: Page) => timeline(page).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const panel = (page: Page) => page.getByRole('dialog', { name: 'LangGraph server' });
const button = (page: Page, name: string) => panel(page).getByRole('button', { name, exact: true });

/** From a blank canvas: Connect to a LangGraph server → the URL → Connect → the graph. */
const attach = async (page: Page, graphId: string) => {
  await page.goto('/?template=blank');
  await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
  await panel(page).getByLabel('Server URL').fill(url);
  await button(page, 'Connect').click();
  await expect(panel(page)).toContainText(`Connected to ${url}`);
  await panel(page).getByLabel('Server graph').selectOption(graphId);
};

test('connect to a LangGraph server, run SecurityClaw there, read its steps and why, step a thread, fork it', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'securityclaw-triage');
  // The export carries its graph file: the canvas draws SecurityClaw with its conditions.
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();

  await button(page, 'New run on server').click();
  await expect(panel(page)).toContainText('ended');
  await expect(steps(page)).toHaveCount(8);
  await expect(page.getByRole('status')).toContainText('completed');
  const attempts = steps(page).nth(1).getByRole('group', { name: 'Attempts of step 2' });
  await expect(attempts).toContainText('timeout');
  await expect(attempts).toContainText('SIEM did not answer within 5s');
  await steps(page).nth(2).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 3 ·/ })).toContainText('Evaluate');
  await expect(detail(page)).toContainText('evaluation.plan_exhausted eq true (was true)');
  await expect(page.locator('.react-flow__edge[data-id="e4"]')).toHaveClass(/\bfired\b/);
  await expect(page.locator('.react-flow__node[data-id="evaluate"]')).toHaveClass(/\bcurrent\b/);
  await expect(panel(page).getByRole('list', { name: 'Threads' }).getByRole('listitem')).toHaveCount(1);

  // Step: a new thread, one node at a time (interruptBefore on the server).
  await button(page, 'Step on server').click();
  await expect(steps(page)).toHaveCount(1);
  await expect(panel(page)).toContainText('paused before execute');
  await button(page, 'Step on server').click();
  await expect(steps(page)).toHaveCount(2);
  await expect(panel(page)).toContainText('paused before evaluate');

  // Fork after step 2 with the search's result found: evaluate answers at once, no skill runs again.
  await steps(page).nth(1).click();
  await panel(page).getByLabel('State edits (JSON)').fill(JSON.stringify({ results: [{ skill: 'search_events', args: {}, outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }], attempts: 1 }] }));
  await button(page, 'Fork on server from step 2').click();
  await expect(panel(page)).toContainText('ended');
  await expect(steps(page)).toHaveCount(4);
  await expect(steps(page).nth(3)).toContainText('Format response');
  await expect(page.getByRole('status')).toContainText('completed');
  await expect(panel(page).getByRole('list', { name: 'Threads' }).getByRole('listitem')).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('a run on the server waits before an approve node; Approve on server lets it go on, Deny stops it', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'approval-gate');
  await expect(page.getByRole('heading', { name: 'Approval gate' })).toBeVisible();

  await button(page, 'New run on server').click();
  await expect(panel(page)).toContainText('paused before ask');
  await expect(steps(page)).toHaveCount(2);
  await button(page, 'Approve on server').click();
  await expect(panel(page)).toContainText('ended');
  await expect(steps(page)).toHaveCount(5);
  await expect(steps(page).nth(2)).toContainText('approved');
  await expect(page.getByRole('status')).toContainText('completed');

  await button(page, 'New run on server').click();
  await expect(panel(page)).toContainText('paused before ask');
  await button(page, 'Deny on server').click();
  await expect(panel(page)).toContainText('ended');
  await expect(steps(page)).toHaveCount(4);
  await expect(page.getByRole('status')).not.toContainText('completed');
  expect(errors).toEqual([]);
});

test('a node breakpoint set in the page stops a run of a Loopscope export on the server before the node; Continue on server goes on', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'approval-gate');
  await expect(page.getByRole('heading', { name: 'Approval gate' })).toBeVisible();
  const breakpoints = page.getByRole('region', { name: 'Breakpoints' });
  await breakpoints.getByLabel('Node').selectOption('apply');
  await breakpoints.getByRole('button', { name: 'Break before node' }).click();
  await expect(breakpoints).toContainText('before node apply runs');

  await button(page, 'New run on server').click();
  await expect(panel(page)).toContainText('paused before apply');
  await expect(steps(page)).toHaveCount(1);
  await button(page, 'Continue on server').click();
  await expect(panel(page)).toContainText('paused before ask');
  await expect(steps(page)).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('a run started elsewhere (here: the SDK) is followed live when its thread is opened', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'slow-loop');
  const api = new Client({ apiUrl: url });
  const thread = await api.threads.create();
  const run = await api.runs.create(thread.thread_id, 'slow-loop', { input: {} });

  await button(page, 'Refresh threads').click();
  await button(page, `Open thread ${thread.thread_id.slice(-8)}`).click();
  // The run waits on its first search, held: the page shows it going on, joined.
  await expect(panel(page)).toContainText(`following run ${run.run_id.slice(-8)}, started elsewhere`);
  await expect(button(page, 'New run on server')).toBeDisabled();
  await expect(steps(page)).toHaveCount(1);

  openGate();
  // Nothing pressed: the steps arrive as the server runs them, to the round guard.
  await expect(panel(page)).toContainText('ended', { timeout: 60_000 });
  await expect(page.getByRole('status')).toContainText('max_rounds');
  await expect(steps(page)).toHaveCount(13);
  expect(errors).toEqual([]);
});

test('the debugger\'s own controls drive the open thread as they drive a run here: F10 steps it, its approval prompt answers it', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'approval-gate');
  await button(page, 'Step on server').click();
  await expect(steps(page)).toHaveCount(1);
  await expect(panel(page)).toContainText('paused before');
  await button(page, 'Close').click();

  // F10, as on a run in the page: one node on the server's thread, which pauses before the approve node.
  await page.keyboard.press('F10');
  await expect(steps(page)).toHaveCount(2);
  const prompt = page.getByRole('dialog', { name: 'Approval' });
  await expect(prompt).toContainText('Approval needed at ask');
  await prompt.getByRole('button', { name: 'Approve the action' }).click();
  await expect(steps(page)).toHaveCount(5);
  await expect(steps(page).nth(2)).toContainText('approved');
  await expect(page.getByRole('status')).toContainText('completed');
  expect(errors).toEqual([]);
});
