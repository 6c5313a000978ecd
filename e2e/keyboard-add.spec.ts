import { flowNode, nodesOutOfView } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/** Issue 53: a node added from the keyboard lands where the person looks, at the size a laptop shows. */
test.use({ viewport: { width: 1280, height: 720 } });

const zoom = (page: Page) => page.locator('.react-flow__viewport').evaluate((element) => Number(/scale\(([\d.]+)\)/.exec((element as HTMLElement).style.transform)?.[1]));

/** Whether the node lies whole inside the canvas's pane. */
const wholeInView = async (page: Page, id: string) => !(await nodesOutOfView(page)).includes(id);

test('Enter on a palette kind over a crowded, zoomed-in view adds the node whole in view, not off-screen', async ({ page }) => {
  await page.goto('/?template=securityclaw');
  await expect(flowNode(page, 'execute')).toBeVisible();
  // Zoomed in on the graph: the view is full of nodes, with no free room for another.
  const zoomIn = page.getByRole('button', { name: 'Zoom In' });
  while ((await zoom(page)) < 2) await zoomIn.click();
  await page.locator('.palette').getByRole('button', { name: 'Act', exact: true }).focus();
  await page.keyboard.press('Enter');
  const added = page.locator('.react-flow__node.selected');
  await expect(added).toHaveCount(1);
  const id = (await added.getAttribute('data-id'))!;
  expect(id).toMatch(/^act/);
  await expect.poll(() => wholeInView(page, id)).toBe(true);
  // Added again: each whole in view, clear of the one before.
  await page.locator('.palette').getByRole('button', { name: 'Act', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(added).not.toHaveAttribute('data-id', id);
  const second = (await added.getAttribute('data-id'))!;
  await expect.poll(() => wholeInView(page, second)).toBe(true);
});
