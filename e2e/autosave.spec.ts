import { expect, test, type Page } from './test.ts';

const canvasNode = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);

const writeAutosave = (page: Page, value: string) =>
  page.evaluate(
    (text) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('loopscope', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('graphs');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('graphs', 'readwrite');
          tx.objectStore('graphs').put(text, 'autosave');
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    value,
  );

const readAutosave = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string | undefined>((resolve, reject) => {
        const open = indexedDB.open('loopscope', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('graphs', 'readonly').objectStore('graphs').get('autosave');
          get.onsuccess = () => resolve(get.result as string | undefined);
          get.onerror = () => reject(get.error);
        };
      }),
  );

test('an edit survives a reload', async ({ page }) => {
  await page.goto('/');
  await canvasNode(page, 'execute').click();
  const label = page.getByRole('region', { name: 'Inspector' }).getByLabel('Label');
  await label.fill('Run the search');
  await expect(canvasNode(page, 'execute')).toContainText('Run the search');
  // The save is debounced; a reload right away relies on the pagehide flush, which the unit tests pin.
  await expect.poll(() => readAutosave(page)).toContain('Run the search');

  await page.reload();
  await expect(canvasNode(page, 'execute')).toContainText('Run the search');
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();
});

test('damaged autosave data is reported and the app still works', async ({ page }) => {
  await page.goto('/');
  await expect(canvasNode(page, 'decide')).toBeVisible();
  await writeAutosave(page, '{"format":"loopscope/graph","version":1,"name":"Broken","entry":"a","nodes":[{"id":"a","kind":"teleport"}]}');

  await page.reload();
  await expect(page.getByRole('alert')).toContainText('Autosave failed');
  await expect(page.getByRole('alert')).toContainText('Your graph is kept in memory.');
  await expect(canvasNode(page, 'decide')).toBeVisible();

  // Still editable, and the next save replaces the damaged data.
  await canvasNode(page, 'decide').click();
  await page.getByRole('region', { name: 'Inspector' }).getByLabel('Label').fill('Plan the search');
  await expect(canvasNode(page, 'decide')).toContainText('Plan the search');
  await expect(page.getByRole('alert')).toContainText('the saved graph is damaged');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.reload();
  await expect(canvasNode(page, 'decide')).toContainText('Plan the search');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
