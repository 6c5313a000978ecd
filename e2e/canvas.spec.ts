import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './test.ts';
import { parseGraph } from '../src/graph/parse.ts';
import { flowNode, gridGraph, relabel } from './helpers.ts';

const TEMPLATE = readFileSync(new URL('../src/graph/templates/securityclaw.json', import.meta.url), 'utf8');

const canvasNode = (page: Page, label: string) =>
  page.locator('.react-flow__node').filter({ has: page.locator('.agent-node-label').getByText(label, { exact: true }) });

/** A document as the app reads it: defaults filled in, so two files that mean the same compare equal. */
const parsed = (text: string) => {
  const result = parseGraph(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
};
const edgeLabel = (page: Page, text: string) => page.locator('.edge-label').filter({ hasText: text });

const exportGraph = async (page: Page) => {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON', exact: true }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
};

const importText = (page: Page, name: string, text: string) =>
  page.getByLabel('Import JSON').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

test('SecurityClaw: nodes by label, edges labelled in words, loop-backs drawn apart', async ({ page }) => {
  await page.goto('/');
  for (const label of ['Decide', 'Execute skill', 'Evaluate', 'Recover', 'Format response', 'Forced stop', 'Human confirmation', 'Final response'])
    await expect(canvasNode(page, label)).toBeVisible();
  await expect(edgeLabel(page, 'plan_exhausted = true')).toBeVisible();
  await expect(edgeLabel(page, 'outcome: recovered')).toBeVisible();
  // Human confirmation sits below, left of Recover (so SecurityClaw fits a laptop whole and
  // readable): the edge to it is drawn as a loop, far from its row, so it is labelled.
  await expect(edgeLabel(page, 'outcome: needs_human')).toBeVisible();
  await expect(edgeLabel(page, 'otherwise')).toHaveCount(2);
  // Re-plan, recovered, and approved: three loops back to decide.
  await expect(page.locator('.react-flow__edge.back-edge')).toHaveCount(3);
  await expect(canvasNode(page, 'Decide').getByText('entry')).toBeVisible();
  // One source handle per outcome, none on terminal kinds.
  await expect(canvasNode(page, 'Evaluate').locator('.react-flow__handle.source')).toHaveCount(4);
  await expect(canvasNode(page, 'Format response').locator('.react-flow__handle.source')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge.fired, .react-flow__node.current')).toHaveCount(0);
});

test('loop-backs are dashed, and drawn solid once zoomed out to where dashes are too small to see', async ({ page }) => {
  await page.goto('/');
  const loopBack = page.locator('.react-flow__edge.back-edge .react-flow__edge-path').first();
  const dashes = () => loopBack.evaluate((path) => getComputedStyle(path).strokeDasharray);
  const zoom = () => page.locator('.react-flow__viewport').evaluate((element) => Number(/scale\(([\d.]+)\)/.exec((element as HTMLElement).style.transform)?.[1]));
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(zoom).toBeGreaterThanOrEqual(0.5);
  await expect.poll(dashes).not.toBe('none');
  while ((await zoom()) >= 0.5) await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect.poll(dashes).toBe('none');
});

test('Export JSON downloads the template unchanged', async ({ page }) => {
  await page.goto('/');
  const { name, text } = await exportGraph(page);
  expect(name).toBe('securityclaw-triage.json');
  expect(parsed(text)).toEqual(parsed(TEMPLATE));
});

test('import a file, then a broken one: the alert names the path and the graph stays', async ({ page }) => {
  await page.goto('/');
  const renamed = { ...JSON.parse(TEMPLATE), name: 'Imported triage' };
  renamed.nodes[0].label = 'Plan it';
  await importText(page, 'imported.json', JSON.stringify(renamed));
  await expect(page.getByRole('heading', { name: 'Imported triage' })).toBeVisible();
  await expect(canvasNode(page, 'Plan it')).toBeVisible();

  const broken = structuredClone(renamed);
  broken.nodes[1].config.retry.maxAttempts = 'three';
  await importText(page, 'broken.json', JSON.stringify(broken));
  await expect(page.getByRole('alert')).toContainText('nodes[1].config.retry.maxAttempts');
  await expect(page.getByRole('alert')).toContainText('broken.json');
  await expect(page.getByRole('heading', { name: 'Imported triage' })).toBeVisible();
  await expect(canvasNode(page, 'Plan it')).toBeVisible();
  expect(parsed((await exportGraph(page)).text)).toEqual(parsed(JSON.stringify(renamed)));
});

test('?template=graph-engineer opens that template', async ({ page }) => {
  await page.goto('/?template=graph-engineer');
  await expect(page.getByRole('heading', { name: 'Graph Engineer' })).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(8);
  await expect(edgeLabel(page, 'not verified: back to REASON')).toBeVisible();
  await expect(page.locator('.react-flow__edge.back-edge')).toHaveCount(3);
});

test('a run marks the current node and the fired edge; breakpoints toggle on the canvas', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' }).first()).toBeVisible();
  await expect(page.locator('.react-flow__node.current')).toHaveCount(1);
  await expect(page.locator('.react-flow__node.current')).toContainText('Format response');
  await expect(canvasNode(page, 'Decide').locator('.heat-badge')).toHaveText(/×\d/);

  // Step 3 is Evaluate: e4 fired with its reason beside it, e3 was tried first and says why not on hover.
  await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(2).click();
  await expect(page.locator('.react-flow__node.current')).toContainText('Evaluate');
  await expect(page.locator('.react-flow__edge.fired')).toHaveCount(1);
  await expect(page.locator('.react-flow__edge.fired')).toHaveAttribute('data-id', 'e4');
  await expect(edgeLabel(page, 'plan_exhausted = true')).toContainText('evaluation.plan_exhausted eq true (was true)');
  await expect(edgeLabel(page, 'outcome: sufficient')).toHaveAttribute('title', /^not taken: /);

  await page.getByRole('button', { name: 'Toggle breakpoint on recover' }).click();
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on recover' })).toHaveAttribute('aria-pressed', 'true');
  // An edge's breakpoint is in its own menu: its label, selected, shows the toggle.
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on edge e4' })).toHaveCount(0);
  await edgeLabel(page, 'plan_exhausted = true').click();
  await page.getByRole('button', { name: 'Toggle breakpoint on edge e4' }).click();
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on edge e4' })).toHaveAttribute('aria-pressed', 'true');
  // Selected no more, the label keeps a dot for it.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on edge e4' })).toHaveCount(0);
  await expect(edgeLabel(page, 'plan_exhausted = true').locator('.breakpoint-dot')).toBeVisible();
});

test('Auto layout moves nodes left to right in one undoable step', async ({ page }) => {
  // The template as a person might have left it: every node in one column.
  const piled = JSON.parse(TEMPLATE);
  piled.nodes.forEach((node: { position: { x: number; y: number } }, index: number) => (node.position = { x: 0, y: index * 40 }));
  await page.goto('/');
  await importText(page, 'piled.json', JSON.stringify(piled));
  await expect(canvasNode(page, 'Decide')).toBeVisible();
  const before = JSON.parse((await exportGraph(page)).text);
  await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled();
  const after = JSON.parse((await exportGraph(page)).text);
  const x = (graph: typeof after, id: string) => graph.nodes.find((node: { id: string }) => node.id === id).position.x;
  expect(x(after, 'decide')).toBeLessThan(x(after, 'execute'));
  expect(x(after, 'evaluate')).toBeLessThan(x(after, 'recover'));
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  expect(JSON.parse((await exportGraph(page)).text)).toEqual(before);
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled();
});

test('problems of the validation panel are marked on their node', async ({ page }) => {
  await page.goto('/?template=blank');
  await page.getByRole('button', { name: 'Act', exact: true }).press('Enter');
  const act = page.locator('.react-flow__node').filter({ has: page.locator('.agent-node-label').getByText('Act', { exact: true }) });
  await expect(act.getByRole('img', { name: /^error: act has no way out/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('dead_end');
});

test('long text is ended in an ellipsis inside its node, and the title is read whole', async ({ page }) => {
  await page.goto('/?template=blank');
  await page.getByRole('button', { name: 'Act', exact: true }).press('Enter');
  const long = 'Search every source the user named, then the ones they did not';
  await relabel(page, 'act', long);
  const node = flowNode(page, 'act');
  const label = node.locator('.agent-node-label');
  await expect(label).toHaveAttribute('title', long);
  await expect(label.locator('[aria-hidden="true"]')).toHaveText(/^Search .+…$/);
  await expect(node.getByText(long, { exact: true })).toHaveCount(1);
  // Drawn inside its box (as wide as a node gets), the problem mark in the row below; so are the summary lines.
  const overflows = await node.evaluate((element) => {
    const right = (box: Element) => box.getBoundingClientRect().right;
    const textRight = (box: Element) => {
      const range = document.createRange();
      range.selectNodeContents(box);
      return range.getBoundingClientRect().right;
    };
    const title = element.querySelector('.agent-node-label')!;
    const summary = element.querySelector('.agent-node-summary')!;
    const shown = [[textRight(title.firstElementChild!), right(title)], [right(title), right(element.querySelector('.agent-node')!)], [textRight(summary), right(summary)]];
    return shown.filter(([end, limit]) => end > limit + 0.5);
  });
  expect(overflows).toEqual([]);
});

test('a node dragged moves on the canvas and in the minimap before the drop, which is one undo step', async ({ page }) => {
  await page.goto('/');
  const node = canvasNode(page, 'Recover');
  await expect(node).toBeVisible();
  const drawn = () => page.getByRole('img', { name: 'Minimap' }).locator('.react-flow__minimap-node').evaluateAll((paths) => paths.map((path) => path.getAttribute('d')).join('|'));
  // The minimap draws after the canvas (a deferred render): its drawing before the drag, once there.
  await expect.poll(drawn).not.toBe('');
  const minimapBefore = await drawn();
  const boxBefore = (await node.boundingBox())!;
  await page.mouse.move(boxBefore.x + 30, boxBefore.y + 10);
  await page.mouse.down();
  await page.mouse.move(boxBefore.x + 90, boxBefore.y + 130, { steps: 8 });
  // Still held: the node and its minimap drawing have moved already.
  await expect.poll(async () => (await node.boundingBox())!.y).toBeGreaterThan(boxBefore.y + 80);
  await expect.poll(drawn).not.toBe(minimapBefore);
  await page.mouse.up();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(async () => (await node.boundingBox())!.y).toBeCloseTo(boxBefore.y, 0);
  await expect.poll(drawn).toBe(minimapBefore);
});

test('after a drop the loops into the dropped node are routed under it again', async ({ page }) => {
  await page.goto('/');
  const decide = canvasNode(page, 'Decide');
  await expect(decide).toBeVisible();
  // e5 and e6 loop back into Decide, the leftmost node: their bottom runs pass under it.
  const loopBottoms = () => page.locator('.react-flow__edge[data-id="e5"] .react-flow__edge-path, .react-flow__edge[data-id="e6"] .react-flow__edge-path').evaluateAll((paths) => paths.map((path) => path.getBoundingClientRect().bottom));
  const box = (await decide.boundingBox())!;
  expect(Math.min(...(await loopBottoms()))).toBeGreaterThan(box.y + box.height);
  await page.mouse.move(box.x + 30, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 30, box.y + 260, { steps: 8 });
  await page.mouse.up();
  const dropped = (await decide.boundingBox())!;
  expect(dropped.y).toBeGreaterThan(box.y + 200);
  // Placed again after the drop (between frames): under where the node is now, not where it was.
  await expect.poll(async () => Math.min(...(await loopBottoms()))).toBeGreaterThan(dropped.y + dropped.height);
});

test('the minimap shows the graph; dragging it pans the canvas and its wheel zooms', async ({ page }) => {
  await page.goto('/');
  await expect(canvasNode(page, 'Decide')).toBeVisible();
  const minimap = page.getByRole('img', { name: 'Minimap' });
  await expect(minimap.locator('.react-flow__minimap-node').first()).toBeVisible();
  const viewport = page.locator('.react-flow__viewport');
  const transform = () => viewport.evaluate((element) => (element as HTMLElement).style.transform);
  const before = await transform();
  const box = (await minimap.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2 + 10, { steps: 4 });
  await page.mouse.up();
  await expect.poll(transform).not.toBe(before);
  const panned = await transform();
  expect(/scale\(([\d.]+)\)/.exec(panned)?.[1]).toBe(/scale\(([\d.]+)\)/.exec(before)?.[1]);
  await page.mouse.wheel(0, -200);
  await expect.poll(async () => Number(/scale\(([\d.]+)\)/.exec(await transform())?.[1])).toBeGreaterThan(Number(/scale\(([\d.]+)\)/.exec(panned)?.[1]));
});

test('a pan holds the pointer on the pane: nodes it passes on the way are not hovered', async ({ page }) => {
  await page.goto('/');
  await expect(canvasNode(page, 'Decide')).toBeVisible();
  const pane = page.locator('.react-flow__pane');
  const viewport = page.locator('.react-flow__viewport');
  const transform = () => viewport.evaluate((element) => (element as HTMLElement).style.transform);
  const before = await transform();
  // Just right of a node, panning towards it: each move lands on the node as last drawn, before the view follows.
  const node = (await canvasNode(page, 'Decide').boundingBox())!;
  const from = await page.evaluate(({ x, y }) => {
    for (let right = x; right < x + 80; right += 1) if (document.elementFromPoint(right, y)?.classList.contains('react-flow__pane')) return { x: right + 1, y };
    throw new Error('no pane beside the node');
  }, { x: node.x + node.width, y: node.y + node.height / 2 });
  await page.evaluate(() => {
    const hovered: string[] = [];
    (window as unknown as { hovered: string[] }).hovered = hovered;
    document.querySelector('.react-flow__nodes')!.addEventListener('pointerover', (event) => hovered.push((event.target as Element).className));
  });
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let n = 1; n <= 8; n += 1) await page.mouse.move(from.x - n * 4, from.y - n * 2);
  expect(await pane.evaluate((element) => element.hasPointerCapture(1))).toBe(true);
  await page.mouse.up();
  await expect.poll(transform).not.toBe(before);
  expect(await page.evaluate(() => (window as unknown as { hovered: string[] }).hovered)).toEqual([]);
});

/** The grid with edges across a row besides, backwards as often as forwards (drawn as loops), as the bench's graph has (bench/graphs.ts imports JSON modules, which Playwright's loader does not read). */
const crossedGrid = (count: number) => {
  const grid = gridGraph(count);
  let seed = 14;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const across = Array.from({ length: count / 2 }, (_, index) => {
    const source = Math.floor(random() * count);
    const target = Math.min(count - 1, Math.max(0, source + Math.floor(random() * 40) - 20));
    return { id: `x${index}`, source: `n${source}`, target: `n${target}`, when: 'otherwise' };
  }).filter((edge) => edge.source !== edge.target);
  return { ...grid, name: `Crossed grid of ${count}`, edges: [...grid.edges, ...across] };
};

/** A grid (the 300-node one unless another is given), zoomed out to its outline drawing: a pan mounts nodes as they come into view. */
const openZoomedOutGrid = async (page: Page, graph: { name: string } = gridGraph(300), { reopened = false } = {}) => {
  await page.goto('/');
  await expect(canvasNode(page, 'Decide')).toBeVisible();
  await importText(page, 'grid.json', JSON.stringify(graph));
  await expect(page.getByRole('heading', { name: graph.name })).toBeVisible();
  if (reopened) {
    // Opened by the page itself, as the graph someone works on is after a reload: never wholly in view since the page loaded.
    await page.reload();
    await expect(page.getByRole('heading', { name: graph.name })).toBeVisible();
    await expect(page.locator('.react-flow__node').first()).toBeVisible();
  }
  const canvas = (await page.locator('.react-flow').boundingBox())!;
  await page.mouse.move(canvas.x + canvas.width * 0.15, canvas.y + canvas.height * 0.15);
  await page.mouse.wheel(0, 900);
  await expect(page.locator('.react-flow.zoomed-out')).toBeVisible();
};

/** Drags the pane up and left in 30 moves, from a spot of it with no node. */
const panCanvas = async (page: Page) => {
  const from = await page.evaluate(() => {
    const box = document.querySelector('.react-flow')!.getBoundingClientRect();
    for (let y = box.y + box.height * 0.8; y > box.y + 20; y -= 7)
      for (let x = box.x + box.width * 0.8; x > box.x + 20; x -= 7) if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y };
    throw new Error('no empty spot of the pane to pan from');
  });
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let n = 1; n <= 30; n += 1) await page.mouse.move(from.x - n * 12, from.y - n * 6);
  await page.mouse.up();
};

test('a pan over a big graph draws the edges in view once: nodes coming into view do not redraw them', async ({ page }) => {
  await openZoomedOutGrid(page);
  const nodesBefore = await page.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')));
  await page.evaluate(() => {
    const rewritten: string[] = [];
    (window as unknown as { rewritten: string[] }).rewritten = rewritten;
    new MutationObserver((records) => rewritten.push(...records.map((record) => `${record.oldValue} → ${(record.target as Element).getAttribute('d')}`))).observe(document.querySelector('.react-flow__edges')!, {
      subtree: true,
      attributeFilter: ['d'],
      attributeOldValue: true,
    });
  });
  await panCanvas(page);
  // Nodes came into view (the pan did what it is for), and no edge already drawn was drawn again.
  await expect.poll(() => page.locator('.react-flow__node').evaluateAll((nodes, before) => nodes.filter((node) => !before.includes(node.getAttribute('data-id'))).length, nodesBefore)).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { rewritten: string[] }).rewritten)).toEqual([]);
});

