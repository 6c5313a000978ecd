import { expect, test, type Page } from './test.ts';
import { atEveryStep, drawingClashes, flowNode, openGraph, SIX_NODES, viewStill } from './helpers.ts';

// A laptop screen, where labels and edges have least room.
test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Edge paths and labels drawn past the canvas's sides (under the palette or the panels). */
const outsideCanvas = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.querySelector('.react-flow')!.getBoundingClientRect();
    const drawn = [
      ...[...document.querySelectorAll<HTMLElement>('.edge-label')].map((label) => ({ what: `label of ${label.dataset.edgeId}`, box: label.getBoundingClientRect() })),
      ...[...document.querySelectorAll<SVGGElement>('.react-flow__edge')].map((edge) => ({ what: `edge ${edge.dataset.id}`, box: edge.querySelector('path.react-flow__edge-path')!.getBoundingClientRect() })),
    ];
    // A pixel of rounding.
    return drawn.filter(({ box }) => box.left < canvas.left - 1 || box.right > canvas.right + 1 || box.top < canvas.top - 1 || box.bottom > canvas.bottom + 1).map(({ what }) => what);
  });

test('the default graph: no label on a node and no edge under a node it does not join, at first fit, at every step of a run and after Auto layout', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'halt')).toBeVisible();
  // The labels are placed just after the first screen.
  await expect(page.locator('.edge-label').first()).toBeVisible();
  await viewStill(page);
  expect(await drawingClashes(page)).toEqual([]);
  expect(await outsideCanvas(page)).toEqual([]);

  // Each step has its own counts, not-taken marks and reasons on the labels.
  await atEveryStep(page, (step) => expect.poll(() => drawingClashes(page), `step ${step}`).toEqual([]));
  // Step 3 took plan_exhausted = true with its reason, the longest label of the run.
  await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(2).click();
  await expect(page.locator('.edge-label', { hasText: 'evaluation.plan_exhausted eq true (was true)' })).toBeVisible();
  await expect.poll(() => drawingClashes(page)).toEqual([]);
  await button(page, 'Fit View').click();
  await viewStill(page);
  expect(await outsideCanvas(page)).toEqual([]);

  await button(page, 'Auto layout').click();
  // ELK works in a worker: on a loaded machine it may take longer than one assertion's budget.
  await expect(button(page, 'Auto layout')).toBeEnabled({ timeout: 45_000 });
  await viewStill(page);
  await expect.poll(() => drawingClashes(page)).toEqual([]);
  expect(await outsideCanvas(page)).toEqual([]);
});

test('a hand-built graph: an edge to a node 30 px to its right is a curve between them, and Reason → Stop goes round the nodes between', async ({ page }) => {
  await page.goto('/?template=blank');
  // Respond 30 px right of Verify (152 px wide): the edge is a forward edge, not a loop below both.
  const nodes = SIX_NODES.map((node) => (node.id === 'respond' ? { ...node, position: { x: 500 + 152 + 30, y: 0 } } : node));
  const edges = [
    { id: 'e1', source: 'reason', target: 'act' },
    { id: 'e2', source: 'act', target: 'verify', when: { outcome: 'ok' } },
    { id: 'e3', source: 'verify', target: 'respond', when: { outcome: 'sufficient' } },
    { id: 'e4', source: 'reason', target: 'stop', when: 'otherwise' },
  ];
  await openGraph(page, { format: 'loopscope/graph', version: 1, name: 'Close nodes', entry: 'reason', nodes, edges });
  await expect(page.locator('.react-flow__edge')).toHaveCount(4);
  await expect(page.locator('.edge-label').first()).toBeVisible();
  await viewStill(page);
  const [edge, verify, respond] = await Promise.all([
    page.locator('.react-flow__edge[data-id="e3"] path.react-flow__edge-path').first().boundingBox(),
    flowNode(page, 'verify').boundingBox(),
    flowNode(page, 'respond').boundingBox(),
  ]);
  // Within the gap between the two, not out past Respond and back under both.
  expect(edge!.x).toBeGreaterThanOrEqual(verify!.x + verify!.width - 2);
  expect(edge!.x + edge!.width).toBeLessThanOrEqual(respond!.x + 2);
  expect(edge!.y + edge!.height).toBeLessThan(Math.max(verify!.y + verify!.height, respond!.y + respond!.height));
  await expect.poll(() => drawingClashes(page)).toEqual([]);
  expect(await outsideCanvas(page)).toEqual([]);
});
