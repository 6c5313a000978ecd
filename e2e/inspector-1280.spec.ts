/**
 * Issue 53, item 6, at 1280×720: the inspector has room. A node being edited gets the side (the
 * step detail folds to a bar under it until a step is asked for), its main settings come first and
 * need no scroll, and a new selection opens at the inspector's heading.
 */
import { expect, test, type Locator, type Page } from './test.ts';
import { dropKind, flowNode, pane } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });

/** The part of the inspector a person sees: its box cut by every box around it that clips what it holds. */
const seenBox = (page: Page) =>
  inspector(page).evaluate((element) => {
    let { top, bottom, left, right } = element.getBoundingClientRect();
    for (let around = element.parentElement; around; around = around.parentElement) {
      if (getComputedStyle(around).overflow === 'visible') continue;
      const box = around.getBoundingClientRect();
      top = Math.max(top, box.top);
      bottom = Math.min(bottom, box.bottom);
      left = Math.max(left, box.left);
      right = Math.min(right, box.right);
    }
    return { top, bottom, left, right };
  });

/** Whether the control is wholly inside what the inspector shows now, as it is (nothing scrolled to it). */
const shownWhole = async (page: Page, control: Locator) => {
  const seen = await seenBox(page);
  const box = await control.evaluate((element) => {
    const { top, bottom, left, right } = element.getBoundingClientRect();
    return { top, bottom, left, right };
  });
  return box.top >= seen.top && box.bottom <= seen.bottom && box.left >= seen.left && box.right <= seen.right;
};

const expectShown = async (page: Page, control: Locator, what: string) => {
  await expect(control).toBeVisible();
  await expect.poll(() => shownWhole(page, control), { message: `${what} in the inspector's view without a scroll` }).toBe(true);
};

test('a node selected gets the side: its heading, label and main settings (Add round, Create skill) show without a scroll; the step detail folds to a bar until a step is asked for', async ({ page }) => {
  await page.goto('/?template=blank');
  await expect(page.getByRole('note')).toContainText('Drag a kind from the palette');
  await dropKind(page, 'Reason', 200, 200);
  const form = inspector(page);
  await expect(form.getByText('Reason node')).toBeVisible();
  await expectShown(page, form.getByRole('heading', { name: 'Inspector' }), 'the heading');
  await expectShown(page, form.getByText('Reason node'), 'what is edited');
  await expectShown(page, form.getByLabel('Label', { exact: true }), 'Label');
  await expectShown(page, form.getByLabel('Planner'), 'Planner');
  await expectShown(page, form.getByRole('button', { name: 'Add round' }), 'Add round');

  // The round the person adds, and the skill its first action asks for: all in view, clicked where it is.
  await form.getByRole('button', { name: 'Add round' }).click();
  await expectShown(page, form.getByRole('button', { name: 'Add action' }), 'Add action');
  await form.getByRole('button', { name: 'Add action' }).click();
  const create = form.getByRole('button', { name: 'Create skill' });
  await expectShown(page, create, 'Create skill');
  await expectShown(page, form.getByRole('button', { name: 'Add round' }), 'Add round, after the new skill form');
  await create.click();
  await expect(form.getByLabel('1st action’s skill')).toHaveValue('skill_1');

  // The step detail is a bar at the side's foot meanwhile; Show brings it back at the person's size.
  const detail = page.getByRole('region', { name: 'Step detail' });
  await expect(detail).toHaveCount(0);
  await page.getByRole('button', { name: 'Show Step detail' }).click();
  await expect(detail.getByRole('status').first()).toHaveText('No run yet.');
  const sideHeight = (await page.locator('#loopscope-side').boundingBox())!.height;
  await expect.poll(async () => (await detail.boundingBox())!.height).toBeGreaterThan(sideHeight / 3);

  // Another node selected folds it again; a Step (a step asked for) brings it back, the node still selected.
  await dropKind(page, 'Act', 520, 200);
  await expect(form.getByText('Act node')).toBeVisible();
  await expect(detail).toHaveCount(0);
  await expectShown(page, form.getByLabel('Own skill'), 'Own skill');
  await expectShown(page, form.getByLabel('Max attempts'), 'Max attempts');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(detail.getByRole('heading', { name: /^Step 1 ·/ })).toBeVisible();
  await expect(form.getByText('Act node')).toBeVisible();
  // A node picked folds it again; a click on the empty canvas (nothing edited) gives the side back.
  await flowNode(page, 'reason').locator('.agent-node-label').click();
  await expect(form.getByText('Reason node')).toBeVisible();
  await expect(detail).toHaveCount(0);
  const area = (await pane(page).boundingBox())!;
  await page.mouse.click(area.x + area.width - 40, area.y + area.height - 40);
  await expect(form.getByText('Graph settings')).toBeVisible();
  await expect(detail.getByRole('heading', { name: /^Step 1 ·/ })).toBeVisible();
});

