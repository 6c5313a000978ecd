/**
 * Issue 53: the editor's view follows what is drawn, at 1280×720 (docs/canvas.md, "Reading and
 * fitting"). While a graph is built by mouse, before any fit, each loop-back drawn and its label
 * come into view, readable, whether the view is still fitted or the person moved it; Fit View
 * lays out a graph it could show only with its text under 10 px (undoable, and it says so); Auto
 * layout fits a chain of more than ten layers in rows.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors, graphFixture, connectToBody, dropAll, expectFits, fitBy, flowNode, openGraph, pane, SEED_001_DROPS, viewStill } from './helpers.ts';


test.use({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const zoom = (page: Page) => page.evaluate(() => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a);

/** The edge labels not wholly inside the canvas (under the timeline, past its side): none may be. */
const labelsOutside = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.querySelector('.react-flow')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>('.edge-label')]
      .filter((label) => label.checkVisibility())
      .filter((label) => {
        const box = label.getBoundingClientRect();
        return box.left < canvas.left || box.right > canvas.right || box.top < canvas.top || box.bottom > canvas.bottom;
      })
      .map((label) => `${label.dataset.edgeId} "${label.textContent!.trim()}"`);
  });

/** Seed 001's edges as a person draws them, the loop-backs last. */
const SEED_001_WIRING = [
  ['reason', 'out', 'act'],
  ['act', 'out', 'verify'],
  ['verify', 'sufficient', 'respond'],
  ['verify', 'exhausted', 'recover'],
  ['verify', 'continue', 'reason'],
  ['recover', 'recovered', 'reason'],
  ['recover', 'no_path', 'stop'],
  ['recover', 'needs_human', 'stop'],
] as const;

test('building seed 001’s loop by mouse, before any fit: every loop-back and its label come into view, readable, as each edge is drawn', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  await dropAll(page, SEED_001_DROPS);
  for (const [source, handle, target] of SEED_001_WIRING) {
    await connectToBody(page, source, handle, target, target === 'recover' ? 'middle' : 'title');
    await expect(page.getByRole('group', { name: `Edge from ${source} to ${target}` }).first()).toBeAttached();
    await expectFits(page, `after ${source} ${handle} → ${target}`);
    expect(await labelsOutside(page), `after ${source} ${handle} → ${target}`).toEqual([]);
  }
  expect(errors).toEqual([]);
});

test('a person who moved the view keeps their zoom: a loop-back drawn past it is panned into view just enough', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  await dropAll(page, SEED_001_DROPS);
  // The person's own pan: a little to the left, from an empty spot of the pane, every node still in view.
  const area = (await pane(page).boundingBox())!;
  await page.mouse.move(area.x + 90, area.y + area.height - 40);
  await page.mouse.down();
  await page.mouse.move(area.x + 70, area.y + area.height - 40, { steps: 4 });
  await page.mouse.up();
  await viewStill(page);
  const theirs = await zoom(page);
  for (const [source, handle, target] of SEED_001_WIRING) {
    await connectToBody(page, source, handle, target, target === 'recover' ? 'middle' : 'title');
    await viewStill(page);
    expect(await labelsOutside(page), `after ${source} ${handle} → ${target}`).toEqual([]);
    expect(await zoom(page), `after ${source} ${handle} → ${target}`).toBe(theirs);
  }
  await expect(page.locator('.react-flow__edge')).toHaveCount(SEED_001_WIRING.length);
  expect(errors).toEqual([]);
});

/** A loop no template has: two Verify nodes in a row, each with its way back to Reason and to Recover; placed as dropped in a row. */
const twoVerifies = graphFixture('two-verify');

test('Fit View on a seven-node loop with two Verify nodes lays it out to read whole, says so, and Undo puts the nodes back', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await expect(button(page, 'Debug layout')).toBeVisible();
  await openGraph(page, twoVerifies);
  const placed = await flowNode(page, 'recover').boundingBox();
  await fitBy(page, 'Fit View');
  const note = page.getByRole('status').filter({ hasText: 'Laid out to fit readable' });
  await expect(note).toBeVisible();
  await expectFits(page, 'two Verify nodes, after Fit View');
  await note.getByRole('button', { name: 'Undo' }).click();
  await expect(note).toHaveCount(0);
  // The nodes as they were, the view as the fit left it: a person may lay them out again by Redo.
  await expect(button(page, 'Redo')).toBeEnabled();
  expect(await flowNode(page, 'recover').boundingBox()).not.toEqual(placed);
  await button(page, 'Redo').click();
  await expectFits(page, 'two Verify nodes, laid out again by Redo');

  await page.keyboard.press('Control+Shift+D');
  await expect(button(page, 'Debug layout')).toHaveAttribute('aria-pressed', 'true');
  await expectFits(page, 'two Verify nodes, Debug layout entered');
  await fitBy(page, 'Fit View');
  await expectFits(page, 'two Verify nodes, Debug layout, Fit View');
  expect(errors).toEqual([]);
});

test('a chain of thirteen nodes, too long to fold once, laid out in rows that fit readable: by Auto layout, and by Fit View', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  // Respond nodes, short: thirteen of them fit the canvas readable in three rows, not in two.
  const nodes = Array.from({ length: 13 }, (_, index) => ({ id: `s${index}`, kind: 'respond', label: `Step ${index + 1}`, position: { x: index * 250, y: 0 } }));
  const chain = {
    format: 'loopscope/graph', version: 1, name: 'Thirteen steps', entry: 's0', skills: {},
    nodes, edges: nodes.slice(1).map((node, index) => ({ id: `e${index}`, source: `s${index}`, target: node.id })),
  };
  await page.goto('/?template=blank');
  await expect(button(page, 'Debug layout')).toBeVisible();
  await openGraph(page, chain);
  await fitBy(page, 'Fit View');
  await expect(page.getByRole('status').filter({ hasText: 'Laid out to fit readable' })).toBeVisible();
  await expectFits(page, 'thirteen nodes, after Fit View');
  await fitBy(page, 'Auto layout');
  await expectFits(page, 'thirteen nodes, after Auto layout');
  expect(errors).toEqual([]);
});

/** Found checking by hand (issue 53): six nodes in a line, a stop at its end and a way back, placed as dropped in a row. */
const linearSix = graphFixture('linear-six');

test('six nodes in a row, a graph not in the repository: Fit View, Auto layout, entering and leaving Debug all fit readable', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await expect(button(page, 'Debug layout')).toBeVisible();
  await openGraph(page, linearSix);
  await fitBy(page, 'Fit View');
  await expectFits(page, 'six in a row, after Fit View');
  await fitBy(page, 'Auto layout');
  await expectFits(page, 'six in a row, after Auto layout');
  await page.keyboard.press('Control+Shift+D');
  await expect(button(page, 'Debug layout')).toHaveAttribute('aria-pressed', 'true');
  await expectFits(page, 'six in a row, Debug layout entered');
  await page.keyboard.press('Control+Shift+D');
  await expect(button(page, 'Debug layout')).toHaveAttribute('aria-pressed', 'false');
  await expectFits(page, 'six in a row, Debug layout left');
  expect(errors).toEqual([]);
});
