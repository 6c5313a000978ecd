import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test.ts';
import { atEveryStep, collectErrors, flowNode, nodesOutOfView, smallTexts } from './helpers.ts';

// A laptop screen: the size the canvas has to be readable at.
test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** The smallest node title on the canvas, in screen pixels: its font size times the canvas zoom. */
const smallestTitle = (page: Page) =>
  page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>('.react-flow__viewport')!;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    const sizes = [...document.querySelectorAll<HTMLElement>('.agent-node-label')].map((title) => parseFloat(getComputedStyle(title).fontSize) * zoom);
    return Math.min(...sizes);
  });

/** Edge labels that cover a node or another label, by their boxes on screen. */
const labelClashes = (page: Page) =>
  page.evaluate(() => {
    const boxes = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)].map((element) => ({ id: element.dataset.edgeId ?? element.closest('.react-flow__node')?.getAttribute('data-id') ?? '', box: element.getBoundingClientRect() }));
    const labels = boxes('.edge-label');
    const nodes = boxes('.agent-node');
    const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const found: string[] = [];
    for (const label of labels) {
      for (const node of nodes) if (overlap(label.box, node.box)) found.push(`${label.id} on ${node.id}`);
      for (const other of labels) if (other.id > label.id && overlap(label.box, other.box)) found.push(`${label.id} on ${other.id}`);
    }
    return found;
  });

test('node titles are at least 10 px on screen at the first fit and after Auto layout; labels clear of nodes', async ({ page }) => {
  await page.goto('/?template=securityclaw');
  await expect(flowNode(page, 'decide')).toBeVisible();
  await expect.poll(() => smallestTitle(page)).toBeGreaterThanOrEqual(10);
  // The labels are placed just after the first screen.
  await expect(page.locator('.edge-label').first()).toBeVisible();
  expect(await labelClashes(page)).toEqual([]);

  // Piled in one column, then laid out.
  await page.goto('/?template=graph-engineer');
  await expect(flowNode(page, 'gather')).toBeVisible();
  await button(page, 'Auto layout').click();
  // ELK works in a worker: on a loaded machine it may take longer than one assertion's budget.
  await expect(button(page, 'Auto layout')).toBeEnabled({ timeout: 45_000 });
  await expect.poll(() => smallestTitle(page)).toBeGreaterThanOrEqual(10);
  await expect.poll(() => labelClashes(page)).toEqual([]);
});

/** Node titles ended short: a title is never cut at the default zoom. */
const cutTitles = (page: Page) => page.locator('.agent-node-label [aria-hidden="true"]').allTextContents();

/** Edge labels that cover a run's status chips or a node's badges. */
const labelsOverBadges = (page: Page) =>
  page.evaluate(() => {
    const labels = [...document.querySelectorAll<HTMLElement>('.edge-label')].map((label) => ({ id: label.dataset.edgeId, box: label.getBoundingClientRect() }));
    const badges = [...document.querySelectorAll<HTMLElement>('.status-chip, .entry-badge, .heat-badge, .problem-mark')].filter((badge) => !badge.closest('.edge-label'));
    const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return badges.flatMap((badge) => labels.filter((label) => overlap(label.box, badge.getBoundingClientRect())).map((label) => `${label.id} on ${badge.textContent || badge.className}`));
  });

for (const template of ['securityclaw', 'graph-engineer', 'approval-gate', 'files-agent']) {
  test(`${template} at 1280×720: whole, every text at least 10 px at the first fit, no title cut, no label on a node`, async ({ page }) => {
    await page.goto(`/?template=${template}`);
    await expect(page.locator('.react-flow__node').first()).toBeVisible();
    // The labels are placed just after the first screen: wait for them.
    await expect(page.locator('.edge-label').first()).toBeVisible();
    // And the tools rows of the nodes that call MCP tools, filled in with the labels.
    if (template === 'files-agent') await expect(page.getByRole('img', { name: /^calls / })).toHaveCount(3);
    await expect.poll(() => nodesOutOfView(page)).toEqual([]);
    expect(await smallTexts(page)).toEqual([]);
    expect(await cutTitles(page)).toEqual([]);
    expect(await labelClashes(page)).toEqual([]);
  });
}

