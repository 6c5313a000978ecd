/**
 * Issue 53 at 1280×720: the traps a person met building and debugging a graph by mouse, each
 * walked through as they met it.
 */
import { expect, test, type Page } from './test.ts';
import { dropKind, flowNode } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });

test('after undoing an added node, a click selects one node and C connects from it; redo keeps the selection to what the graph has', async ({ page }) => {
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  await dropKind(page, 'Reason', 200, 200);
  await dropKind(page, 'Act', 520, 200);
  await expect(page.locator('.react-flow__node')).toHaveCount(2);

  await page.keyboard.press('Control+z');
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  await flowNode(page, 'reason').locator('.agent-node-label').click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('reason');
  await expect(inspector(page)).not.toContainText('selected. Select one to edit it');
  await page.keyboard.press('c');
  await expect(page.getByRole('dialog', { name: /Connect/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // Redo brings Act back; a click on it selects it alone.
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(page.locator('.react-flow__node')).toHaveCount(2);
  await flowNode(page, 'act').locator('.agent-node-label').click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('act');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await flowNode(page, 'reason').locator('.agent-node-label').click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('reason');
});
