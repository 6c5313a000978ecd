import { expect, test, type Page } from './test.ts';

const canvasNode = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });

test.beforeEach(async ({ page }) => {
  // A fresh template each time, whatever an earlier journey autosaved.
  await page.goto('/?template=securityclaw');
  await expect(canvasNode(page, 'execute')).toBeVisible();
});

test('changing a node setting in the inspector changes its summary; a bad value is refused inline', async ({ page }) => {
  await canvasNode(page, 'execute').click();
  const panel = inspector(page);
  await expect(panel.getByLabel('Id')).toHaveValue('execute');

  const attempts = panel.getByLabel('Max attempts');
  await attempts.fill('5');
  await expect(canvasNode(page, 'execute')).toContainText('retry ×5');

  await attempts.fill('0');
  await expect(attempts).toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByText('retry.maxAttempts: must be at least 1')).toBeVisible();
  await expect(canvasNode(page, 'execute')).toContainText('retry ×5');

  await attempts.fill('three');
  await expect(panel.getByText('"three" is not a number')).toBeVisible();
  await expect(canvasNode(page, 'execute')).toContainText('retry ×5');
});

test('renaming a node keeps its edges and the entry', async ({ page }) => {
  await canvasNode(page, 'decide').click();
  const id = inspector(page).getByLabel('Id');
  await id.fill('execute');
  await expect(inspector(page).getByText('"execute" is taken')).toBeVisible();
  await id.fill('plan_next');
  await id.press('Enter');
  await expect(page.getByRole('group', { name: 'Edge from plan_next to execute' })).toBeAttached();
  await expect(page.getByRole('group', { name: 'Edge from evaluate to plan_next' })).toBeAttached();
  await expect(inspector(page).getByText('This node is the entry')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('Problems (0)');
});

test('editing an edge condition relabels the edge', async ({ page }) => {
  const edge = page.getByRole('group', { name: 'Edge from evaluate to answer' });
  await edge.focus();
  await page.keyboard.press('Enter');
  const panel = inspector(page);
  await expect(panel.getByText('Tried 1st of 4')).toBeVisible();
  await panel.getByLabel('Fires when').selectOption('field');
  await panel.getByLabel('Field path').fill('evaluation.evidence_sufficient');
  await expect(page.locator('.edge-label[data-edge-id="e3"]')).toContainText('evidence_sufficient');

  await panel.getByLabel('Field path').fill('evaluation..bad');
  await expect(panel.getByLabel('Field path')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.edge-label[data-edge-id="e3"]')).toContainText('evidence_sufficient');

  await panel.getByRole('button', { name: 'Try later' }).click();
  await expect(panel.getByText('Tried 2nd of 4')).toBeVisible();
});

test('a condition on a list: contains asks whether recovery.tried holds an action, and validation checks its field', async ({ page }) => {
  const edge = page.getByRole('group', { name: 'Edge from evaluate to answer' });
  await edge.focus();
  await page.keyboard.press('Enter');
  const panel = inspector(page);
  await panel.getByLabel('Fires when').selectOption('field');
  await panel.getByLabel('Field path').fill('recovery.tried');
  const operator = panel.getByLabel('Operator');
  await expect(operator.getByRole('option', { name: 'contains (the list at the path holds the value)' })).toBeAttached();
  await operator.selectOption('contains');
  await panel.getByLabel('Value').fill('expand_search_scope');
  await expect(page.locator('.edge-label[data-edge-id="e3"]')).toContainText('tried contains "expand_search_scope"');
  const problems = page.getByRole('region', { name: 'Problems' });
  await expect(problems).not.toContainText('bad_operand');

  // A text is never a list: contains would never match, and the Problems panel says so.
  await panel.getByLabel('Field path').fill('evaluation.reason');
  await expect(problems).toContainText('bad_operand');
  await expect(problems).toContainText('"evaluation.reason" is never a list');
});

test('clicking a problem selects its node', async ({ page }) => {
  // An outcome without an edge is a problem the panel lists.
  const edge = page.getByRole('group', { name: 'Edge from recover to halt' });
  await edge.focus();
  await page.keyboard.press('Enter');
  await inspector(page).getByRole('button', { name: 'Delete edge' }).click();

  const problems = page.getByRole('region', { name: 'Problems' });
  await expect(problems).toContainText('unrouted_outcome');
  await problems.getByRole('button', { name: /unrouted_outcome/ }).first().click();
  await expect(inspector(page).getByLabel('Id')).toHaveValue('recover');
  await expect(canvasNode(page, 'recover')).toHaveClass(/selected/);
});
