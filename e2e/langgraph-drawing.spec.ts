/**
 * How a LangGraph server's graph is drawn (issue 52): the fixtures served by the dev server, drawn
 * with the editor's routing, so no edge passes under a node it does not join and no label sits on a
 * node; a `Send` fan-out drawn as one; conditional targets labelled with the path map's keys.
 */
import { expect, type Page } from './test.ts';
import { collectErrors, drawingClashes } from './helpers.ts';
import { attach, button, canvas, detail, edge, node, panel, run, steps, until, serveFixturesForJourneys, test } from './langgraphPage.ts';

// A laptop screen.
test.use({ viewport: { width: 1280, height: 720 } });

const served = serveFixturesForJourneys();

/** The server canvas's nodes (its groups are no node) and labels. */
const SERVER_DRAWING = { nodes: '.lg-canvas .react-flow__node-langgraph', labels: '.lg-canvas .lg-edge-label' };

/** Moves every node of the kept layout holding `id` into one row, in their order left to right, as a person may leave them. */
const intoOneRow = (page: Page, id: string) =>
  page.evaluate(([origin, id]) => {
    const key = Object.keys(localStorage).find((each) => each.startsWith(`loopscope.langgraph-layout ${origin} `) && (JSON.parse(localStorage.getItem(each)!) as { signature: string }).signature.split('\n').includes(id))!;
    const kept = JSON.parse(localStorage.getItem(key)!) as { places: [string, { x: number; y: number }][] };
    kept.places = kept.places.toSorted((a, b) => a[1].x - b[1].x).map(([node], index) => [node, { x: index * 236, y: 0 }]);
    localStorage.setItem(key, JSON.stringify(kept));
  }, [served.url, id]);

test('no edge of a server graph passes under a node it does not join, and no label sits on a node: as laid out, and with the nodes moved into one row', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  for (const graph of ['plan-execute', 'map-reduce', 'guarded-agent', 'supervisor']) {
    await attach(page, graph);
    await expect(node(page, '__end__')).toBeVisible();
    await expect.poll(() => drawingClashes(page, SERVER_DRAWING), { message: graph }).toEqual([]);
  }
  // The supervisor's nodes in one row: its dashed edges to the writer and to __end__ would run
  // straight under the workers between; they go round them.
  await intoOneRow(page, 'supervisor');
  await attach(page, 'supervisor');
  const boxes = await Promise.all(['researcher', 'writer', '__end__'].map(async (id) => (await node(page, id).boundingBox())!));
  expect(boxes[0].x + boxes[0].width).toBeLessThan(boxes[1].x);
  expect(boxes[1].x + boxes[1].width).toBeLessThan(boxes[2].x);
  await expect.poll(() => drawingClashes(page, SERVER_DRAWING)).toEqual([]);
  expect(errors).toEqual([]);
});

test("conditional targets labelled with the path map's keys: plan-execute's replanner goes to __end__ on true and back to the agent on false", async ({ page }) => {
  await attach(page, 'plan-execute');
  await expect(edge(page, 'replan→__end__').locator('.lg-edge-label text')).toHaveText('true');
  await expect(edge(page, 'replan→agent:pick').locator('.lg-edge-label text')).toHaveText('false');
  await expect.poll(() => drawingClashes(page, SERVER_DRAWING)).toEqual([]);
});

test("a Send fan-out drawn as one: several strokes, named a fan-out, \"Send ×4\" on the step that fanned out, the canvas's legend saying so", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'map-reduce');
  const fanOut = edge(page, 'generateTopics→generateJoke');
  await run(page, { topic: 'animals' });
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(6);
  await steps(page).first().click();
  await expect(canvas(page).getByRole('img', { name: 'Send fan-out from generateTopics to generateJoke: one generateJoke task per Send, 4 in this step' })).toBeVisible();
  await expect(fanOut.locator('.lg-edge-label text')).toHaveText('Send ×4');
  await expect(fanOut.locator('.lg-fan-stroke')).toHaveCount(2);
  await expect(canvas(page).locator('.lg-canvas-head')).toContainText('a triple stroke (Send) fans out to one task per Send');
  // A plain conditional edge is none: its one dashed stroke, no fan-out name.
  await expect(edge(page, 'generateJoke→bestJoke').locator('.lg-fan-stroke')).toHaveCount(0);
  // On a worker's step the edge is still the fan-out, without a count.
  await steps(page).nth(1).click();
  await expect(fanOut.locator('.lg-edge-label text')).toHaveText('Send');
  await expect(fanOut).toHaveAccessibleName('Send fan-out from generateTopics to generateJoke: one generateJoke task per Send');
  await expect.poll(() => drawingClashes(page, SERVER_DRAWING)).toEqual([]);
  expect(errors).toEqual([]);
});

