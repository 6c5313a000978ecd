/**
 * Issue 55: a gesture made before the canvas's edits have loaded (canvasEdits.ts, just after its
 * first commit) is kept and made once they have, not dropped; a shortcut pressed or a text pasted
 * before the shortcuts have loaded (shortcuts.ts) likewise.
 */
import { readFileSync } from 'node:fs';
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
  const edits = await holdChunk(page, 'canvasEdits');
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

test('a graph document pasted before the shortcuts have loaded opens once they have', async ({ page }) => {
  page.on('dialog', (dialog) => void dialog.accept());
  const shortcuts = await holdChunk(page, 'shortcuts');
  await page.goto('/?template=blank');
  await expect(page.getByRole('heading', { name: 'Untitled graph' })).toBeVisible();
  await expect.poll(() => shortcuts.asked).toBe(true);
  await page.evaluate((text) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', text);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true }));
  }, readFileSync(new URL('../src/graph/templates/securityclaw.json', import.meta.url), 'utf8'));
  await expect(page.getByRole('heading', { name: 'Untitled graph' })).toBeVisible();
  shortcuts.release();
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();
});
