/**
 * Issue 53 (items 2 and 5): at 1280×720, as shipped, every template and a six-node graph built by
 * hand fit their canvas in the editing and the Debug layouts — whole, every text 10 px or more on
 * screen, no edge label on a node — at first open, after Fit View, after Auto layout, and on
 * entering and leaving the Debug layout.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors, expectFits, fitBy, openGraph, SIX_NODES } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const debugToggle = (page: Page) => button(page, 'Debug layout');
/** Switches the layout by its key, and waits until the switch says so. */
const debugLayout = async (page: Page, on: boolean) => {
  await page.keyboard.press('Control+Shift+D');
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', String(on));
};

/** The steps every graph goes through: the editing layout, then the Debug layout, then back. */
const walk = async (page: Page, name: string) => {
  await expectFits(page, `${name}, editing: first open`);
  await debugLayout(page, true);
  await expectFits(page, `${name}, Debug: entered`);
  await debugLayout(page, false);
  await expectFits(page, `${name}, editing: left the Debug layout`);
  for (const layout of ['editing', 'Debug']) {
    if (layout === 'Debug') {
      await debugLayout(page, true);
      await expectFits(page, `${name}, Debug: entered after Auto layout`);
    }
    for (const fit of ['Fit View', 'Auto layout']) {
      await fitBy(page, fit);
      await expectFits(page, `${name}, ${layout}: ${fit}`);
    }
  }
  await page.reload();
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expectFits(page, `${name}, Debug: first open`);
  await debugLayout(page, false);
  await expectFits(page, `${name}, editing: left the Debug layout after a reload`);
};

for (const template of ['securityclaw', 'graph-engineer', 'files-agent', 'approval-gate']) {
  test(`${template} fits at 1280×720 in both layouts: first open, Fit View, Auto layout, entering and leaving Debug`, async ({ page }) => {
    test.slow();
    const errors = collectErrors(page);
    await page.goto(`/?template=${template}`);
    await expect(debugToggle(page)).toBeVisible();
    await walk(page, template);
    expect(errors).toEqual([]);
  });
}

/** Seed 001's loop, six nodes placed as a person drops them from the palette and wired by outcome. */
const handBuilt = {
  format: 'loopscope/graph', version: 1, name: 'Built by hand', entry: 'reason',
  skills: { search_logs: { type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] } },
  nodes: SIX_NODES.map((node) => (node.kind === 'reason' ? { ...node, config: { plans: [{ actions: [{ skill: 'search_logs', args: {} }] }] } } : node)),
  edges: [
    { id: 'e1', source: 'reason', target: 'act' },
    { id: 'e2', source: 'act', target: 'verify', when: { outcome: 'ok' } },
    { id: 'e3', source: 'verify', target: 'respond', when: { outcome: 'sufficient' } },
    { id: 'e4', source: 'verify', target: 'recover', when: 'otherwise' },
    { id: 'e5', source: 'recover', target: 'reason', when: { outcome: 'recovered' } },
    { id: 'e6', source: 'recover', target: 'stop', when: 'otherwise' },
  ],
};

test('a six-node graph built by hand fits at 1280×720 in both layouts: first open, Fit View, Auto layout, entering and leaving Debug', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await expect(debugToggle(page)).toBeVisible();
  await openGraph(page, handBuilt);
  await walk(page, 'six nodes');
  expect(errors).toEqual([]);
});

test('stepping a run in the Debug layout, then leaving it: the editing canvas shows the whole graph readable; the person\'s own split is kept', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  await expect(debugToggle(page)).toBeVisible();
  await debugLayout(page, true);
  const stepHeading = page.getByRole('region', { name: 'Step detail' }).getByRole('heading', { name: /^Step \d+ ·/ });
  for (const step of [1, 2, 3, 4]) {
    await page.keyboard.press('F10');
    await expect(stepHeading).toContainText(`Step ${step} ·`);
    await expectFits(page, `Debug: step ${step}`);
  }
  await debugLayout(page, false);
  await expectFits(page, 'editing: left the Debug layout after four steps');

  // The person makes the Debug layout's canvas shorter: theirs, when they come back, and after a reload.
  await debugLayout(page, true);
  const canvas = page.getByRole('region', { name: 'Canvas' });
  const before = (await canvas.boundingBox())!;
  const splitter = (await page.getByRole('separator', { name: 'Resize the timeline' }).boundingBox())!;
  await page.mouse.move(splitter.x + splitter.width / 2, splitter.y + splitter.height / 2);
  await page.mouse.down();
  await page.mouse.move(splitter.x + splitter.width / 2, splitter.y + splitter.height / 2 - 120, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await canvas.boundingBox())!.height)).toBeLessThan(before.height - 100);
  const theirs = Math.round((await canvas.boundingBox())!.height);
  await debugLayout(page, false);
  await debugLayout(page, true);
  await expect.poll(async () => Math.round((await canvas.boundingBox())!.height)).toBe(theirs);
  await page.reload();
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => Math.round((await canvas.boundingBox())!.height)).toBe(theirs);
  expect(errors).toEqual([]);
});
