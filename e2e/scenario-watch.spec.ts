import { collectErrors, dragEdgeTarget, flowNode } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/** Issue 56: the graph's scenarios re-run after each edit, in a worker; what an edit breaks is marked on the canvas before any Run. */
test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });
/** The header's count, in the words it is read out in (at 1280 px only the count is drawn). */
const count = (page: Page) => page.locator('.scenario-watch-count');
const countWords = (page: Page) => count(page).locator('.scenario-watch-words');
const marks = (page: Page) => page.locator('.scenario-watch-mark');
const escaped = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
/** The mark on a node or an edge: one per element, its title listing every scenario's words there. */
const expectMark = async (page: Page, on: string, words: string) => {
  const found = page.getByRole('img', { name: `Scenario mark on ${on}:` });
  await expect(found).toBeVisible();
  await expect(found).toHaveAttribute('title', escaped(words));
};
// A time budget no loaded machine runs out of: what a run shows is then the same on every machine.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('loopscope:scenario-watch')) localStorage.setItem('loopscope:scenario-watch', JSON.stringify({ budgetMs: 60_000 }));
  });
});

/** The first run loads the runtime into the worker (a megabyte of script): on a loaded machine, seconds. */
const FIRST_RUN_MS = 30_000;
const TIMEOUT = 'a timeout triggers a local retry that touches only the current tool call';
const FIRST = "VERIFY's tool says not ok: back to REASON, then ok: the report";

const lowerActAttempts = async (page: Page) => {
  await flowNode(page, 'run').locator('.agent-node-label').click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('run');
  await inspector(page).getByLabel('Max attempts').fill('1');
};

