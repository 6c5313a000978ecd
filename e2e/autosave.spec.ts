import { expect, test, type Page } from './test.ts';
import { collectErrors, flowNode, libraryEntries, relabel } from './helpers.ts';

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });


const openGraphs = async (page: Page) => {
  await page.getByRole('button', { name: 'Graphs', exact: true }).click();
  return page.getByRole('dialog', { name: 'Graphs' });
};

/** Puts a library entry straight into IndexedDB, as a damaged or old save would be. */
const writeEntry = (page: Page, entry: { id: string; name: string; text: string; copies: string[] }) =>
  page.evaluate(
    (value) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('loopscope');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('library', 'readwrite');
          tx.objectStore('library').put({ ...value, savedAt: Date.now() });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    entry,
  );

test('an edit followed at once by a reload is not lost', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  for (const label of ['First edit', 'Second edit']) {
    await relabel(page, 'execute', label);
    // No waiting for the debounced save: the reload follows the keystroke.
    await page.reload();
    await expect(flowNode(page, 'execute')).toContainText(label);
  }
  expect(errors).toEqual([]);
});

test('?template=blank opens a new graph: built, reloaded, still there; the graph edited before is kept', async ({ page }) => {
  // Five page loads.
  test.setTimeout(60_000);
  await page.goto('/');
  await relabel(page, 'decide', 'Plan the search');

  await page.goto('/?template=blank');
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  // The address no longer opens a template: a reload shows what is being edited.
  await expect.poll(() => new URL(page.url()).search).toBe('');
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Act', exact: true }).press('Enter');
  await expect(flowNode(page, 'act')).toBeVisible();
  await page.reload();
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await expect(flowNode(page, 'act')).toBeVisible();

  // A fresh tab on `/` opens the graph saved last; the earlier one is a click away in Graphs.
  const other = await page.context().newPage();
  await other.goto('/');
  await expect(flowNode(other, 'act')).toBeVisible();
  const graphs = await openGraphs(other);
  await graphs.getByRole('button', { name: /^SecurityClaw triage/ }).click();
  await expect(graphs).toBeHidden();
  await expect(flowNode(other, 'decide')).toContainText('Plan the search');
});

test('a share link opens as a new graph and never replaces another; a damaged one changes nothing', async ({ page }) => {
  // Five page loads.
  test.setTimeout(60_000);
  await page.goto('/?template=graph-engineer');
  await page.getByRole('button', { name: 'Share link', exact: true }).click();
  const url = await page.getByRole('dialog', { name: 'Share link' }).getByLabel('Share URL').inputValue();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Share link' })).toBeHidden();

  await page.goto('/');
  await expect(heading(page, 'Graph Engineer')).toBeVisible();
  await page.getByRole('button', { name: 'New graph', exact: true }).click();
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Verify', exact: true }).press('Enter');
  await expect(flowNode(page, 'verify')).toBeVisible();

  await page.goto(url);
  await expect(heading(page, 'Graph Engineer')).toBeVisible();
  await expect.poll(() => new URL(page.url()).hash).toBe('');
  await relabel(page, 'check', 'Shared copy edited');
  await page.reload();
  await expect(flowNode(page, 'check')).toContainText('Shared copy edited');

  const graphs = await openGraphs(page);
  await expect(graphs.getByRole('button', { name: /^Untitled graph/ })).toHaveCount(1);
  await expect(graphs.getByRole('button', { name: /^Graph Engineer/ })).toHaveCount(2);
  await graphs.getByRole('button', { name: /^Untitled graph/ }).click();
  await expect(flowNode(page, 'verify')).toHaveText(/verify/);

  await page.goto('/#graph=AAAA');
  await expect(page.getByRole('alert')).toContainText('Could not open the share link');
  await expect(page.getByRole('alert')).toContainText('Nothing was changed.');
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await expect(flowNode(page, 'verify')).toBeVisible();
});

