import { expect, test, type Page } from './test.ts';
import { collectErrors, flowNode, libraryEntries, relabel } from './helpers.ts';

const notice = (page: Page) => page.getByRole('region', { name: 'Graph open in another tab' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Whether any graph of the library was saved with this text in it. */
const saved = async (page: Page, text: string) => (await libraryEntries(page)).some((entry) => entry.text.includes(text));

test('two tabs on one graph: the second is told and saves nothing, takes over with the first tab’s edits, and the first keeps its own as a copy', async ({ page }) => {
  // Two pages, a reload and several saves on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/');
  await relabel(page, 'decide', 'Decide in A');
  await expect.poll(() => saved(page, 'Decide in A')).toBe(true);

  // A second tab on `/` opens the graph saved last: the one the first tab has.
  const second = await page.context().newPage();
  const secondErrors = collectErrors(second);
  await second.goto('/');
  await expect(flowNode(second, 'decide')).toContainText('Decide in A');
  await expect(notice(second)).toContainText('This graph is open in another tab');
  await expect(notice(page)).toHaveCount(0);

  // Edits in the second tab never reach the library; the first tab's still do.
  await relabel(second, 'decide', 'Edit in B');
  await relabel(page, 'decide', 'Decide in A2');
  await expect.poll(() => saved(page, 'Decide in A2')).toBe(true);
  expect(await saved(page, 'Edit in B')).toBe(false);

  // Take over: the first tab saves and lets go, and its latest save opens here.
  await relabel(page, 'execute', 'Typed in A just before');
  await button(second, 'Take over here').click();
  await expect(notice(second)).toHaveCount(0);
  await expect(flowNode(second, 'execute')).toContainText('Typed in A just before');
  await expect(flowNode(second, 'decide')).toContainText('Decide in A2');
  await expect(notice(page)).toContainText('taken over in another tab');
  await expect(button(page, 'Take it back here')).toBeVisible();

  // The first tab keeps what it has as a new graph; the two go their own ways.
  await button(page, 'Open a copy').click();
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage (copy)', exact: true })).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
  await relabel(page, 'decide', 'Only in the copy');
  await relabel(second, 'decide', 'Edit in B2');
  await expect.poll(() => saved(page, 'Edit in B2')).toBe(true);
  await expect.poll(() => saved(page, 'Only in the copy')).toBe(true);

  // The second tab's list learnt of the copy from the first tab's save, without reading the library.
  await button(second, 'Graphs').click();
  await expect(second.getByRole('dialog', { name: 'Graphs' }).getByRole('button', { name: /^SecurityClaw triage \(copy\)/ })).toBeVisible();
  await second.keyboard.press('Escape');

  await second.reload();
  await expect(flowNode(second, 'decide')).toContainText('Edit in B2');
  await expect(notice(second)).toHaveCount(0);
  expect([...errors, ...secondErrors]).toEqual([]);
});
