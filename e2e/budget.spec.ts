/**
 * Seed 001 §6 on screen, in the template "Budget: evaluate, then stop": the graph's settings say
 * what a spent budget does, and under onBudget "evaluate" the run's steps say it: the second action
 * is not called, Evaluate still judges what was gathered, then the run stops budget_exhausted.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors, runScenarioTo } from './helpers.ts';

const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });

test('the budget spent between two actions: no further call, Evaluate still judges what was gathered, then the run stops', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=budget-evaluate');
  await expect(page.getByRole('heading', { name: 'Budget: evaluate, then stop' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Inspector' }).getByLabel('When the budget is spent')).toHaveValue('evaluate');

  await runScenarioTo(page, 'the budget spent between two actions: the second is not called, Evaluate judges the first\'s records, then the run stops', 'budget_exhausted');
  await expect(steps(page)).toHaveCount(4);
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('1 later action(s) not called: the budget is spent');
  await expect(detail(page)).toContainText('the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node evaluate still judges what was gathered, then the run stops');
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Outcome: sufficient');
  await expect(detail(page)).toContainText('the Verify node evaluate judged what was gathered, then the run stops');
  expect(errors).toEqual([]);
});
