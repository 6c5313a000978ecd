/**
 * The debugging screen at 1280×720 (issue 34): the Debug layout, the selected step's node kept in
 * view, the debugger's keys, and nothing stale (a scenario left from another graph, a refused Run,
 * a run painted over an edited graph, breakpoints after a reload, forks and breakpoints, Compare).
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors, flowNode, openGraph, pane } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const debugToggle = (page: Page) => button(page, 'Debug layout');
const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const stepHeading = (page: Page) => detail(page).getByRole('heading', { name: /^Step \d+ ·/ });
const status = (page: Page) => page.getByRole('status');
const transform = (page: Page) => page.locator('.react-flow__viewport').evaluate((element) => (element as HTMLElement).style.transform);

/** Whether the node is wholly inside the canvas, as drawn on screen. */
const inCanvasView = async (page: Page, id: string) => {
  const canvas = await page.locator('.react-flow').first().boundingBox();
  const node = await flowNode(page, id).boundingBox();
  if (!canvas || !node) return false;
  return node.x >= canvas.x && node.y >= canvas.y && node.x + node.width <= canvas.x + canvas.width && node.y + node.height <= canvas.y + canvas.height;
};

/** Zooms in with the view controls until the node is out of the canvas's view. */
const zoomUntilOutOfView = async (page: Page, id: string) => {
  const zoomIn = page.getByRole('button', { name: 'Zoom In' });
  await expect(async () => {
    await zoomIn.click();
    expect(await inCanvasView(page, id)).toBe(false);
  }).toPass();
};

const box = async (locator: ReturnType<Page['locator']>) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
};

