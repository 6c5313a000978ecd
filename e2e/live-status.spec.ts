import { readFile } from 'node:fs/promises';
import type { Route } from '@playwright/test';
import { expect, test, type Page } from './test.ts';
import { allowHosts, collectErrors, flowNode } from './helpers.ts';

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const timelineSteps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
/** The words above a node on the canvas, each a list item named by its whole sentence. */
const statusOf = (page: Page, id: string) => flowNode(page, id).getByRole('list', { name: `Run status of ${id}` });
const chip = (page: Page, id: string, name: string | RegExp) => statusOf(page, id).getByRole('listitem', { name, exact: typeof name === 'string' });
const canvasChips = (page: Page, name: string) => page.locator('.react-flow').getByRole('listitem', { name, exact: true });

const step = async (page: Page, count: number) => {
  await button(page, 'Step').click();
  await expect(timelineSteps(page)).toHaveCount(count);
};

test('stepping SecurityClaw: the node the run goes on with, the retried attempt, what each node wrote', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(flowNode(page, 'decide')).toBeVisible();
  await expect(statusOf(page, 'decide')).toHaveCount(0);

  await step(page, 1);
  await expect(chip(page, 'decide', 'wrote plan')).toHaveText('wrote plan');
  await expect(chip(page, 'execute', 'runs next')).toBeVisible();

  // The timeout was retried in place: the execute step took its second attempt of three, and wrote two fields.
  await step(page, 2);
  await expect(statusOf(page, 'execute').getByRole('listitem')).toHaveText(['attempt 2 of 3', 'wrote 2 fields']);
  await expect(chip(page, 'execute', 'took 2 attempts of 3')).toBeVisible();
  await expect(chip(page, 'execute', 'wrote results, execution_error')).toBeVisible();
  await expect(chip(page, 'execute', 'runs next')).toHaveCount(0);
  await expect(chip(page, 'evaluate', 'runs next')).toBeVisible();

  // Back to step 1 in the timeline: the canvas shows the nodes as that step left them.
  await timelineSteps(page).first().click();
  await expect(statusOf(page, 'execute')).toHaveCount(0);
  await expect(chip(page, 'decide', 'wrote plan')).toBeVisible();
  // The live run still goes on with evaluate.
  await expect(chip(page, 'evaluate', 'runs next')).toBeVisible();
  expect(errors).toEqual([]);
});

test('an error the budget cannot recover from: the execute node failed, the stop node ran and wrote nothing, unlike a node that wrote', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await page.getByRole('combobox', { name: /^Scenario/ }).selectOption('recovery skips a rule the budget left cannot pay');
  await step(page, 1);
  await step(page, 2);
  await expect(chip(page, 'execute', 'failed: error')).toHaveText('failed: error');
  // The node itself is marked, not only its words.
  await expect(flowNode(page, 'execute').locator('.agent-node')).toHaveCSS('border-top-color', 'rgb(248, 113, 113)');
  await step(page, 3);
  await step(page, 4);
  await step(page, 5);
  const halt = chip(page, 'halt', /^wrote nothing/);
  await expect(halt).toHaveText('wrote nothing');
  const wrote = chip(page, 'recover', 'wrote recovery, failures');
  await expect(wrote).toHaveText('wrote 2 fields');
  // Told apart by more than the words: the chip of a node that wrote nothing is drawn hollow and dotted.
  expect(await halt.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('dotted');
  expect(await wrote.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
  expect(errors).toEqual([]);
});

test('an animated run shows the one node running now; paused, the node it goes on with', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  // A run that keeps failing for five rounds, 600 ms a node: long enough to watch it and pause it.
  await page.getByRole('combobox', { name: /^Scenario/ }).selectOption('max rounds forces stop');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: 'Slow (600 ms a step)' });
  await button(page, 'Run').click();
  await expect(canvasChips(page, 'running')).toHaveCount(1);
  await expect(timelineSteps(page).nth(1)).toBeVisible();
  await button(page, 'Pause').click();
  await expect(button(page, 'Continue')).toBeEnabled();
  await expect(canvasChips(page, 'running')).toHaveCount(0);
  await expect(canvasChips(page, 'runs next')).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('a skill retried in place: while the retry waits for its answer, the node says it runs its second attempt of three', async ({ page }) => {
  const errors = collectErrors(page);
  const template = JSON.parse(await readFile('src/graph/templates/securityclaw.json', 'utf8'));
  // The SIEM search over HTTP: its first answer is not JSON (a parse_error, retried in place), the second waits for the journey.
  const graph = { ...template, name: 'SecurityClaw, slow SIEM', skills: { ...template.skills, search_events: { type: 'http', access: 'read', tokens: 100, method: 'GET', timeoutMs: 60_000, url: 'http://siem.test/search?q={{args.q}}' } } };
  let calls = 0;
  let held: Route | null = null;
  await page.route('http://siem.test/**', (route) => {
    calls += 1;
    if (calls === 1) return route.fulfill({ status: 200, contentType: 'text/html', headers: { 'access-control-allow-origin': '*' }, body: '<html>busy</html>' });
    held = route;
    return undefined;
  });
  await page.goto('/');
  await page.getByLabel('Import JSON').setInputFiles({ name: 'slow-siem.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(graph)) });
  await expect(page.getByRole('heading', { name: 'SecurityClaw, slow SIEM' })).toBeVisible();

  await button(page, 'Run').click();
  await allowHosts(page);
  await expect.poll(() => held !== null).toBe(true);
  await expect(chip(page, 'execute', 'running')).toBeVisible();
  await expect(chip(page, 'execute', 'attempt 2 of 3 running')).toHaveText('attempt 2 of 3');
  await expect(canvasChips(page, 'running')).toHaveCount(1);

  await held!.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify([{ ip: '10.0.0.5', event: 'login_failed' }, { ip: '10.0.0.5', event: 'login_failed', user: 'root' }]) });
  await expect(page.getByRole('status').filter({ hasText: 'completed' })).toBeVisible();
  await expect(canvasChips(page, 'running')).toHaveCount(0);
  await expect(statusOf(page, 'execute').getByRole('listitem')).toHaveText(['attempt 2 of 3', 'wrote 2 fields']);
  expect(errors).toEqual([]);
});
