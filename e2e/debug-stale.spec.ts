/**
 * Issue 34 at 1280×720, the rest of "nothing stale" and the editor's half of debugging: breakpoints
 * after a reload, Fork and continue at a breakpoint, Compare of a paused run beside the canvas,
 * Problems that find broken data flow, and a skill defined where it is used.
 */
import { expect, test, type Page } from './test.ts';
import { collectErrors, flowNode, openGraph, SIX_NODES } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const status = (page: Page) => page.getByRole('status');
const breakpoints = (page: Page) => detail(page).getByRole('region', { name: 'Breakpoints' });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });
const problems = (page: Page) => page.getByRole('region', { name: 'Problems' });

test('breakpoints survive a reload with the run session, and Fork and continue stops at them', async ({ page }) => {
  // A long journey (reloads, whole runs, a slow run): three times the usual budget on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  await breakpoints(page).getByLabel('Node').selectOption('answer');
  await breakpoints(page).getByRole('button', { name: 'Break before node' }).click();
  await expect(breakpoints(page)).toContainText('before node answer runs');
  await button(page, 'Run').click();
  await expect(status(page)).toHaveText('Paused by breakpoint on node answer: paused before it runs.');
  await expect(steps(page)).toHaveCount(7);

  await page.reload();
  await expect(breakpoints(page)).toContainText('before node answer runs');
  await expect(steps(page)).toHaveCount(7);

  // Fork at step 3 with the outcome sufficient: the new edge leads to answer, where the breakpoint holds.
  await steps(page).nth(2).click();
  await detail(page).getByRole('button', { name: 'Fork from here' }).click();
  const form = detail(page).getByRole('form', { name: 'Fork from step 3' });
  await form.getByLabel("Step 3's outcome").selectOption('sufficient');
  await form.getByRole('button', { name: 'Fork and continue' }).click();
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  await expect(status(page)).toHaveText('Paused by breakpoint on node answer: paused before it runs.');
  await expect(steps(page)).toHaveCount(3);
  await expect(flowNode(page, 'answer')).toContainText('runs next');
  await button(page, 'Continue').click();
  await expect(status(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(4);
  expect(errors).toEqual([]);
});

test('Compare runs: a paused run has made no such step yet, and the comparison leaves the canvas in view with the parting on it', async ({ page }) => {
  // A long journey (reloads, whole runs, a slow run): three times the usual budget on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  await button(page, 'Run').click();
  await expect(status(page)).toContainText('completed');
  await button(page, 'Step').click();
  await button(page, 'Step').click();
  await expect(steps(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Show Scenarios (13)' }).click();
  await page.getByRole('region', { name: 'Scenarios' }).getByRole('button', { name: 'Compare runs' }).click();
  const comparison = page.getByRole('region', { name: 'Run comparison' });
  await expect(comparison).toContainText('Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 2 took nothing yet (it is paused after step 2)');
  await expect(comparison).not.toContainText('had ended');
  await comparison.getByRole('button', { name: 'Show on canvas' }).click();
  // Where the runs part is marked on a canvas the comparison does not cover.
  await expect(flowNode(page, 'evaluate')).toHaveClass(/\bparted\b/);
  // Wholly in view, give or take a rounding of its sub-pixel place.
  await expect(flowNode(page, 'evaluate')).toBeInViewport({ ratio: 0.99 });
  const canvas = (await page.getByRole('region', { name: 'Canvas' }).boundingBox())!;
  const panel = (await comparison.boundingBox())!;
  expect(panel.y).toBeGreaterThanOrEqual(canvas.y + canvas.height - 1);
  expect(errors).toEqual([]);
});

/** The six kinds of SecurityClaw, wired so that Recover is fed straight from Act. */
const recoverFromAct = {
  format: 'loopscope/graph', version: 1, name: 'Recover fed from Act', entry: 'reason',
  skills: { search_logs: { type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] } },
  nodes: SIX_NODES.map((node) => (node.kind === 'reason' ? { ...node, config: { plans: [{ actions: [{ skill: 'search_logs', args: {} }] }] } } : node)),
  edges: [
    { id: 'e1', source: 'reason', target: 'act' },
    { id: 'e2', source: 'act', target: 'verify', when: { outcome: 'ok' } },
    { id: 'e3', source: 'act', target: 'recover', when: 'otherwise' },
    { id: 'e4', source: 'verify', target: 'respond', when: { outcome: 'sufficient' } },
    { id: 'e5', source: 'verify', target: 'reason', when: 'otherwise' },
    { id: 'e6', source: 'recover', target: 'reason', when: { outcome: 'recovered' } },
    { id: 'e7', source: 'recover', target: 'stop', when: 'otherwise' },
  ],
};

test('Problems find broken data flow: a Recover fed straight from Act reads an evaluation nothing on its way wrote, a Reason with no plan; each leads to its node', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await openGraph(page, recoverFromAct);
  const unwritten = problems(page).getByRole('button', { name: /unwritten_read/ });
  await expect(unwritten).toHaveCount(1);
  await expect(unwritten).toContainText('recover reads "evaluation", but on the way reason → act → recover no node before it writes it (a Verify node does)');
  await unwritten.click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('recover');

  // A Reason added from the palette has no plan yet: an error, on its node.
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Reason', exact: true }).click();
  const noPlan = problems(page).getByRole('button', { name: /no_plan/ });
  await expect(noPlan).toContainText('reason_2 has no plan with an action');
  await noPlan.click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('reason_2');
  expect(errors).toEqual([]);
});

test('a skill is defined where it is used: New skill… in an action\'s skill picker; Add round never names a skill that does not exist', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await openGraph(page, { format: 'loopscope/graph', version: 1, name: 'No skills yet', entry: 'reason', nodes: SIX_NODES.slice(0, 1), edges: [] });
  await flowNode(page, 'reason').locator('.agent-node-label').click();
  await expect(inspector(page).getByLabel('Id', { exact: true })).toHaveValue('reason');
  const plans = inspector(page).getByRole('group', { name: 'Plans by round' });
  await plans.getByRole('button', { name: 'Add round', exact: true }).click();
  // An empty round, no made-up skill.
  await expect(plans.getByLabel('1st action’s skill')).toHaveCount(0);
  await expect(problems(page)).not.toContainText('unknown_skill');
  await plans.getByRole('button', { name: 'Add action', exact: true }).click();
  const form = plans.getByRole('group', { name: 'New skill' });
  await form.getByLabel('Skill name').fill('search_logs');
  await form.getByLabel('Skill type').selectOption('http');
  await form.getByLabel('URL').fill('http://127.0.0.1:9/search?q={{args.q}}');
  await form.getByRole('button', { name: 'Create skill' }).click();
  await expect(plans.getByLabel('1st action’s skill')).toHaveValue('search_logs');

  // A second one, from the action's own picker: it replaces the first in the action.
  await plans.getByLabel('1st action’s skill').selectOption({ label: 'New skill…' });
  const second = plans.getByRole('group', { name: 'New skill' });
  await second.getByLabel('Skill name').fill('search_archive');
  await second.getByText('Script: ok (1 record) on every call').click();
  await second.getByLabel('Outcome').selectOption('empty');
  await expect(second.getByText('Script: empty on every call')).toBeVisible();
  await second.getByRole('button', { name: 'Create skill' }).click();
  await expect(plans.getByLabel('1st action’s skill')).toHaveValue('search_archive');
  await expect(problems(page)).not.toContainText('unknown_skill');
  await expect(problems(page)).not.toContainText('no_plan');
  // One Undo takes the skill and its pick back.
  await button(page, 'Undo').click();
  await expect(plans.getByLabel('1st action’s skill')).toHaveValue('search_logs');
  expect(errors).toEqual([]);
});