test('a new selection opens the inspector at its heading, not where the last one was scrolled to', async ({ page }) => {
  await page.goto('/?template=securityclaw');
  await expect(page.locator('.react-flow__node')).not.toHaveCount(0);
  const form = inspector(page);
  await flowNode(page, 'recover').locator('.agent-node-label').click();
  await expect(form.getByText('Recover node')).toBeVisible();
  // The person scrolls down Recover's long list of rules, with the wheel over the inspector.
  const seen = await seenBox(page);
  await page.mouse.move((seen.left + seen.right) / 2, (seen.top + seen.bottom) / 2);
  await page.mouse.wheel(0, 900);
  await expect.poll(() => shownWhole(page, form.getByText('Recover node'))).toBe(false);

  await flowNode(page, 'execute').locator('.agent-node-label').click();
  await expect(form.getByText('Act node')).toBeVisible();
  await expectShown(page, form.getByRole('heading', { name: 'Inspector' }), 'the heading after a new selection');
  await expectShown(page, form.getByText('Act node'), 'what is edited after a new selection');
  await expectShown(page, form.getByLabel('Label', { exact: true }), 'Label after a new selection');
});

test('from an Act node, where its skills are chosen and each skill\'s settings are one click away', async ({ page }) => {
  await page.goto('/?template=securityclaw');
  await expect(page.locator('.react-flow__node')).not.toHaveCount(0);
  const form = inspector(page);
  const openAct = async () => {
    await flowNode(page, 'execute').locator('.agent-node-label').click();
    await expect(form.getByText('Act node')).toBeVisible();
  };
  await openAct();
  const runs = form.getByRole('region', { name: 'Skills it runs' });
  await expect(runs).toContainText('It runs the actions of the plan Decide makes');
  const plans = runs.getByRole('button', { name: 'Open Decide’s plans by round' });
  await expectShown(page, plans, 'the way to the plans');
  // The plan's skill, and those Recover's rules switch the next plan to.
  await expect(runs.getByRole('button', { name: /^Settings of skill / })).toHaveText(['search_events', 'query_alternative_source', 'fallback_lookup']);
  await expect(runs.getByRole('button', { name: 'Open Recover’s rules' })).toBeVisible();

  // The plans: Decide selected, its inspector open at Plans by round, the keyboard on its first control.
  await plans.click();
  await expect(form.getByText('Reason node')).toBeVisible();
  await expect(form.getByLabel('Label', { exact: true })).toHaveValue('Decide');
  const firstSkill = form.getByLabel('1st action’s skill').first();
  await expectShown(page, firstSkill, 'the first action\'s skill');
  await expect(firstSkill).toBeFocused();

  // A skill: the graph's settings open at that skill, its settings unfolded.
  await openAct();
  await runs.getByRole('button', { name: 'Settings of skill query_alternative_source' }).click();
  await expect(form.getByText('Graph settings')).toBeVisible();
  const skillName = form.getByRole('region', { name: 'Skills' }).getByLabel('Skill name').filter({ visible: true });
  await expect(skillName).toHaveCount(1);
  await expect(skillName).toHaveValue('query_alternative_source');
  await expectShown(page, skillName, 'the skill\'s name');
});
