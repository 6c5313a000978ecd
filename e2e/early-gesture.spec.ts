/**
 * Issue 55: a gesture made before the canvas's edits have loaded (canvasEdits.ts, just after its
 * first commit) is kept and made once they have, not dropped; a shortcut pressed before the
 * shortcuts have loaded (shortcuts.ts) likewise.
 */
import { expect, test, type Page } from './test.ts';
import { flowNode, pane } from './helpers.ts';

/** Holds back the chunk whose file name starts with `name` until the returned release is called; `asked` says whether the page has asked for it. */
const holdChunk = async (page: Page, name: string) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const chunk = { asked: false, release };
  await page.route(`**/assets/${name}-*.js`, async (route) => {
    chunk.asked = true;
    await held;
    await route.continue();
  });
  return chunk;
};

test('a palette kind dropped before the canvas edits have loaded is allowed, and added once they have', async ({ page }) => {
  // The edits come in the panels' chunk, which the palette shares (vite.config.ts).
  const edits = await holdChunk(page, 'panels');
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  await expect.poll(() => edits.asked).toBe(true);
  // The palette loads with the edits, so the drag is made here as the palette makes it: its kind under its drag type.
  const allowed = await page.getByRole('region', { name: 'Canvas' }).evaluate((canvas) => {
    const { left, top } = canvas.getBoundingClientRect();
    const data = new DataTransfer();
    data.setData('application/x-loopscope-kind', 'reason');
    const init = { dataTransfer: data, bubbles: true, cancelable: true, clientX: left + 240, clientY: top + 200 };
    const over = new DragEvent('dragover', init);
    canvas.dispatchEvent(over);
    canvas.dispatchEvent(new DragEvent('drop', init));
    return over.defaultPrevented;
  });
  expect(allowed).toBe(true);
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  edits.release();
  await expect(flowNode(page, 'reason')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
});

test('an undo pressed before the shortcuts have loaded undoes once they have', async ({ page }) => {
  const shortcuts = await holdChunk(page, 'shortcuts');
  await page.goto('/?template=blank');
  await expect.poll(() => shortcuts.asked).toBe(true);
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Reason', exact: true }).click();
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  await pane(page).click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('Control+z');
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  shortcuts.release();
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
});