test('a pan over a big graph moves what is drawn: neither the canvas nor its edges are painted again on each frame', async ({ page }) => {
  // Edges in view reach past it (loops, edges across a row).
  await openZoomedOutGrid(page, crossedGrid(1000), { reopened: true });
  // Chromium's trace names each layer it paints again; the viewport holds every node and edge drawn.
  const cdp = await page.context().newCDPSession(page);
  const { result } = await cdp.send('Runtime.evaluate', { expression: "document.querySelector('.react-flow__viewport')" });
  const { node: viewport } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
  const events: { name: string; ph: string; args?: { data?: { nodeId?: number; nodeName?: string } } }[] = [];
  cdp.on('Tracing.dataCollected', (collected) => events.push(...(collected.value as unknown as typeof events)));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline'] } });
  await panCanvas(page);
  await cdp.send('Tracing.end');
  await complete;
  const paints = events.filter((event) => event.name === 'Paint' && event.ph === 'X');
  // The pan's frames were painted (the page's own layer, the background's pattern), but not the viewport's drawing.
  expect(paints.length).toBeGreaterThan(0);
  expect(paints.filter((event) => event.args?.data?.nodeId === viewport.backendNodeId).length).toBe(0);
  // Nor what it holds: an edge (an <svg> of its own) or a node is painted when it comes into view, not
  // again on each frame because its drawing reaches past the view (the viewport's perspective, styles.css).
  const framesPainted = new Map<number, number>();
  for (const { args } of paints) if (args?.data?.nodeId && /^svg$|react-flow__node /.test(args.data.nodeName ?? '')) framesPainted.set(args.data.nodeId, (framesPainted.get(args.data.nodeId) ?? 0) + 1);
  expect(framesPainted.size).toBeGreaterThan(0);
  expect([...framesPainted.values()].filter((times) => times > 2)).toEqual([]);
});
