/**
 * Issue 53: an edge's ends moved without a mouse. The edge inspector's From and To list where it
 * may leave from (a node's outcome row, or its general row) and go to, as a drag of either end
 * may: each change is one undoable edit.
 */
import { collectErrors, flowNode } from './helpers.ts';
import { expect, test } from './test.ts';

test.use({ viewport: { width: 1280, height: 720 } });

test('an edge’s source and target changed from the keyboard in the edge inspector, each undoable', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  const palette = page.getByRole('complementary', { name: 'Palette' });
  for (const kind of ['Act', 'Verify', 'Respond']) await palette.getByRole('button', { name: kind, exact: true }).press('Enter');
  await expect(flowNode(page, 'respond')).toBeVisible();

  // act → verify on ok, drawn from the keyboard; the new edge is selected.
  await flowNode(page, 'act').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('c');
  const dialog = page.getByRole('dialog', { name: 'Connect from act' });
  await dialog.getByLabel('Leaves on').selectOption('ok');
  await dialog.getByLabel('Goes to').selectOption('verify');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).press('Enter');
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText('act → verify');
  const edge = (source: string, target: string) => page.getByRole('group', { name: `Edge from ${source} to ${target}` });

  const ends = inspector.getByRole('group', { name: 'Ends' });
  const from = ends.getByRole('combobox', { name: 'From' });
  const to = ends.getByRole('combobox', { name: 'To' });
  await expect(from.locator('option:checked')).toHaveText('Act (act) · outcome ok');
  await expect(to.locator('option:checked')).toHaveText('Verify (verify)');
  // As a drag may not, the edge goes nowhere near its own source, nor leaves a node that ends the run.
  await expect(to.locator('option')).toHaveText(['Verify (verify)', 'Respond (respond)']);
  await expect(from.locator('option', { hasText: 'respond' })).toHaveCount(0);
  await expect(from.locator('option', { hasText: 'verify' })).toHaveCount(0);

  // The target end: to Respond.
  await to.focus();
  await to.selectOption('respond');
  await expect(edge('act', 'respond')).toHaveCount(1);
  await expect(edge('act', 'verify')).toHaveCount(0);
  await expect(inspector).toContainText('act → respond');

  // The source end: from Verify's sufficient row, whose outcome the edge now fires on.
  await from.selectOption({ label: 'Verify (verify) · outcome sufficient' });
  await expect(edge('verify', 'respond')).toHaveCount(1);
  await expect(inspector.getByLabel('Outcome', { exact: true })).toHaveValue('sufficient');
  // From Verify's general row: no outcome, so the edge is always taken.
  await from.selectOption({ label: 'Verify (verify) · condition or always' });
  await expect(inspector).toContainText('Fires always.');

  // Each change its own undo step, back to where the edge was drawn.
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  await undo.click();
  await expect(inspector.getByLabel('Outcome', { exact: true })).toHaveValue('sufficient');
  await undo.click();
  await expect(edge('act', 'respond')).toHaveCount(1);
  await undo.click();
  await expect(edge('act', 'verify')).toHaveCount(1);
  await expect(from.locator('option:checked')).toHaveText('Act (act) · outcome ok');
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(edge('act', 'respond')).toHaveCount(1);
  expect(errors).toEqual([]);
});
