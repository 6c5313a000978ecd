/**
 * Issue 53, graphs not in the repository, at 1280×720 (docs/canvas.md, "Reading and fitting"): a
 * graph opened that its canvas shows whole only with its text under 10 px is offered a layout
 * that reads (one click, one edit Undo takes back), its saved positions kept until then; a
 * supervisor fanning out to four workers is laid out by Auto layout in two columns of two, fitted
 * bigger than in one column of four.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './test.ts';
import { collectErrors, graphFixture, expectFits, fitBy, flowNode, openGraph, viewStill } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const zoom = (page: Page) => page.evaluate(() => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a);
const offer = (page: Page) => page.getByRole('status').filter({ hasText: 'Too big to read whole as placed' });

for (const name of ['linear-six', 'two-verify']) {
  test(`${name}, opened as placed, is offered a layout: one click and it fits whole, every text 10 px or more; Undo puts it back`, async ({ page }) => {
    test.slow();
    const errors = collectErrors(page);
    const graph = graphFixture(name);
    await page.goto('/?template=blank');
    await expect(button(page, 'Debug layout')).toBeVisible();
    await openGraph(page, graph);
    await expect(offer(page)).toBeVisible({ timeout: 30_000 });
    // Nothing moved unasked: nothing to undo.
    await expect(button(page, 'Undo')).toBeDisabled();
    await offer(page).getByRole('button', { name: 'Lay out to fit' }).click();
    const note = page.getByRole('status').filter({ hasText: 'Laid out to fit readable' });
    await expect(note).toBeVisible();
    await expect(offer(page)).toHaveCount(0);
    await expectFits(page, `${name}, laid out by the offer`);
    expect(await zoom(page)).toBeGreaterThanOrEqual(0.77);
    await note.getByRole('button', { name: 'Undo' }).click();
    await expect(note).toHaveCount(0);
    await expect(button(page, 'Undo')).toBeDisabled();
    await expect(button(page, 'Redo')).toBeEnabled();
    await button(page, 'Redo').click();
    await expectFits(page, `${name}, laid out again by Redo`);
    expect(errors).toEqual([]);
  });
}

test('a graph that reads whole as placed is opened as it is, with no offer', async ({ page }) => {
  await page.goto('/?template=blank');
  await expect(button(page, 'Debug layout')).toBeVisible();
  await openGraph(page, JSON.parse(readFileSync(new URL('../src/graph/templates/securityclaw.json', import.meta.url), 'utf8')));
  await expectFits(page, 'SecurityClaw, opened');
  await expect(offer(page)).toHaveCount(0);
});

test('Auto layout lays a supervisor fanning out to four workers in two columns of two on the laptop canvas', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await expect(button(page, 'Debug layout')).toBeVisible();
  await openGraph(page, graphFixture('supervisor'));
  await fitBy(page, 'Auto layout');
  await viewStill(page);
  const workers = (await Promise.all(['w1', 'w2', 'w3', 'w4'].map((id) => flowNode(page, id).boundingBox()))).map((box) => box!).sort((a, b) => a.x - b.x);
  // Two workers end before the other two begin: side by side, two columns of two.
  expect(Math.max(workers[0].x + workers[0].width, workers[1].x + workers[1].width)).toBeLessThan(workers[2].x);
  // One column of four was fitted at 0.38, drawn in outline; two columns of two are fitted bigger, with their rows and labels.
  expect(await zoom(page)).toBeGreaterThan(0.6);
  const { nodes, outside } = await page.evaluate(() => {
    const canvas = document.querySelector('.react-flow')!.getBoundingClientRect();
    const boxes = [...document.querySelectorAll('.react-flow__node')].map((node) => node.getBoundingClientRect());
    return { nodes: boxes.length, outside: boxes.filter((box) => box.left < canvas.left || box.right > canvas.right || box.top < canvas.top || box.bottom > canvas.bottom).length };
  });
  expect(nodes).toBe(9);
  expect(outside).toBe(0);
  expect(errors).toEqual([]);
});
