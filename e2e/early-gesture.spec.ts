/**
 * Issue 55: a gesture made before the canvas's edits have loaded (canvasEdits.ts, just after its
 * first commit) is kept and made once they have, not dropped.
 */
import { expect, test } from './test.ts';
import { flowNode } from './helpers.ts';

test('a palette kind dropped before the canvas edits have loaded is allowed, and added once they have', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route('**/assets/canvasEdits-*.js', async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  await expect.poll(() => asked).toBe(true);
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
  release();
  await expect(flowNode(page, 'reason')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
});
