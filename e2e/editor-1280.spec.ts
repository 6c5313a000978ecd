/**
 * Issue 53 at 1280×720: the traps a person met building and debugging a graph by mouse, each
 * walked through as they met it.
 */
import { expect, test, type Page } from './test.ts';
import { clickEdge, connectHandles, dropKind, flowNode, nodesOutOfView, pane } from './helpers.ts';

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

/** Whether the node is wholly inside the canvas's pane. */
const inView = (page: Page, id: string) =>
  page.evaluate((nodeId) => {
    const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
    const box = document.querySelector(`.react-flow__node[data-id="${nodeId}"]`)?.getBoundingClientRect();
    return Boolean(box && box.left >= pane.left && box.right <= pane.right && box.top >= pane.top && box.bottom <= pane.bottom);
  }, id);

test('a person pans the graph away and presses Step: the first step\'s node is brought into view, as every later one is', async ({ page }) => {
  await page.goto('/?template=graph-engineer');
  await expect(page.locator('.react-flow__node')).not.toHaveCount(0);
  const area = (await pane(page).boundingBox())!;
  await page.mouse.move(area.x + 6, area.y + 6);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width - 6, area.y + area.height - 6, { steps: 10 });
  await page.mouse.up();
  // The whole graph is out of view, down and to the right.
  const count = await page.locator('.react-flow__node').count();
  await expect.poll(async () => (await nodesOutOfView(page)).length).toBe(count);

  await page.getByRole('button', { name: 'Step', exact: true }).click();
  const current = page.locator('.react-flow__node.current');
  await expect(current).toHaveCount(1);
  const id = (await current.getAttribute('data-id'))!;
  await expect.poll(() => inView(page, id), { message: `${id} in view after the first Step` }).toBe(true);

  // Panned away again, F10 (the key, the focus off the canvas) brings the next step's node in too.
  await page.mouse.move(area.x + 6, area.y + 6);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width - 6, area.y + area.height - 6, { steps: 10 });
  await page.mouse.up();
  await page.keyboard.press('F10');
  await expect(current).not.toHaveAttribute('data-id', id);
  const next = (await current.getAttribute('data-id'))!;
  await expect.poll(() => inView(page, next), { message: `${next} in view after F10` }).toBe(true);
});