test('after a run every text is still 10 px or more, and no label covers a run chip or a badge', async ({ page }) => {
  await page.goto('/');
  // Every step in turn: the chips change with the selected step, and the labels with its edges.
  await atEveryStep(page, async (step) => {
    await expect(page.locator('.status-chip').first()).toBeVisible();
    expect(await labelsOverBadges(page), `step ${step}`).toEqual([]);
    expect(await smallTexts(page), `step ${step}`).toEqual([]);
    expect(await cutTitles(page)).toEqual([]);
  });
});

test('on a 1280×720 laptop the default graph fits whole and readable; the scenarios wait on a rail, so the timeline reasons are not cut', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'halt')).toBeVisible();
  await expect.poll(() => smallestTitle(page)).toBeGreaterThanOrEqual(10);
  await expect.poll(() => nodesOutOfView(page)).toEqual([]);

  await expect(page.getByRole('region', { name: 'Scenarios' })).toHaveCount(0);
  await button(page, 'Run').click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' })).toBeVisible();
  const reason = page.getByRole('list', { name: 'Timeline' }).getByText('evaluation.plan_exhausted eq true (was true)').first();
  await expect(reason).toBeVisible();
  expect(await reason.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

  // The rail opens the panel, Hide gives the room back; both from the keyboard too.
  await button(page, 'Show Scenarios (13)').click();
  await expect(page.getByRole('region', { name: 'Scenarios' })).toBeVisible();
  await button(page, 'Hide Scenarios (13)').press('Enter');
  await expect(page.getByRole('region', { name: 'Scenarios' })).toHaveCount(0);
  await expect(button(page, 'Show Scenarios (13)')).toBeVisible();
});

