import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './test.ts';
import { securityclawAnswers, securityclawOver, startCountingService, type CountingService } from '../src/runtime/countingService.ts';
import { allowHosts, collectErrors, libraryEntries, storedSessions } from './helpers.ts';

const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' });
const steps = (page: Page) => timeline(page).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** What the page stored of the run session that has runs (each graph of the library has its own). */
const storedSession = async (page: Page) => (await storedSessions(page)).find((session) => session.runs.length > 0) ?? null;

/** The names of the graphs in the page's library. */
const libraryNames = async (page: Page) => (await libraryEntries(page)).map((entry) => entry.name);

let service: CountingService;
test.beforeAll(async () => {
  service = await startCountingService(securityclawAnswers);
});
test.afterAll(() => service.close());

test('SecurityClaw over HTTP: fork step 3 with an edited evaluation, reload mid-fork, continue — no step that ran calls the service again', async ({ page }) => {
  // A long journey (two runs over HTTP, a reload, the run restored): twice the usual budget on a loaded machine, where it took ~50 s of 60.
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const template = JSON.parse(await readFile('src/graph/templates/securityclaw.json', 'utf8'));
  const graph = { ...securityclawOver(template, service.url), name: 'SecurityClaw over HTTP' };
  await page.goto('/');
  await page.getByLabel('Import JSON').setInputFiles({ name: 'securityclaw-http.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(graph)) });
  await expect(page.getByRole('heading', { name: 'SecurityClaw over HTTP' })).toBeVisible();

  await button(page, 'Run').click();
  await allowHosts(page);
  await expect(page.getByRole('status')).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);
  expect(service.calls.map((call) => call.split('?')[0])).toEqual(['/siem', '/archive']);

  // Time travel reads checkpoints: nothing is called.
  await steps(page).nth(2).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 3 ·/ })).toBeVisible();
  await expect(detail(page).getByRole('table', { name: 'State changes' })).toContainText('empty_result');

  // The fork pauses mid-way at a breakpoint, so that the page can be reloaded mid-fork.
  const breakpoints = page.getByRole('region', { name: 'Breakpoints' });
  await breakpoints.getByLabel('Node').selectOption('recover');
  await breakpoints.getByRole('button', { name: 'Break before node' }).click();

  await detail(page).getByRole('button', { name: 'Fork from here' }).click();
  const form = detail(page).getByRole('form', { name: 'Fork from step 3' });
  const editor = form.getByLabel('State after step 3 (JSON)');
  const state = JSON.parse(await editor.inputValue());
  state.evaluation = { ...state.evaluation, plan_exhausted: false, reason: 'insufficient', reasoning: 'a person says: search again' };
  await editor.fill(JSON.stringify(state, null, 2));
  await form.getByRole('button', { name: 'Fork and continue' }).click();

  await expect(page.getByLabel('Shown run').locator('option')).toHaveText(['Run 1', 'Run 2 (fork of run 1 at step 3)']);
  await expect(page.getByRole('status')).toContainText('Paused by breakpoint on node recover');
  await expect(steps(page)).toHaveCount(6);
  // The edited evaluation took the other edge; the steps before it were not run again.
  await expect(steps(page).nth(2)).toContainText('e5');
  expect(service.calls.map((call) => call.split('?')[0])).toEqual(['/siem', '/archive', '/siem']);
  const shown = await steps(page).allInnerTexts();

  await expect.poll(() => storedSession(page)).toMatchObject({ liveRunId: 2, selectedStep: 6 });
  await expect.poll(() => libraryNames(page)).toContain('SecurityClaw over HTTP');
  await page.reload();
  await expect(page.getByLabel('Shown run').locator('option')).toHaveText(['Run 1', 'Run 2 (fork of run 1 at step 3)']);
  await expect(steps(page)).toHaveCount(6);
  expect(await steps(page).allInnerTexts()).toEqual(shown);
  await expect(button(page, 'Continue')).toBeEnabled();
  await button(page, 'Continue').click();
  // A reload forgets what was allowed: the restored run asks again before its first request.
  await allowHosts(page);
  await expect(page.getByRole('status')).toContainText('completed');
  await expect(steps(page)).toHaveCount(11);

  // Each call was made once, by the step that ran it: the original's two, then the fork's own.
  expect(service.calls).toHaveLength(4);
  expect(service.calls.map((call) => call.split('?')[0])).toEqual(['/siem', '/archive', '/siem', '/archive']);
  expect(new Set(service.calls).size).toBe(4);
  expect(errors).toEqual([]);
});