test('Graph Engineer: lowering Act’s Max attempts and rerouting an edge mark, without a Run, where each broken scenario parts; Undo takes every mark away', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=graph-engineer');
  await expect(countWords(page)).toHaveText('Scenarios: 15 of 15 pass', { timeout: FIRST_RUN_MS });

  await lowerActAttempts(page);
  await expect(countWords(page)).toHaveText('Scenarios: 12 of 15 pass');
  await expectMark(page, 'node run', `‘${TIMEOUT}’ parts here: now takes g6 (empty); expected g3 (ok)`);
  await expectMark(page, 'edge g6', `‘${TIMEOUT}’ now takes g6 (empty) here; expected g3 (ok)`);
  // Nothing was run in the page: the marks came from the worker.
  await expect(page.getByLabel('Shown run')).toHaveCount(0);

  await page.getByRole('button', { name: /^Show Scenarios/ }).click();
  const item = page.getByRole('list', { name: 'Scenario list' }).getByRole('listitem').filter({ hasText: TIMEOUT });
  await expect(item).toContainText("broke after: Act's Max attempts 2 → 1");
  await item.getByRole('button', { name: `Open ${TIMEOUT} at its divergent step beside the run it expected` }).click();
  await expect(page.getByRole('region', { name: 'Run comparison' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Run comparison' }).getByRole('heading', { name: /^At step 3/ })).toBeVisible();

  await button(page, 'Close comparison').click();
  await button(page, 'Undo').click();
  await expect(countWords(page)).toHaveText('Scenarios: 15 of 15 pass');
  await expect(marks(page)).toHaveCount(0);

  // Reroute Act's "ok" edge from Verify to Give up, by its target end.
  const edge = page.getByRole('group', { name: 'Edge from run to check' });
  await edge.locator('.react-flow__edge-path').first().click({ force: true });
  await dragEdgeTarget(page, page.getByTestId('rf__edge-g3'), 'halt');
  await expect(countWords(page)).toHaveText(/^Scenarios: \d+ of 15 pass$/);
  await expect(countWords(page)).not.toHaveText('Scenarios: 15 of 15 pass');
  await expectMark(page, 'edge g3', `‘${FIRST}’ takes g3 (ok) here and now goes on to Give up; expected Verify`);
  await expectMark(page, 'node run', `‘${FIRST}’ parts here: now goes on to Give up; expected Verify`);
  await expectMark(page, 'node check', `‘${FIRST}’ no longer reaches Verify`);

  await button(page, 'Undo').click();
  await expect(countWords(page)).toHaveText('Scenarios: 15 of 15 pass');
  await expect(marks(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a stale result is never shown: an edit overtaken by its Undo while the worker is slow never shows its count or its marks', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=graph-engineer');
  await expect(countWords(page)).toHaveText('Scenarios: 15 of 15 pass', { timeout: FIRST_RUN_MS });
  // Every count the header shows from now on, kept.
  await page.evaluate(() => {
    sessionStorage.setItem('loopscope:scenario-watch-delay-ms', '1500');
    const seen: string[] = [];
    (window as unknown as { seenCounts: string[] }).seenCounts = seen;
    const header = document.querySelector('.app-header')!;
    new MutationObserver(() => seen.push(document.querySelector('.scenario-watch-words')?.textContent ?? '')).observe(header, { subtree: true, childList: true, characterData: true });
  });
  const before = Number(await count(page).getAttribute('data-version'));

  await lowerActAttempts(page);
  // The broken version is in the worker, waiting: Undo overtakes it.
  await expect(count(page)).toHaveAttribute('aria-busy', 'true');
  await button(page, 'Undo').click();
  await expect(countWords(page)).toHaveText('Scenarios: 15 of 15 pass');
  // The result shown is for the newest edit: two edits after the first result.
  await expect(count(page)).toHaveAttribute('data-version', String(before + 2));
  const seen = await page.evaluate(() => (window as unknown as { seenCounts: string[] }).seenCounts);
  expect(seen.filter((text) => text.includes(' of '))).toEqual(['Scenarios: 15 of 15 pass']);
  await expect(marks(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the panel: an edit that changes no path says so, the switch pauses, a path before and after the edit is compared, a time budget says where it stopped', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=graph-engineer');
  await expect(countWords(page)).toHaveText('Scenarios: 15 of 15 pass', { timeout: FIRST_RUN_MS });
  await page.getByRole('button', { name: /^Show Scenarios/ }).click();
  const scenarios = page.getByRole('region', { name: 'Scenarios' });
  // Verify's label: no scenario's path changes.
  await flowNode(page, 'check').locator('.agent-node-label').click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('check');
  await inspector(page).getByLabel('Max attempts').fill('5');
  await expect(scenarios.getByRole('list', { name: 'Re-run on edit' })).toContainText('The last edit changes no scenario’s path.');

  await scenarios.getByRole('switch', { name: 'Re-run scenarios on each edit' }).uncheck();
  await expect(countWords(page)).toHaveText('Scenarios: paused');
  await lowerActAttempts(page);
  await expect(countWords(page)).toHaveText('Scenarios: paused');
  await expect(marks(page)).toHaveCount(0);
  await scenarios.getByRole('switch', { name: 'Re-run scenarios on each edit' }).check();
  await expect(countWords(page)).toHaveText('Scenarios: 12 of 15 pass');
  // Its path before the edit and after it, in Compare runs.
  const item = scenarios.getByRole('list', { name: 'Scenario list' }).getByRole('listitem').filter({ hasText: TIMEOUT });
  await item.getByRole('button', { name: `Compare ${TIMEOUT} before and after the edit` }).click();
  const comparison = page.getByRole('region', { name: 'Run comparison' });
  await expect(comparison.getByRole('table', { name: 'Graph differences' })).toContainText("Act's Max attempts21");
  await expect(comparison.getByRole('heading', { name: /^At step 3/ })).toBeVisible();
  await button(page, 'Close comparison').click();

  // A budget the scenarios of an edit cannot keep: where it stopped, said.
  await scenarios.getByLabel('Time budget per edit (ms)').fill('10');
  await expect(scenarios.getByRole('list', { name: 'Re-run on edit' })).toContainText(/Stopped at ‘.+’: the time budget of 10 ms ran out/);
  await expect(countWords(page)).toHaveText(/^Scenarios: \d+ of 15 pass, \d+ not run \(time budget\)$/);
  expect(errors).toEqual([]);
});
