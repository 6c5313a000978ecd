/**
 * Wiring by hand on a 1280×720 laptop, as in the best editors: a connection dropped anywhere on a
 * node connects to it, every handle is big enough to grab and nothing covers one, nodes added from
 * the keyboard land where nothing is, and Fit View and Auto layout show every node.
 */
import { expect, test, type Page } from './test.ts';
import { clickEdge, connectToBody, flowNode, nodesOutOfView, openGraph, overlappingNodes, SIX_NODES, viewStill } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/**
 * Handles too small to grab or covered, on screen: each must be at least 16 px across, and the
 * element under its middle and under its dot (a source handle's right end, a target handle's left)
 * must be the handle itself.
 */
const handlesNotGrabbable = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.react-flow__handle')].flatMap((handle) => {
      const box = handle.getBoundingClientRect();
      const name = `${handle.dataset.nodeid}/${handle.dataset.handleid ?? 'in'}`;
      if (Math.min(box.width, box.height) < 16) return [`${name} is ${Math.round(box.width)}×${Math.round(box.height)}`];
      const dot = handle.classList.contains('source') ? { x: box.right - 5, y: box.top + box.height / 2 } : { x: box.left + 4, y: box.top + box.height / 2 };
      return [{ x: box.left + box.width / 2, y: box.top + box.height / 2 }, dot].flatMap((point) => {
        const top = document.elementFromPoint(point.x, point.y);
        return top === handle || handle.contains(top) ? [] : [`${name} under ${top?.className}`];
      });
    }),
  );

test('every handle of the default graph is at least 16 px and grabbable at the first fit: decide/out, Verify’s condition, Act’s error', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'halt')).toBeVisible();
  await viewStill(page);
  expect(await handlesNotGrabbable(page)).toEqual([]);
  // Grabbed, each starts a connection: the canvas marks every node a target while it is dragged.
  for (const [node, handle] of [['decide', 'out'], ['evaluate', 'out'], ['execute', 'error']]) {
    const box = (await flowNode(page, node).locator(`.react-flow__handle[data-handleid="${handle}"]`).boundingBox())!;
    await page.mouse.move(box.x + box.width - 5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 40, box.y + box.height / 2 + 30, { steps: 4 });
    await expect(page.locator('.canvas.is-connecting')).toHaveCount(1);
    await expect(page.locator('.react-flow__connectionline')).toHaveCount(1);
    // Let go on the pane under the graph's left side, where no node is (not so near the pane's
    // side that the canvas pans towards it).
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    await page.mouse.move(pane.x + 60, pane.y + pane.height - 60, { steps: 4 });
    await page.mouse.up();
    await expect(page.locator('.canvas.is-connecting')).toHaveCount(0);
  }
  // Nothing was connected by letting go on the pane: SecurityClaw's eleven edges.
  await expect(page.locator('.react-flow__edge')).toHaveCount(11);
  // An edge's breakpoint is in its own menu, shown on its label while it is selected: it covers no handle either.
  await page.locator('.edge-label').filter({ hasText: 'plan_exhausted = true' }).click();
  await expect(button(page, 'Toggle breakpoint on edge e4')).toBeVisible();
  expect(await handlesNotGrabbable(page)).toEqual([]);
});

test('a connection dropped anywhere on a node’s body connects to it, the outcome from the row it left', async ({ page }) => {
  await page.goto('/?template=blank');
  await openGraph(page, { format: 'loopscope/graph', version: 1, name: 'Three nodes', entry: 'act', nodes: SIX_NODES.filter((node) => ['act', 'verify', 'recover'].includes(node.id)) });
  // On the title of Verify, nowhere near its target handle.
  await connectToBody(page, 'act', 'ok', 'verify');
  await expect(page.getByRole('group', { name: 'Edge from act to verify' })).toHaveCount(1);
  // On the middle of Recover's body, over its rules and outcome rows.
  await connectToBody(page, 'verify', 'exhausted', 'recover', 'middle');
  await expect(page.getByRole('group', { name: 'Edge from verify to recover' })).toHaveCount(1);
  // Back on the node it started from: nothing.
  await connectToBody(page, 'act', 'error', 'act');
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  // The outcomes are the rows the drags left from.
  await button(page, 'Fit View').click();
  await viewStill(page);
  await clickEdge(page, 'verify', 'recover');
  await expect(inspector(page)).toContainText('verify → recover');
  await expect(inspector(page).getByLabel('Outcome', { exact: true })).toHaveValue('exhausted');
});

test('nodes added from the keyboard land where nothing is, one after another', async ({ page }) => {
  await page.goto('/?template=blank');
  const palette = page.getByRole('complementary', { name: 'Palette' });
  for (const kind of ['Recover', 'Act', 'Verify', 'Reason', 'Stop', 'Collect']) {
    await palette.getByRole('button', { name: kind, exact: true }).focus();
    await page.keyboard.press('Enter');
  }
  await expect(page.locator('.react-flow__node')).toHaveCount(6);
  await button(page, 'Fit View').click();
  await viewStill(page);
  expect(await overlappingNodes(page)).toEqual([]);
});

test('Fit View and Auto layout show every node with a margin, after the view was panned away', async ({ page }) => {
  await page.goto('/?template=graph-engineer');
  await expect(flowNode(page, 'report')).toBeVisible();
  await viewStill(page);
  // Graph Engineer opens whole at 1280: its Report in view.
  expect(await nodesOutOfView(page, 8)).toEqual([]);
  // Panned far off, then Fit View.
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  await page.mouse.move(pane.x + pane.width - 20, pane.y + pane.height - 20);
  await page.mouse.down();
  await page.mouse.move(pane.x + 40, pane.y + 30, { steps: 6 });
  await page.mouse.up();
  expect((await nodesOutOfView(page)).length).toBeGreaterThan(0);
  await button(page, 'Fit View').click();
  await expect.poll(() => nodesOutOfView(page, 8)).toEqual([]);
  await button(page, 'Auto layout').click();
  // ELK works in a worker: on a loaded machine it may take longer than one assertion's budget.
  await expect(button(page, 'Undo')).toBeEnabled({ timeout: 45_000 });
  await viewStill(page);
  await expect.poll(() => nodesOutOfView(page, 8)).toEqual([]);
  expect(await overlappingNodes(page)).toEqual([]);
});
