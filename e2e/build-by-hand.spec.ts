/**
 * The headline journey, its first half: a person who has never seen Loopscope builds the
 * evaluate / recover / stop agent of seed 001 from a blank graph on a 1280×720 laptop with the
 * mouse alone (nodes dragged from the palette, connections dropped on nodes), and runs it.
 */
import { expect, test, type Page } from './test.ts';
import { clickEdge, connectToBody, dropAll, flowNode, nodesOutOfView, overlappingNodes, SEED_001_DROPS, smallTexts, viewStill } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });

test('a newcomer builds seed 001’s evaluate / recover / stop agent from a blank graph with the mouse alone, and runs it', async ({ page }) => {
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');

  // The nodes, dragged from the palette onto the canvas: plan, act, evaluate, answer, recover, stop.
  await dropAll(page, SEED_001_DROPS);
  await expect(page.locator('.react-flow__node')).toHaveCount(6);
  await expect(flowNode(page, 'reason')).toContainText('entry');
  expect(await overlappingNodes(page)).toEqual([]);

  // The connections, each dropped on the body of the node it goes to.
  await connectToBody(page, 'reason', 'out', 'act');
  await connectToBody(page, 'act', 'out', 'verify');
  // Evaluate: evidence sufficient → answer; plan exhausted → recover; coverage low → plan again.
  await connectToBody(page, 'verify', 'sufficient', 'respond');
  await connectToBody(page, 'verify', 'exhausted', 'recover', 'middle');
  await connectToBody(page, 'verify', 'continue', 'reason');
  // Recover: recovered → plan again (the failure feeds the next round); no path → stop.
  await connectToBody(page, 'recover', 'recovered', 'reason');
  await connectToBody(page, 'recover', 'no_path', 'stop');
  await expect(page.locator('.react-flow__edge')).toHaveCount(7);

  // What was drawn is what was meant: the edge from an outcome row fires on that outcome.
  await clickEdge(page, 'recover', 'stop');
  await expect(inspector(page)).toContainText('recover → stop');
  await expect(inspector(page).getByLabel('Outcome', { exact: true })).toHaveValue('no_path');

  // Problems points at the one outcome left unrouted: with no person to ask, needs_human stops too.
  const problems = page.getByRole('region', { name: 'Problems' });
  await expect(problems).toContainText('"needs_human"');
  await connectToBody(page, 'recover', 'needs_human', 'stop');
  await expect(page.locator('.react-flow__edge')).toHaveCount(8);
  // Every outcome routed; what is left is the plan, empty until the agent has skills, and said so.
  await expect(problems).toContainText('Problems (1)');
  await expect(problems).toContainText('no_plan reason has no plan with an action');

  // The whole agent in view and readable.
  await button(page, 'Fit View').click();
  await viewStill(page);
  expect(await nodesOutOfView(page, 8)).toEqual([]);
  expect(await overlappingNodes(page)).toEqual([]);
  expect(await smallTexts(page)).toEqual([]);

  // Run: with no skills yet the plan is empty (reason errs, as Problems foresaw), so evaluate finds
  // no evidence, the plan is exhausted, recover has no rule for it, and the agent stops rather than loop.
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toContainText('Stopped: stopped');
  const steps = page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
  await expect(steps.locator('.tl-label')).toHaveText(['Reason', 'Act', 'Verify', 'Recover', 'Stop']);
  await expect(page.locator('.react-flow__node.current')).toHaveCount(1);
});
