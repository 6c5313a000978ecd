/**
 * The debugger attached to a LangGraph server: `loopscope serve` (started here, on a free port or
 * E2E_SERVER_PORT) serves the SecurityClaw export; the page connects to it, runs a thread there,
 * shows it with the timeline, attempts and fired edges of a local run, steps it, and forks it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from './test.ts';
import { collectErrors } from './helpers.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
let server: ChildProcess | undefined;
let url = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = process.env.E2E_SERVER_PORT ? ['--port', process.env.E2E_SERVER_PORT] : [];
  server = spawn(process.execPath, ['bin/loopscope.mjs', 'serve', 'src/graph/templates/securityclaw.json', 'src/graph/templates/approval-gate.json', ...port], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
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
  await panel(page).getByLabel('State edits (JSON)').fill(JSON.stringify({ results: [{ skill: 'search_events', args: {}, outcome: 'ok', records: [{ ip: '10.0.0.5' }], attempts: 1 }] }));
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