/** The server canvas's nodes not wholly inside it, and its view's transform (which a fit changes). */
const view = (page: Page) =>
  page.evaluate(() => {
    const flow = document.querySelector('.lg-canvas .react-flow')!;
    const pane = flow.getBoundingClientRect();
    const outside = [...flow.querySelectorAll<HTMLElement>('.react-flow__node')]
      .filter((node) => {
        const box = node.getBoundingClientRect();
        return box.left < pane.left || box.right > pane.right || box.top < pane.top || box.bottom > pane.bottom;
      })
      .map((node) => node.dataset.id);
    return { outside, transform: getComputedStyle(flow.querySelector('.react-flow__viewport')!).transform };
  });

test("plan-execute's executor subgraph collapses to one node and expands again, by mouse and by keyboard; the view fits again; steps inside the collapsed subgraph mark it", async ({ page }) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  await attach(page, 'plan-execute');
  const group = canvas(page).getByRole('group', { name: 'Subgraph agent', exact: true });
  const folded = canvas(page).getByRole('group', { name: 'Subgraph agent, collapsed', exact: true });
  await expect(group).toBeVisible();
  await expect(node(page, 'agent:pick')).toBeVisible();
  await expect.poll(async () => (await view(page)).outside).toEqual([]);
  const expanded = (await view(page)).transform;

  // By mouse: the group becomes one node, the edges in and out go to it, the view fits the smaller graph.
  await canvas(page).getByRole('button', { name: 'Collapse subgraph agent' }).click();
  await expect(folded).toContainText('subgraph of 2 nodes, collapsed');
  await expect(group).toHaveCount(0);
  await expect(node(page, 'agent:pick')).toHaveCount(0);
  await expect(node(page, 'agent')).toBeVisible();
  for (const id of ['planner→agent:pick', 'agent:act→replan', 'replan→agent:pick']) await expect(edge(page, id)).toHaveCount(1);
  await expect(edge(page, 'agent:pick→agent:act')).toHaveCount(0);
  await expect.poll(async () => (await view(page)).transform).not.toBe(expanded);
  await expect.poll(async () => (await view(page)).outside).toEqual([]);
  await expect.poll(() => drawingClashes(page, SERVER_DRAWING)).toEqual([]);
  const collapsedView = (await view(page)).transform;
  // The button pressed keeps the focus, now saying what it does next.
  const expand = folded.getByRole('button', { name: 'Expand subgraph agent' });
  await expect(expand).toBeFocused();
  await expect(expand).toHaveAttribute('aria-expanded', 'false');

  // By keyboard: Enter expands it, Space collapses it again.
  await page.keyboard.press('Enter');
  await expect(group).toBeVisible();
  await expect(node(page, 'agent:act')).toBeVisible();
  const collapse = canvas(page).getByRole('button', { name: 'Collapse subgraph agent' });
  await expect(collapse).toBeFocused();
  await expect(collapse).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(async () => (await view(page)).transform).not.toBe(collapsedView);
  await expect.poll(async () => (await view(page)).outside).toEqual([]);
  await page.keyboard.press('Space');
  await expect(folded).toBeVisible();

  // A run: the interrupt inside the collapsed subgraph marks it, and so does a step of its own nodes.
  await run(page, { input: 'sail' });
  await until(page, 'waiting on an interrupt in agent');
  await expect(node(page, 'agent').locator('.lg-node')).toHaveClass(/\bwaiting\b/);
  await panel(page).getByLabel('Resume value (JSON)').fill('"Brest"');
  await button(page, 'Resume on server').click();
  await until(page, 'ended');
  // A step of the subgraph's own node agent:pick marks the folded group; the planner's (the first) does not.
  await steps(page).filter({ hasText: /#\d+\s*agent:pick/ }).first().click();
  await expect(detail(page)).toContainText('In the subgraph of agent');
  await expect(node(page, 'agent').locator('.lg-node')).toHaveClass(/\bcurrent\b/);
  await steps(page).first().click();
  await expect(node(page, 'agent').locator('.lg-node')).not.toHaveClass(/\bcurrent\b/);
  await steps(page).filter({ hasText: /#\d+\s*agent:pick/ }).first().click();
  // Expanded, the step marks its own node.
  await folded.getByRole('button', { name: 'Expand subgraph agent' }).press('Enter');
  await expect(node(page, 'agent:pick').locator('.lg-node')).toHaveClass(/\bcurrent\b/);
  expect(errors).toEqual([]);
});