test('Debug layout: the timeline and the step detail side by side under a canvas as tall as the editing one, palette and inspector hidden; the editing layout comes back as it was; both remembered', async ({ page }) => {
  // A long journey (reloads, whole runs, a slow run): three times the usual budget on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  // The editing layout, with the Scenarios panel opened by the person.
  await page.getByRole('button', { name: 'Show Scenarios (13)' }).click();
  await expect(page.getByRole('region', { name: 'Scenarios' })).toBeVisible();
  const inspectorBefore = await box(page.getByRole('region', { name: 'Inspector' }));
  const editingCanvas = await box(page.getByRole('region', { name: 'Canvas' }));
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(debugToggle(page)).toHaveAttribute('title', /\(Ctrl\+Shift\+D\)$/);

  await debugToggle(page).click();
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('complementary', { name: 'Palette' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Inspector' })).toHaveCount(0);
  const checkDebugLayout = async () => {
    const canvas = await box(page.getByRole('region', { name: 'Canvas' }));
    const timeline = await box(page.getByRole('region', { name: 'Timeline panel' }));
    const stepDetail = await box(detail(page));
    // Side by side, the step detail to the right of the timeline, both under the canvas; the canvas
    // as tall as the editing one, so a graph that fits there readable fits here (issue 53).
    expect(stepDetail.x).toBeGreaterThanOrEqual(timeline.x + timeline.width - 1);
    expect(Math.abs(stepDetail.y - timeline.y)).toBeLessThan(2);
    expect(canvas.y + canvas.height).toBeLessThanOrEqual(timeline.y);
    expect(canvas.height).toBeGreaterThanOrEqual(editingCanvas.height - 1);
    expect(timeline.height).toBeGreaterThan(180);
    expect(stepDetail.height).toBeGreaterThan(180);
    expect(timeline.width).toBeGreaterThan(450);
    // The view controls stay, beside the timeline.
    await expect(page.getByRole('button', { name: 'Fit View' })).toBeVisible();
  };
  await checkDebugLayout();
  await button(page, 'Run').click();
  await expect(status(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);

  // Remembered across a reload.
  await page.reload();
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'true');
  await checkDebugLayout();

  // Ctrl+Shift+D: the editing layout as it was, Scenarios still open, the inspector as wide as before.
  await page.keyboard.press('Control+Shift+D');
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('complementary', { name: 'Palette' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Scenarios' })).toBeVisible();
  const inspectorAfter = await box(page.getByRole('region', { name: 'Inspector' }));
  expect(Math.round(inspectorAfter.width)).toBe(Math.round(inspectorBefore.width));
  await page.reload();
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('complementary', { name: 'Palette' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('F10 steps through the recovery path in the Debug layout with the node of each step in view; an edited condition leaves nothing stale; the view stays the person\'s while they hold the canvas', async ({ page }) => {
  // A long journey (reloads, whole runs, a slow run): three times the usual budget on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  // The keys come with the run controls, a moment after the first screen.
  await expect(debugToggle(page)).toBeVisible();
  await page.keyboard.press('Control+Shift+D');
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'true');
  // Zoomed in, so that most nodes are out of view.
  await zoomUntilOutOfView(page, 'recover');

  const path = [['decide', 'Decide'], ['execute', 'Execute skill'], ['evaluate', 'Evaluate'], ['recover', 'Recover'], ['decide', 'Decide']];
  for (const [index, [id, label]] of path.entries()) {
    await page.keyboard.press('F10');
    await expect(stepHeading(page)).toContainText(`Step ${index + 1} · ${label}`);
    await expect(flowNode(page, id)).toHaveClass(/\bcurrent\b/);
    await expect.poll(() => inCanvasView(page, id), { message: `step ${index + 1}: ${id} in view` }).toBe(true);
  }

  // Back to editing to change a condition: the run on screen says it ran on an earlier version.
  await page.keyboard.press('Control+Shift+D');
  await page.getByRole('group', { name: 'Edge from evaluate to recover' }).first().focus();
  await page.keyboard.press('Enter');
  await page.getByRole('region', { name: 'Inspector' }).getByLabel('Value').fill('false');
  const note = page.getByRole('note').filter({ hasText: 'ran on an earlier version of this graph' });
  await expect(note).toBeVisible();
  // Debugging again, F10 starts afresh on the graph as it is: nothing of the old run is painted as its.
  await page.getByRole('heading', { name: 'Timeline' }).click();
  await page.keyboard.press('Control+Shift+D');
  await expect(debugToggle(page)).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('F10');
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  await expect(stepHeading(page)).toContainText('Step 1 · Decide');
  await expect(note).toHaveCount(0);
  await expect.poll(() => inCanvasView(page, 'decide')).toBe(true);
  // A person grabs the canvas and pans away: while they hold it, a step does not move the view.
  const area = await box(pane(page));
  await page.mouse.move(area.x + area.width - 40, area.y + area.height - 30);
  await page.mouse.down();
  await page.mouse.move(area.x + 40, area.y + 20, { steps: 6 });
  const theirs = await transform(page);
  await page.keyboard.press('F10');
  await expect(stepHeading(page)).toContainText('Step 2 · Execute skill');
  await expect(flowNode(page, 'execute')).toHaveClass(/\bcurrent\b/);
  expect(await transform(page)).toBe(theirs);
  await page.mouse.up();

  expect(errors).toEqual([]);
});

test('the debugger keys: F5 runs and continues, F10 steps, Shift+F10 steps a round, F6 pauses, Shift+F5 resets; none while typing in a field; each in its button\'s tooltip', async ({ page }) => {
  // A long journey (reloads, whole runs, a slow run): three times the usual budget on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  for (const [name, key] of [['Run', 'F5'], ['Step', 'F10'], ['Step round', 'Shift+F10'], ['Pause', 'F6'], ['Continue', 'F5'], ['Reset', 'Shift+F5']]) {
    await expect(button(page, name)).toHaveAttribute('title', new RegExp(`\\(${key.replace('+', '\\+')}\\)$`));
    await expect(button(page, name)).toHaveAttribute('aria-keyshortcuts', key);
  }

  // Typing in a field: the key is the field's.
  const seed = page.getByLabel('Seed');
  await seed.focus();
  await page.keyboard.press('F10');
  await page.keyboard.press('F5');
  await expect(status(page)).toHaveText('No run yet.');
  await expect(seed).toBeFocused();

  await page.getByRole('heading', { name: 'Timeline' }).click();
  await page.keyboard.press('F10');
  await expect(steps(page)).toHaveCount(1);
  await page.keyboard.press('Shift+F10');
  // Paused before round 2 starts: decide, execute, evaluate, recover.
  await expect(status(page)).toContainText('paused before round 2 starts');
  await expect(steps(page)).toHaveCount(4);
  await page.keyboard.press('F5');
  await expect(status(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);
  await page.keyboard.press('Shift+F5');
  await expect(status(page)).toHaveText('No run yet.');

  // F6 pauses a slow run, F5 goes on with it.
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: 'Slow (600 ms a step)' });
  await page.getByRole('heading', { name: 'Timeline' }).click();
  await page.keyboard.press('F5');
  await expect(page.locator('.run-state')).toHaveText('Running…');
  await page.keyboard.press('F6');
  await expect(page.locator('.run-state')).toHaveText('Paused');
  const pausedAt = await steps(page).count();
  expect(pausedAt).toBeLessThan(8);
  await page.keyboard.press('F5');
  await expect(status(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);
  expect(errors).toEqual([]);
});

test('nothing stale: a scenario chosen on another graph is not the next graph\'s', async ({ page }) => {
  const errors = collectErrors(page);
  // A scenario chosen on Graph Engineer …
  await page.goto('/?template=graph-engineer');
  const scenario = page.getByRole('combobox', { name: 'Scenario' });
  await scenario.selectOption('the inner loop hits max_iter and routes on error');
  // … is not SecurityClaw's: opened from Graphs, it runs as drawn.
  await button(page, 'Graphs').click();
  await page.getByRole('dialog', { name: 'Graphs' }).getByRole('button', { name: 'New graph from the template SecurityClaw triage' }).click();
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();
  await expect(scenario).toHaveValue('');
  await button(page, 'Run').click();
  await expect(status(page)).toContainText('completed');
  await expect(page.locator('.run-refused')).toHaveCount(0);
  // Its own choice comes back with it.
  await button(page, 'Graphs').click();
  await page.getByRole('dialog', { name: 'Graphs' }).getByRole('button', { name: /^Graph Engineer/ }).click();
  await expect(page.getByRole('heading', { name: 'Graph Engineer' })).toBeVisible();
  await expect(scenario).toHaveValue('the inner loop hits max_iter and routes on error');
  expect(errors).toEqual([]);
});

test('nothing stale: a run shown on an edited graph is dimmed and says it ran on an earlier version', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  await button(page, 'Run').click();
  await expect(status(page)).toContainText('completed');
  // An edited condition: the run's marks are dimmed, and a note says why.
  const note = page.getByRole('note').filter({ hasText: 'ran on an earlier version of this graph' });
  await expect(note).toHaveCount(0);
  await page.getByRole('group', { name: 'Edge from evaluate to recover' }).first().focus();
  await page.keyboard.press('Enter');
  await page.getByRole('region', { name: 'Inspector' }).getByLabel('Value').fill('false');
  await expect(note).toHaveText('Run 1 ran on an earlier version of this graph: its marks are dimmed. Run again to see what this version does.');
  await expect(flowNode(page, 'answer').locator('.agent-node')).toHaveCSS('outline-style', 'dashed');
  // A run on the edited graph is current; the first run is current again once the edit is undone.
  await button(page, 'Run').click();
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  await expect(note).toHaveCount(0);
  await button(page, 'Undo').click();
  await page.getByLabel('Shown run').selectOption('1');
  await expect(note).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('nothing stale: a refused Run says why beside the Run button and leaves no run looking like its result', async ({ page }) => {
  // A long journey (reloads, whole runs, a slow run): three times the usual budget on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  const withHost = JSON.parse(JSON.stringify(await exportedGraph(page))) as { name: string; skills: Record<string, unknown> };
  withHost.name = 'SecurityClaw on a host';
  withHost.skills.search_events = { type: 'http', access: 'read', method: 'GET', url: 'http://127.0.0.1:9/search', timeoutMs: 1000 };
  await openGraph(page, withHost);
  await button(page, 'Step').click();
  await page.getByRole('dialog', { name: 'Allow network access' }).getByRole('button', { name: 'Allow and run' }).click();
  await expect(steps(page)).toHaveCount(1);
  await expect(flowNode(page, 'decide')).toHaveClass(/\bcurrent\b/);
  await page.reload();
  await expect(steps(page)).toHaveCount(1);
  // After a reload the hosts are asked again; the person declines.
  await button(page, 'Run').click();
  await page.getByRole('dialog', { name: 'Allow network access' }).getByRole('button', { name: 'Cancel' }).click();
  const refused = page.getByRole('toolbar', { name: 'Run controls' }).getByRole('alert');
  await expect(refused).toHaveText(/^Run refused: it would contact hosts that were not allowed\./);
  await expect(steps(page)).toHaveCount(0);
  await expect(page.locator('.react-flow__node.current')).toHaveCount(0);
  await expect(status(page)).toHaveText('Not run: why is beside the Run button.');
  // The earlier run is still there to pick.
  await page.getByLabel('Shown run').selectOption('1');
  await expect(steps(page)).toHaveCount(1);
  await expect(refused).toHaveCount(0);
  expect(errors).toEqual([]);
});

/** The open graph as Export JSON writes it. */
const exportedGraph = async (page: Page) => {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const stream = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
};

test('a zoom by the buttons or the minimap is the person\'s view: switching layouts resizes the canvas without fitting the graph again over it', async ({ page }) => {
  await page.goto('/?template=securityclaw');
  await expect(debugToggle(page)).toBeVisible();
  const scale = async () => Number(/scale\(([\d.]+)\)/.exec(await transform(page))?.[1]);
  const canvasSize = async () => {
    const { width, height } = await box(page.locator('.react-flow').first());
    return `${Math.round(width)}×${Math.round(height)}`;
  };
  /** Switches the layout, and waits for the canvas's new size and two frames more: a view still fitted is fitted again by then. */
  const switchLayout = async () => {
    const before = await canvasSize();
    await page.keyboard.press('Control+Shift+D');
    await expect.poll(canvasSize).not.toBe(before);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  };

  const fitted = await scale();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await expect.poll(scale).toBeGreaterThan(fitted);
  const zoomed = await scale();
  await switchLayout();
  expect(await scale()).toBe(zoomed);

  // Fit View gives the view back to the fit; a wheel on the minimap then takes it again.
  await page.getByRole('button', { name: 'Fit View' }).click();
  await expect.poll(scale).not.toBe(zoomed);
  await page.getByRole('img', { name: 'Minimap' }).hover();
  const refitted = await transform(page);
  await page.mouse.wheel(0, -200);
  await expect.poll(() => transform(page)).not.toBe(refitted);
  const wheeled = await transform(page);
  await switchLayout();
  expect(await transform(page)).toBe(wheeled);
});
