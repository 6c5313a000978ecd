/**
 * Seed 001 (没有可恢复路径) on screen, with the example examples/recovery-tried: Recover keeps the
 * actions it took in recovery.tried, and the step where Evaluate sends the run to the forced stop
 * says why: the list holds the recovery already tried, so it is not tried again (issue 54, #11).
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './test.ts';
import { collectErrors, openGraph, runScenarioTo } from './helpers.ts';

const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const edgesTried = (page: Page) => detail(page).getByRole('list', { name: 'Edges tried' });

test('a recovery tried once is not tried again: the step says recovery.tried holds it', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  const graph = JSON.parse(await readFile(new URL('../examples/recovery-tried/graph.json', import.meta.url), 'utf8'));
  await openGraph(page, graph);

  await runScenarioTo(page, 'a recovery tried once is not tried again', 'no_recovery_path');
  await expect(steps(page)).toHaveCount(9);

  // Round 1: nothing was tried yet, so the edge to the forced stop does not fire and Recover widens the search.
  await steps(page).nth(2).click();
  await expect(edgesTried(page)).toContainText('recovery.tried contains "expand_search_scope" (was missing)');
  await steps(page).nth(3).click();
  await expect(detail(page)).toContainText('empty_result → expand_search_scope with query_alternative_source next round');

  // Round 2: the wider search is empty too; the list holds the recovery, and the run stops instead of repeating it.
  await steps(page).nth(6).click();
  await expect(detail(page).locator('.fired-edge')).toHaveText('e4');
  await expect(edgesTried(page)).toContainText('recovery.tried contains "expand_search_scope" (was ["expand_search_scope"])');
  expect(errors).toEqual([]);
});
