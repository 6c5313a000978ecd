import { collectErrors } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/** Issue 53, #10: a failed scenario and a comparison of two runs lead with the cause, at the size a laptop shows. */
test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const scenarios = (page: Page) => page.getByRole('region', { name: 'Scenarios' });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });
const canvasNode = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);

/** SecurityClaw run as shipped, then saved from the Scenarios panel as the scenario "as it ran". */
const saveRunAsScenario = async (page: Page) => {
  await page.goto('/?template=securityclaw');
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toContainText('completed');
  await page.getByRole('button', { name: /^Show Scenarios/ }).click();
  await button(page, 'Save as scenario').click();
  const dialog = page.getByRole('dialog', { name: 'Save as scenario' });
  await dialog.getByLabel('Scenario name').fill('as it ran');
  await dialog.getByRole('button', { name: 'Save scenario' }).click();
  await expect(dialog).toBeHidden();
};

/** The graph's settings in the inspector: a click on the empty canvas. */
const openGraphSettings = async (page: Page) => {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  await page.mouse.click(pane.x + pane.width - 40, pane.y + pane.height - 40);
  await expect(inspector(page).getByText('Graph settings')).toBeVisible();
};

test('a run saved as a scenario, then Act’s Max attempts lowered: the scenario leads with the step where it parts from the saved run, its edges and outcomes, and the setting that made it', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await saveRunAsScenario(page);

  await canvasNode(page, 'execute').locator('.agent-node-label').click();
  await inspector(page).getByLabel('Max attempts').fill('1');
  await expect(canvasNode(page, 'execute')).not.toContainText('retry ×3');

  await scenarios(page).getByRole('button', { name: 'Run scenario as it ran' }).click();
  const item = scenarios(page).getByRole('list', { name: 'Scenario list' }).getByRole('listitem').filter({ hasText: 'as it ran' });
  await expect(item).toContainText('failed at step 2');
  await expect(item.locator('.scenario-cause')).toHaveText("parts at step 2: Execute skill took e2 (error) after 1 attempt(s), the saved run took e2 (empty) after 2 attempt(s). Execute skill's Max attempts is 1; the saved run needed 2");
  expect(errors).toEqual([]);
});

test('a run saved as a scenario, then Max rounds lowered in the graph settings: the lead says how many rounds the saved run ran', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await saveRunAsScenario(page);

  await openGraphSettings(page);
  await inspector(page).getByLabel('Max rounds').fill('1');

  await scenarios(page).getByRole('button', { name: 'Run scenario as it ran' }).click();
  const item = scenarios(page).getByRole('list', { name: 'Scenario list' }).getByRole('listitem').filter({ hasText: 'as it ran' });
  await expect(item.locator('.scenario-cause')).toHaveText(/\. The Max rounds is 1; the saved run ran [2-9] round\(s\)$/);
  expect(errors).toEqual([]);
});

test('two runs whose graphs differ (token budget 2000, then 250): Compare runs lists the graphs’ differences first', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toContainText('completed');

  await openGraphSettings(page);
  await inspector(page).getByLabel('Token budget').fill('250');
  await button(page, 'Run').click();
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  // The recovery's 150 tokens no longer fit: the run stops where the first one recovered.
  await expect(page.getByRole('status')).toContainText('no_recovery_path');

  await page.getByRole('button', { name: /^Show Scenarios/ }).click();
  await button(page, 'Compare runs').click();
  const comparison = page.getByRole('region', { name: 'Run comparison' });
  const graphs = comparison.getByRole('table', { name: 'Graph differences' });
  await expect(graphs.getByRole('row')).toHaveText(['SettingRun 1Run 2', 'the Token budget2000250']);
  // First: above where the runs part and the state there.
  const graphsTop = (await graphs.boundingBox())!.y;
  const partingTop = (await comparison.getByRole('heading', { name: /^At step/ }).boundingBox())!.y;
  expect(graphsTop).toBeLessThan(partingTop);
  expect(errors).toEqual([]);
});
