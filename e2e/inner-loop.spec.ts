/**
 * Seed 003's two nested loops on screen, in the Graph Engineer template: every node running the
 * same inner loop (REASON's done output is the plan), iterations nested in their step with the
 * max_iter gauge, a COLLECT error routed to the error path, a loop that hits max_iter and routes on
 * error, a denied tool call inside an iteration, and VERIFY taking its verdict from its tool and
 * sending the run back to REASON.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors } from './helpers.ts';

const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const stopStatus = (page: Page) => page.getByRole('status');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const iterations = (page: Page) => detail(page).getByRole('list', { name: 'Iterations' }).getByRole('listitem');
const gauge = (page: Page) => detail(page).getByRole('meter', { name: 'Iterations of max_iter' });

const canvasNode = (page: Page, label: string) =>
  page.locator('.react-flow__node').filter({ has: page.locator('.agent-node-label').getByText(label, { exact: true }) });
const edgeLabel = (page: Page, text: string) => page.locator('.edge-label').filter({ hasText: text });

const runScenario = async (page: Page, scenario: string | null) => {
  await page.goto('/?template=graph-engineer');
  await expect(page.getByRole('heading', { name: 'Graph Engineer' })).toBeVisible();
  if (scenario) await page.getByRole('combobox', { name: /^Scenario/ }).selectOption(scenario);
  await button(page, 'Run').click();
};

test('the canvas says it: REASON runs an inner loop, COLLECT routes its error, VERIFY takes its verdict from a tool', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=graph-engineer');
  await expect(page.getByRole('heading', { name: 'Graph Engineer' })).toBeVisible();
  // The node summaries come from the kinds' definitions (a line too long for the node is elided, whole on hover).
  await expect(canvasNode(page, 'Reason').getByTitle('loop: planner → read_file, glob_files, max_iter 3')).toBeVisible();
  await expect(canvasNode(page, 'Reason').getByTitle('plan: done output')).toBeVisible();
  await expect(canvasNode(page, 'Verify').getByTitle('loop: reviewer → check_cause, max_iter 3')).toBeVisible();
  await expect(canvasNode(page, 'Verify').getByTitle('verdict: tool ok')).toBeVisible();
  // COLLECT's error and max_iter have their own edge to Give up, no longer swallowed by an always edge.
  await expect(edgeLabel(page, 'outcome: error or max_iter')).toHaveCount(2);
  // ok, empty, error, max_iter, and the general handle.
  await expect(canvasNode(page, 'Collect').locator('.react-flow__handle.source')).toHaveCount(5);

  // The inspector edits what the definitions say: Reason's inner loop, Verify's verdict source.
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await canvasNode(page, 'Verify').locator('.agent-node-label').click();
  await expect(inspector.getByLabel('Id', { exact: true })).toHaveValue('check');
  await expect(inspector.getByLabel('Verdict from')).toHaveValue('tool');
  await canvasNode(page, 'Reason').locator('.agent-node-label').click();
  await expect(inspector.getByLabel('Id', { exact: true })).toHaveValue('think');
  await expect(inspector.getByLabel('Inner loop (JSON)')).toHaveValue(/"decider":\s*"planner"/);

  // A COLLECT error takes the error path, and the final response is still written.
  await page.getByRole('combobox', { name: /^Scenario/ }).selectOption('a COLLECT error takes the error path');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('gave_up');
  await expect(steps(page)).toHaveCount(3);
  await steps(page).nth(0).click();
  await expect(detail(page)).toContainText('Outcome: error');
  await expect(detail(page).locator('.fired-edge')).toHaveText('g11');
  await expect(iterations(page).nth(0)).toHaveAccessibleName('Iteration 1: call read_logs → error');
  expect(errors).toEqual([]);
});

test('VERIFY\'s verdict comes from its tool, not from the decider\'s words', async ({ page }) => {
  const errors = collectErrors(page);
  await runScenario(page, 'VERIFY\'s verdict comes from its tool, not from the decider\'s words');
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(3).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 4 · Verify/ })).toBeVisible();
  await expect(detail(page)).toContainText('Outcome: continue');
  await expect(detail(page)).toContainText('the tool check_cause answered ok: false (the verdict comes from the tool); the decider: looks fine to me');
  await expect(iterations(page).nth(0)).toHaveAccessibleName('Iteration 1: call check_cause → ok');
  expect(errors).toEqual([]);
});

test('VERIFY\'s tool sends the run back to REASON; Reason and Act show their iterations nested, with the max_iter gauge', async ({ page }) => {
  // A whole run and many checks of the step detail in one journey: room for a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await runScenario(page, null);
  await expect(stopStatus(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);

  // Step 2: REASON's inner loop looked at a file, then its done output was the plan.
  await steps(page).nth(1).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 2 · Reason/ })).toBeVisible();
  await expect(iterations(page)).toHaveCount(2);
  await expect(iterations(page).nth(0)).toHaveAccessibleName('Iteration 1: call read_file → ok');
  await expect(iterations(page).nth(1)).toHaveAccessibleName('Iteration 2: done → done');
  await expect(detail(page)).toContainText('the decider planner planned it after 2 iteration(s)');

  // Step 4: check_cause answered ok: false, so the evidence is not verified and the run goes back to Reason.
  await steps(page).nth(3).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 4 · Verify/ })).toBeVisible();
  await expect(detail(page)).toContainText('Outcome: continue');
  await expect(detail(page).locator('.fired-edge')).toHaveText('g5');
  await expect(detail(page)).toContainText('the tool check_cause answered ok: false (the verdict comes from the tool)');
  await expect(detail(page).getByText('Given to reviewer: results, execution_error, collected, verified')).toBeVisible();
  await expect(steps(page).nth(4)).toContainText('Reason');

  // Step 6: the second Act visit, three iterations of at most four: reply → tool call → attempts.
  await steps(page).nth(5).click();
  await expect(detail(page).getByRole('heading', { name: 'Inner loop' })).toBeVisible();
  await expect(gauge(page)).toHaveAttribute('value', '3');
  await expect(gauge(page)).toHaveAttribute('max', '4');
  await expect(iterations(page)).toHaveCount(3);
  await expect(iterations(page).nth(0)).toHaveAccessibleName('Iteration 1: call grep_repo → ok');
  await expect(iterations(page).nth(1)).toHaveAccessibleName('Iteration 2: call read_file → ok');
  await expect(iterations(page).nth(2)).toHaveAccessibleName('Iteration 3: done → done');
  await expect(detail(page).getByRole('table', { name: 'Attempts of iteration 2' }).getByRole('row')).toHaveCount(3);

  // The rounds overview: one row per round, with its path, outcome and cost.
  await page.getByText('Rounds overview (1)').click();
  const rounds = page.getByRole('table', { name: 'Rounds' });
  await expect(rounds.getByRole('row')).toHaveCount(2);
  await expect(rounds).toContainText('Collect → Reason → Act → Verify → Reason → Act → Verify → Report');
  await expect(rounds).toContainText('stopped: completed');
  expect(errors).toEqual([]);
});

test('an inner loop that hits max_iter routes on error, and the final response is still written', async ({ page }) => {
  const errors = collectErrors(page);
  await runScenario(page, 'the inner loop hits max_iter and routes on error');
  await expect(stopStatus(page)).toContainText('gave_up');
  await expect(steps(page)).toHaveCount(5);
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Outcome: max_iter');
  await expect(detail(page)).toContainText('max_iter reached: 4 iteration(s) without done');
  await expect(gauge(page)).toHaveAttribute('value', '4');
  await expect(detail(page)).toContainText('4 of max_iter 4 — reached without done');
  await expect(detail(page).locator('.fired-edge')).toHaveText('g8');
  await steps(page).nth(4).click();
  await expect(detail(page)).toContainText('finally: the final response, written after the run stopped');
  expect(errors).toEqual([]);
});

test('a denied tool call inside an iteration goes to a person, who denies it', async ({ page }) => {
  const errors = collectErrors(page);
  await runScenario(page, 'a denied tool call inside an iteration goes to a person');
  await expect(detail(page).getByRole('button', { name: 'Deny' })).toBeVisible();
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Outcome: denied');
  await expect(iterations(page).nth(1)).toHaveAccessibleName('Iteration 2: call apply_patch → permission_denied');
  await expect(detail(page).getByRole('table', { name: 'Attempts of iteration 2' })).toContainText('read-only mode does not allow write access');
  await detail(page).getByRole('button', { name: 'Deny' }).click();
  await expect(stopStatus(page)).toContainText('gave_up');
  await expect(steps(page)).toHaveCount(6);
  expect(errors).toEqual([]);
});

test('the loop options on the step: a failed tool call observed, a verdict kept from an earlier visit, a hypothesis as reasoning (issue 54, items 7-9)', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await runScenario(page, 'a tool call that still fails is the decider\'s observation: it picks another tool');
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Outcome: ok');
  await expect(iterations(page).nth(0)).toHaveAccessibleName('Iteration 1: call grep_repo → timeout');
  await expect(iterations(page).nth(0)).toContainText('grep_repo failed with timeout after 2 attempt(s); the decider sees the failure and goes on (onToolFailure: observe)');
  await expect(iterations(page).nth(1)).toHaveAccessibleName('Iteration 2: call read_file → ok');

  await runScenario(page, 'VERIFY\'s verdict is kept in verified: a later visit that answers done without a tool is still verified');
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(6).click();
  await expect(detail(page).getByRole('heading', { name: /^Step 7 · Verify/ })).toBeVisible();
  await expect(detail(page)).toContainText('Outcome: sufficient');
  await expect(detail(page)).toContainText('no tool answered in this visit: the verdict is verified = true, written at step 4, and it holds until a tool answers again (loop.verdict: state)');

  await runScenario(page, 'REASON\'s decider answers a hypothesis, not a plan: it is the reasoning and routes ok');
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('its output is written to reasoning and routes ok (loop.output: any)');
  expect(errors).toEqual([]);
});