test('icons are SVG, and no emoji is drawn anywhere', async ({ page }) => {
  await page.goto('/?template=blank');
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Act', exact: true }).press('Enter');
  await expect(flowNode(page, 'act')).toBeVisible();
  // Every palette item, node head and problem mark draws an SVG icon: the canvas's as SVG images,
  // the same drawings (an inline SVG on every node made big graphs slow to drag).
  for (const item of await page.getByRole('complementary', { name: 'Palette' }).getByRole('button').all()) await expect(item.locator('svg')).toHaveCount(1);
  const svgImage = /^url\("data:image\/svg\+xml,/;
  await expect(flowNode(page, 'act').locator('.agent-node-icon')).toHaveCSS('background-image', svgImage);
  await expect(page.getByRole('region', { name: 'Problems' }).locator('.problem-icon svg').first()).toBeVisible();
  await expect(flowNode(page, 'act').getByRole('img', { name: /^error:/ })).toHaveCSS('background-image', svgImage);
  // With forced colours those images are masks filled with the system's text colour, as an inline
  // SVG in currentColor would be, not the kind's own colour.
  await page.emulateMedia({ forcedColors: 'active' });
  for (const icon of [flowNode(page, 'act').locator('.agent-node-icon'), flowNode(page, 'act').getByRole('img', { name: /^error:/ })]) {
    await expect(icon).toHaveCSS('mask-image', svgImage);
    await expect(icon).toHaveCSS('background-image', 'none');
  }
  await page.emulateMedia({ forcedColors: 'none' });
  const text = await page.evaluate(() => document.body.innerText);
  expect(text.match(/\p{Extended_Pictographic}/gu) ?? []).toEqual([]);
});

test('connect two nodes from the keyboard: select a node, press C, choose the outcome and the target', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  const palette = page.getByRole('complementary', { name: 'Palette' });
  await palette.getByRole('button', { name: 'Act', exact: true }).press('Enter');
  await palette.getByRole('button', { name: 'Verify', exact: true }).press('Enter');
  await expect(flowNode(page, 'verify')).toBeVisible();

  // Select Act from the keyboard: focus its node and press Enter.
  await flowNode(page, 'act').focus();
  await page.keyboard.press('Enter');
  await expect(flowNode(page, 'act')).toHaveClass(/selected/);
  await page.keyboard.press('c');
  const dialog = page.getByRole('dialog', { name: 'Connect from act' });
  await expect(dialog.getByLabel('Leaves on')).toBeFocused();
  // Esc closes it and nothing changes.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);

  await page.keyboard.press('c');
  await dialog.getByLabel('Leaves on').selectOption('empty');
  await dialog.getByLabel('Goes to').selectOption('verify');
  await dialog.getByLabel('Goes to').press('Tab');
  await expect(dialog.getByRole('button', { name: 'Connect', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText('act → verify');
  await expect(inspector.getByLabel('Outcome', { exact: true })).toHaveValue('empty');
  expect(errors).toEqual([]);
});

test('after Run the timeline has the focus; dialogs take focus, close on Esc and give it back', async ({ page }) => {
  await page.goto('/?template=securityclaw');
  await button(page, 'Run').click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[aria-label="Timeline"]')))).toBe(true);
  // The arrows move through the steps from there.
  await page.keyboard.press('Home');
  await expect(page.getByRole('region', { name: 'Step detail' }).getByRole('heading', { name: /^Step 1 ·/ })).toBeVisible();

  for (const [opener, title, focused] of [['Mermaid', 'Mermaid flowchart', 'Mermaid text'], ['Paste JSON', 'Paste JSON', 'Graph JSON']] as const) {
    await button(page, opener).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByLabel(focused)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button(page, opener)).toBeFocused();
  }
});

test('every control is at least 24 px, names are unique, and axe finds nothing serious', async ({ page }) => {
  // axe reads the whole page (canvas, timeline, scenarios, step detail): three budgets on a loaded machine.
  test.slow();
  await page.goto('/?template=securityclaw');
  await button(page, 'Run').click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' })).toBeVisible();
  await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(1).click();

  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, select, input:not([type="file"]), [role="button"], [role="separator"]')]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth)
      // Splitters are thin bars: their hit area is the library's, at least 10 px wide and the bar's length long.
      .filter(({ element, box }) => (element.getAttribute('role') === 'separator' ? Math.max(box.width, box.height) < 24 : box.width < 24 || box.height < 24))
      .map(({ element, box }) => `${element.getAttribute('aria-label') ?? element.textContent?.trim()} ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
  expect(small).toEqual([]);

  const names = await page.getByRole('button').evaluateAll((buttons) =>
    buttons.filter((button) => button.checkVisibility()).map((button) => button.getAttribute('aria-label') ?? button.textContent?.trim() ?? ''),
  );
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  expect(repeated).toEqual([]);

  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
});

test('the splitters resize from the keyboard and the mouse, collapse on Enter, and the sizes come back after a reload', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'halt')).toBeVisible();
  const palette = page.getByRole('separator', { name: 'Resize the palette' });
  const paletteWidth = () => page.getByRole('complementary', { name: 'Palette' }).evaluate((element) => element.getBoundingClientRect().width);
  await expect(palette).toHaveAttribute('aria-valuenow', '116');
  const before = await paletteWidth();
  await palette.focus();
  await page.keyboard.press('ArrowRight');
  await expect(palette).not.toHaveAttribute('aria-valuenow', '116');
  expect(await paletteWidth()).toBeGreaterThan(before);
  await page.keyboard.press('Home');
  await expect(palette).toHaveAttribute('aria-valuenow', '100');

  // Enter collapses the palette and opens it again at the same size.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Palette' })).toBeHidden();
  await expect(palette).toHaveAttribute('aria-valuetext', 'collapsed');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Palette' })).toBeVisible();
  await expect(palette).toHaveAttribute('aria-valuenow', '100');

  // The inspector's splitter dragged to the left widens it by as much.
  const inspector = page.getByRole('separator', { name: 'Resize the inspector' });
  const box = (await inspector.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 40, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const widened = Number(await inspector.getAttribute('aria-valuenow'));
  expect(widened).toBeGreaterThanOrEqual(315);

  await page.reload();
  await expect(flowNode(page, 'halt')).toBeVisible();
  await expect(page.getByRole('separator', { name: 'Resize the palette' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByRole('separator', { name: 'Resize the inspector' })).toHaveAttribute('aria-valuenow', String(widened));
});