test('a damaged save is reported, kept as it was, and its last good copy opens', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'decide')).toBeVisible();
  // The first visit's example is saved first: a save still on its way as the page goes marks the
  // example as this tab's open graph again, over the one this test names below.
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('loopscope:saved').length)).toBeGreaterThan(0);
  const broken = '{"format":"loopscope/graph","version":1,"name":"Broken","entry":"a","nodes":[{"id":"a","kind":"teleport"}]}';
  const valid = JSON.stringify({ format: 'loopscope/graph', version: 1, name: 'Good copy', entry: 'a', nodes: [{ id: 'a', kind: 'respond', position: { x: 0, y: 0 } }] });
  await writeEntry(page, { id: 'graph-damaged', name: 'Broken', text: broken, copies: [valid] });
  await writeEntry(page, { id: 'graph-lost', name: 'Lost', text: broken, copies: [] });

  await page.evaluate(() => sessionStorage.setItem('loopscope.open', 'graph-damaged'));
  await page.reload();
  await expect(heading(page, 'Good copy')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('The last save of "Good copy" was damaged (nodes[0].kind');
  await page.getByRole('button', { name: 'Dismiss autosave message' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.evaluate(() => sessionStorage.setItem('loopscope.open', 'graph-lost'));
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('"Lost" is damaged and was not opened');
  await expect(heading(page, 'SecurityClaw triage')).toBeVisible();
  // Still editable; the damaged save is left for the person, not written over.
  await relabel(page, 'decide', 'Plan it');
  await page.reload();
  await expect(flowNode(page, 'decide')).toContainText('Plan it');
  const graphs = await openGraphs(page);
  await expect(graphs.getByRole('button', { name: /^Lost/ })).toHaveCount(1);
});

test('Graphs removes a kept graph from this browser, for good; the open one has no Remove', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await relabel(page, 'decide', 'Kept until removed');
  await page.getByRole('button', { name: 'New graph', exact: true }).click();
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Act', exact: true }).press('Enter');
  await expect(flowNode(page, 'act')).toBeVisible();

  let graphs = await openGraphs(page);
  await expect(graphs.getByRole('button', { name: /^Remove Untitled graph/ })).toHaveCount(0);
  await graphs.getByRole('button', { name: /^Remove SecurityClaw triage/ }).click();
  await expect(graphs.getByRole('button', { name: /^SecurityClaw triage/ })).toHaveCount(0);
  await expect(graphs.getByRole('button', { name: /^Untitled graph/ })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(graphs).toBeHidden();

  await page.reload();
  await expect(flowNode(page, 'act')).toBeVisible();
  graphs = await openGraphs(page);
  await expect(graphs.getByRole('button', { name: /^Untitled graph/ })).toHaveCount(1);
  await expect(graphs.getByRole('button', { name: /^SecurityClaw triage/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});

/**
 * Holds the library's stores in a read-write transaction from another page of the site, kept open
 * by a chain of reads until `release` is called: every read and write of the app waits meanwhile,
 * as when IndexedDB does not answer.
 */
const stallLibrary = async (page: Page) => {
  const blocker = await page.context().newPage();
  await blocker.goto('/favicon.svg');
  await blocker.evaluate(
    () =>
      new Promise<void>((ready, failed) => {
        const open = indexedDB.open('loopscope');
        open.onerror = () => failed(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['library', 'meta'], 'readwrite');
          const store = tx.objectStore('library');
          const flag = window as unknown as { released?: boolean };
          const hold = () => {
            if (!flag.released) store.get('held').onsuccess = hold;
          };
          hold();
          ready();
        };
      }),
  );
  return async () => {
    await blocker.evaluate(() => void ((window as unknown as { released?: boolean }).released = true));
    await blocker.close();
  };
};

/** The first graph saved; then, with the library held, a new graph with one node of `kind`, built while nothing reaches the library. */
const newGraphWhileStalled = async (page: Page, kind: 'Act' | 'Verify') => {
  await page.goto('/');
  await expect(flowNode(page, 'decide')).toBeVisible();
  await expect.poll(async () => (await libraryEntries(page)).length).toBe(1);
  const release = await stallLibrary(page);
  await page.getByRole('button', { name: 'New graph', exact: true }).click();
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: kind, exact: true }).press('Enter');
  await expect(flowNode(page, kind.toLowerCase())).toBeVisible();
  return release;
};

test('an edit made while IndexedDB does not answer opens again in its graph, and is saved once it answers', async ({ page }) => {
  // Two pages, three loads and a stall of the storage, on a machine that may be loaded.
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const release = await newGraphWhileStalled(page, 'Act');
  // The tab reloaded: still nothing reaches the library.
  await page.reload();
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await expect(flowNode(page, 'act')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Opened from a backup copy: the browser storage did not answer.');

  // Once it answers, the graph is saved under its own id: a reload opens it from the library.
  await release();
  await expect.poll(async () => (await libraryEntries(page)).map((entry) => entry.name).sort()).toEqual(['SecurityClaw triage', 'Untitled graph']);
  await page.reload();
  await expect(flowNode(page, 'act')).toBeVisible();
  expect(errors.filter((error) => !error.includes('storage'))).toEqual([]);
});

test('an edit kept only in the backup copy of a closed tab is restored into Graphs when the library answers, and said', async ({ page }) => {
  // Two pages, three loads and a stall of the storage, on a machine that may be loaded.
  test.setTimeout(120_000);
  const release = await newGraphWhileStalled(page, 'Verify');
  // The tab closes before the library ever had the graph: its backup copy (localStorage) is all there is.
  const context = page.context();
  // Closing with the unload handlers run does not wait for the tab to go: wait for it, or its
  // stalled save could still land after the release and become the graph saved last.
  const closed = page.waitForEvent('close');
  await page.close({ runBeforeUnload: true });
  await closed;
  await release();

  // A new tab opens the graph saved last; the one kept in the backup goes into Graphs, and the page says so.
  const other = await context.newPage();
  await other.goto('/');
  await expect(heading(other, 'SecurityClaw triage')).toBeVisible();
  await expect(other.getByRole('alert')).toContainText('"Untitled graph" was restored');
  await expect.poll(async () => (await libraryEntries(other)).map((entry) => entry.name).sort()).toEqual(['SecurityClaw triage', 'Untitled graph']);
  const graphs = await openGraphs(other);
  await graphs.getByRole('button', { name: /^Untitled graph/ }).click();
  await expect(flowNode(other, 'verify')).toBeVisible();
});
