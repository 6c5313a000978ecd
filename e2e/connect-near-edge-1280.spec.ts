/**
 * Issue 53 at 1280×720: a connection dragged onto a node near the canvas's edge connects to it. The
 * view used to slide under the pointer within 40 px of the edge (React Flow's auto-pan), where a
 * drop or a fit may place a node, and the edge was let go onto nothing. Now the view holds still
 * while the pointer is inside the canvas, and pans only past its edge: a node dragged there still
 * takes the view with it.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors, dropKind, flowNode, pane } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });

const viewTransform = (page: Page) => page.locator('.react-flow__viewport').evaluate((element) => (element as HTMLElement).style.transform);
/** Lets the page draw `count` frames, as a person's hand rests a moment before letting go. */
const frames = (page: Page, count = 8) =>
  page.evaluate(
    (wanted) =>
      new Promise<void>((resolve) => {
        let drawn = 0;
        const next = () => (++drawn >= wanted ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
    count,
  );
const canvasBox = async (page: Page) => (await page.locator('.canvas .react-flow').boundingBox())!;

/**
 * Where on `target`'s body the pointer lets go: inside its box by `inset` px on the side nearest
 * the canvas's edge `side`, at the middle of the other axis.
 */
const nearEdge = async (page: Page, target: string, side: 'left' | 'right' | 'top' | 'bottom', inset = 8) => {
  const box = (await flowNode(page, target).boundingBox())!;
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  return {
    left: { x: box.x + inset, y: middle.y },
    right: { x: box.x + box.width - inset, y: middle.y },
    top: { x: middle.x, y: box.y + inset },
    bottom: { x: middle.x, y: box.y + box.height - inset },
  }[side];
};

/** A blank graph's canvas at its first screen, and a drop of `kind` centred at a point of the screen (kept whole, 16 px inside). */
const blankCanvas = async (page: Page) => {
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  const canvas = await canvasBox(page);
  const paneBox = (await pane(page).boundingBox())!;
  const drop = (kind: string, x: number, y: number) => dropKind(page, kind, x - paneBox.x, y - paneBox.y);
  return { canvas, drop, middle: { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 } };
};

/** How far a point is from the canvas's nearest edge, in screen pixels. */
const fromEdge = async (page: Page, point: { x: number; y: number }) => {
  const canvas = await canvasBox(page);
  return Math.min(point.x - canvas.x, canvas.x + canvas.width - point.x, point.y - canvas.y, canvas.y + canvas.height - point.y);
};

test('a connection let go on a node within 40 px of the canvas’s edge connects to it, the view still until it is let go, every time', async ({ page }) => {
  const errors = collectErrors(page);
  // Reason in the middle; a node dropped against each edge of the canvas (a drop keeps it whole, 16 px
  // inside), each on a fresh blank graph: once an edge is drawn, its loop or label drawn past the view
  // brings the view along (view-follow-1280.spec.ts), and the next target is no longer at the edge.
  const targets = [
    ['Act', 'act', 'right'],
    ['Verify', 'verify', 'bottom'],
    ['Respond', 'respond', 'top'],
    ['Stop', 'stop', 'left'],
  ] as const;
  for (let round = 1; round <= 3; round += 1) {
    for (const [kind, target, side] of targets) {
      const moment = `round ${round}, onto ${target} by the ${side} edge`;
      const { canvas, drop, middle } = await blankCanvas(page);
      await drop('Reason', middle.x, middle.y);
      const at = {
        right: [canvas.x + canvas.width - 2, middle.y],
        bottom: [middle.x + 150, canvas.y + canvas.height - 2],
        top: [middle.x - 150, canvas.y + 2],
        left: [canvas.x + 2, middle.y],
      }[side];
      await drop(kind, at[0], at[1]);
      await expect(page.locator('.react-flow__node'), moment).toHaveCount(2);
      const from = (await flowNode(page, 'reason').locator('.react-flow__handle.source[data-handleid="out"]').boundingBox())!;
      const to = await nearEdge(page, target, side);
      expect(await fromEdge(page, to), moment).toBeLessThan(40);
      const before = await viewTransform(page);
      await page.mouse.move(from.x + from.width - 8, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(to.x, to.y, { steps: 10 });
      // The hand rests on the node a moment, then lets go with a twitch.
      await frames(page);
      await page.mouse.move(to.x + 1, to.y + 1);
      expect(await viewTransform(page), `${moment}: the view held still under the hand`).toBe(before);
      await page.mouse.up();
      await expect(page.getByRole('group', { name: `Edge from reason to ${target}` }), moment).toHaveCount(1);
      await expect(page.locator('.react-flow__edge'), moment).toHaveCount(1);
    }
  }
  expect(errors).toEqual([]);
});

test('a node dragged near the canvas’s edge leaves the view still; dragged past it, the view follows', async ({ page }) => {
  const errors = collectErrors(page);
  const { canvas, drop, middle } = await blankCanvas(page);
  await drop('Act', middle.x, middle.y);
  const title = flowNode(page, 'act').locator('.agent-node-label');
  const grip = (await title.boundingBox())!;
  const before = await viewTransform(page);
  await page.mouse.move(grip.x + 10, grip.y + grip.height / 2);
  await page.mouse.down();
  // To 10 px inside the canvas's right edge: the node goes there, the view stays.
  const inside = { x: canvas.x + canvas.width - 10, y: grip.y + grip.height / 2 };
  await page.mouse.move(inside.x, inside.y, { steps: 10 });
  await frames(page);
  await page.mouse.move(inside.x - 1, inside.y);
  await frames(page);
  expect(await viewTransform(page), 'near the edge, the view holds still').toBe(before);
  // Where the node is held from (React Flow starts a drag after its first move, so not quite where it was grabbed).
  const held = inside.x - 1 - (await title.boundingBox())!.x;
  // Past the edge, held there: the view pans to show what lies beyond, the node under the pointer.
  await page.mouse.move(canvas.x + canvas.width + 30, inside.y, { steps: 4 });
  await expect.poll(() => viewTransform(page)).not.toBe(before);
  // Back inside, the view holds still again and the node is let go under the pointer, past where the canvas first showed.
  await page.mouse.move(inside.x, inside.y, { steps: 4 });
  await frames(page, 2);
  const panned = await viewTransform(page);
  await frames(page);
  expect(await viewTransform(page), 'back inside, the view holds still').toBe(panned);
  await page.mouse.up();
  const dropped = (await title.boundingBox())!;
  expect(Math.abs(inside.x - dropped.x - held)).toBeLessThan(2);
  expect(errors).toEqual([]);
});

test('a connection held past the canvas’s edge pans the view to what lies beyond, and connects there', async ({ page }) => {
  const errors = collectErrors(page);
  const { canvas, drop, middle } = await blankCanvas(page);
  await drop('Reason', canvas.x + 150, middle.y);
  await drop('Act', canvas.x + canvas.width - 2, middle.y);
  const before = await viewTransform(page);
  const from = (await flowNode(page, 'reason').locator('.react-flow__handle.source[data-handleid="out"]').boundingBox())!;
  await page.mouse.move(from.x + from.width - 8, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(canvas.x + canvas.width + 20, from.y, { steps: 6 });
  await expect.poll(() => viewTransform(page)).not.toBe(before);
  // Back inside, onto Act where the view now shows it (further left: the view moved on under the pointer).
  const to = await nearEdge(page, 'act', 'left', 20);
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByRole('group', { name: 'Edge from reason to act' })).toHaveCount(1);
  expect(errors).toEqual([]);
});
