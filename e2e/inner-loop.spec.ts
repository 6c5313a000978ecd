/**
 * Seed 003's two nested loops on screen, in the Graph Engineer template: iterations of a node's
 * inner loop nested in its step with the max_iter gauge, a loop that hits max_iter and routes on
 * error, a denied tool call inside an iteration, and a VERIFY judge sending the run back to REASON.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors } from './helpers.ts';

const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const stopStatus = (page: Page) => page.getByRole('status');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const iterations = (page: Page) => detail(page).getByRole('list', { name: 'Iterations' }).getByRole('listitem');
const gauge = (page: Page) => detail(page).getByRole('meter', { name: 'Iterations of max_iter' });

const runScenario = async (page: Page, scenario: string | null) => {
  await page.goto('/?template=graph-engineer');
  await expect(page.getByRole('heading', { name: 'Graph Engineer' })).toBeVisible();
  if (scenario) await page.getByRole('combobox', { name: /^Scenario/ }).selectOption(scenario);
  await button(page, 'Run').click();
};

test('the VERIFY judge sends the run back to REASON; the Act step shows its iterations nested, with the max_iter gauge', async ({ page }) => {
  // A whole run and many checks of the step detail in one journey: room for a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await runScenario(page, null);
  await expect(stopStatus(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);

  // Step 4: the judge found the evidence insufficient, and the otherwise edge went back to Reason.
  await steps(page).nth(3).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 4 · Verify/ })).toBeVisible();
  await expect(detail(page)).toContainText('Outcome: continue');
  await expect(detail(page).locator('.fired-edge')).toHaveText('g5');
  await expect(detail(page)).toContainText('the judge reviewer: only package.json was searched');
  await expect(detail(page).getByText('Given to reviewer: results, execution_error, collected')).toBeVisible();
  await expect(steps(page).nth(4)).toContainText('Reason');

  // Step 6: the second Act visit, three iterations of at most four: reply → tool call → attempts.
  await steps(page).nth(5).click();
  await expect(detail(page).getByRole('heading', { name: 'Inner loop' })).toBeVisible();
  await expect(gauge(page)).toHaveAttribute('value', '3');
  await expect(gauge(page)).toHaveAttribute('max', '4');
  await expect(iterations(page)).toHaveCount(3);
  await expect(iterations(page).nth(0)).toHaveAccessibleName('Iteration 1: call grep_repo → ok');
  await expect(iterations(page).nth(1)).toHaveAccessibleName('Iteration 2: call read_file → ok');
  await expect(iterations(page).nth(2)).toHaveAccessibleName('Iteration 3: done → done');
  await expect(detail(page).getByRole('table', { name: 'Attempts of iteration 2' }).getByRole('row')).toHaveCount(3);

  // The rounds overview: one row per round, with its path, outcome and cost.
  await page.getByText('Rounds overview (1)').click();
  const rounds = page.getByRole('table', { name: 'Rounds' });
  await expect(rounds.getByRole('row')).toHaveCount(2);
  await expect(rounds).toContainText('Collect → Reason → Act → Verify → Reason → Act → Verify → Report');
  await expect(rounds).toContainText('stopped: completed');
  expect(errors).toEqual([]);
});

test('an inner loop that hits max_iter routes on error, and the final response is still written', async ({ page }) => {
  const errors = collectErrors(page);
  await runScenario(page, 'the inner loop hits max_iter and routes on error');
  await expect(stopStatus(page)).toContainText('gave_up');
  await expect(steps(page)).toHaveCount(5);
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Outcome: max_iter');
  await expect(detail(page)).toContainText('max_iter reached: 4 iteration(s) without done');
  await expect(gauge(page)).toHaveAttribute('value', '4');
  await expect(detail(page)).toContainText('4 of max_iter 4 — reached without done');
  await expect(detail(page).locator('.fired-edge')).toHaveText('g8');
  await steps(page).nth(4).click();
  await expect(detail(page)).toContainText('finally: the final response, written after the run stopped');
  expect(errors).toEqual([]);
});

test('a denied tool call inside an iteration goes to a person, who denies it', async ({ page }) => {
  const errors = collectErrors(page);
  await runScenario(page, 'a denied tool call inside an iteration goes to a person');
  await expect(detail(page).getByRole('button', { name: 'Deny' })).toBeVisible();
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Outcome: denied');
  await expect(iterations(page).nth(1)).toHaveAccessibleName('Iteration 2: call apply_patch → permission_denied');
  await expect(detail(page).getByRole('table', { name: 'Attempts of iteration 2' })).toContainText('read-only mode does not allow write access');
  await detail(page).getByRole('button', { name: 'Deny' }).click();
  await expect(stopStatus(page)).toContainText('gave_up');
  await expect(steps(page)).toHaveCount(6);
  expect(errors).toEqual([]);
});