test('a kind dropped from the palette lands centred on the pointer, and near the canvas\'s edge whole in view', async ({ page }) => {
  await page.goto('/?template=graph-engineer');
  await expect(page.locator('.react-flow__node')).not.toHaveCount(0);
  const area = (await pane(page).boundingBox())!;
  const centreOf = async (id: string) => {
    const box = (await flowNode(page, id).boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };

  // Dropped on a spot of the canvas: the node's middle is where it was let go.
  await dropKind(page, 'Collect', area.width / 2, 30 + area.height / 3);
  const collect = page.locator('.react-flow__node.selected');
  await expect(collect).toHaveCount(1);
  const collectId = (await collect.getAttribute('data-id'))!;
  const middle = await centreOf(collectId);
  expect(Math.abs(middle.x - (area.x + area.width / 2))).toBeLessThan(3);
  expect(Math.abs(middle.y - (area.y + 30 + area.height / 3))).toBeLessThan(3);

  // Dropped near the bottom right corner (where its corner alone showed): whole in view, as near the pointer as that allows.
  await dropKind(page, 'Act', area.width - 12, area.height - 12);
  await expect(collect).not.toHaveAttribute('data-id', collectId);
  const act = (await collect.getAttribute('data-id'))!;
  const box = (await flowNode(page, act).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(area.x);
  expect(box.y).toBeGreaterThanOrEqual(area.y);
  expect(box.x + box.width).toBeLessThanOrEqual(area.x + area.width);
  expect(box.y + box.height).toBeLessThanOrEqual(area.y + area.height);
  expect(area.x + area.width - (box.x + box.width)).toBeLessThan(40);
  expect(area.y + area.height - (box.y + box.height)).toBeLessThan(40);
});

test('Run on a graph with no entry says so and how to set one; set, it runs', async ({ page }) => {
  await page.goto('/?template=blank');
  await dropKind(page, 'Reason', 200, 200);
  await dropKind(page, 'Respond', 500, 200);
  // The entry deleted: the graph has none.
  await flowNode(page, 'reason').locator('.agent-node-label').click();
  await page.keyboard.press('Delete');
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('region', { name: 'Step detail' }).getByRole('status');
  await expect(status).toContainText('The graph has no entry node: set one where a run starts: "Set as entry" on a node');
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('The graph has no entry node');
  await expect(page.locator('body')).not.toContainText('there is no node');

  await flowNode(page, 'respond').locator('.agent-node-label').click();
  await inspector(page).getByRole('button', { name: 'Set as entry' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status).toContainText('completed');
});

test('a template opened a second time from Graphs is named apart from the first', async ({ page }) => {
  await page.goto('/?template=graph-engineer');
  await expect(page.getByRole('heading', { name: 'Graph Engineer', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Graphs', exact: true }).click();
  const graphs = page.getByRole('dialog', { name: 'Graphs' });
  await expect(graphs.getByRole('button', { name: /^Graph Engineer.*open now/ })).toBeVisible();
  await graphs.getByRole('button', { name: 'New graph from the template Graph Engineer', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Graph Engineer (2)', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Graphs', exact: true }).click();
  await expect(graphs.getByRole('button', { name: /^Graph Engineer \(2\).*open now/ })).toBeVisible();
  await expect(graphs.getByRole('button', { name: /^Graph Engineer saved/ })).toBeVisible();
});

/** Drags a selected edge's end (its reconnect anchor) onto a node's handle. */
const dragEnd = async (page: Page, end: 'source' | 'target', to: { x: number; y: number; width: number; height: number }) => {
  const anchor = (await page.locator(`.react-flow__edge.selected .react-flow__edgeupdater-${end}`).boundingBox())!;
  await page.mouse.move(anchor.x + anchor.width / 2, anchor.y + anchor.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2 - 20, to.y + to.height / 2, { steps: 8 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
};

test('a selected edge shows both its ends; dragging its source end to another outcome row or node moves it, and Undo puts it back', async ({ page }) => {
  await page.goto('/?template=blank');
  await dropKind(page, 'Reason', 160, 200);
  await dropKind(page, 'Act', 420, 200);
  await dropKind(page, 'Verify', 700, 200);
  await connectHandles(page, 'act', 'ok', 'verify');
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  // Selected, the edge shows a handle on each end.
  await clickEdge(page, 'act', 'verify');
  await expect(inspector(page)).toContainText('act → verify');
  for (const end of ['source', 'target']) {
    const anchor = page.locator(`.react-flow__edge.selected .react-flow__edgeupdater-${end}`);
    await expect(anchor).toBeVisible();
    expect(await anchor.evaluate((circle) => getComputedStyle(circle).stroke)).not.toMatch(/transparent|rgba\(0, 0, 0, 0\)|none/);
  }

  // Its source end onto Act's `empty` row: the same nodes, on the other outcome.
  await dragEnd(page, 'source', (await flowNode(page, 'act').locator('.react-flow__handle.source[data-handleid="empty"]').boundingBox())!);
  await clickEdge(page, 'act', 'verify');
  await expect(inspector(page).getByLabel('Outcome', { exact: true })).toHaveValue('empty');

  // Then onto Reason's condition row: the edge now leaves Reason.
  await dragEnd(page, 'source', (await flowNode(page, 'reason').locator('.react-flow__handle.source[data-handleid="out"]').boundingBox())!);
  await expect(page.getByRole('group', { name: 'Edge from reason to verify' })).toHaveCount(1);
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  // Undo, step by step, through the one history: back on Act's `empty`, then on `ok`.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Edge from act to verify' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await clickEdge(page, 'act', 'verify');
  await expect(inspector(page).getByLabel('Outcome', { exact: true })).toHaveValue('ok');
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(inspector(page).getByLabel('Outcome', { exact: true })).toHaveValue('empty');
});
