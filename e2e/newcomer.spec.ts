/**
 * A newcomer's recovery loop, built with the palette, the handles and the inspector only, in
 * short journeys: each starts from where the one before it left the graph, opened from a file.
 */
import { expect, test, type Locator, type Page } from './test.ts';
import { clickEdge, connectHandles, dropKind, flowNode, openGraph, SIX_NODES } from './helpers.ts';

// Wide enough that the palette, a six-node canvas and the inspector all fit without scrolling.
test.use({ viewport: { width: 1800, height: 1000 } });

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });
const timelineSteps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');

/** A skill of the graph settings, opened; a new skill starts as skill_N and is renamed here. */
const openSkill = async (page: Page, name: string): Promise<Locator> => {
  const item = inspector(page).getByRole('region', { name: 'Skills' }).getByRole('listitem').filter({ hasText: name });
  const nameField = item.getByLabel('Skill name');
  if (!(await nameField.isVisible())) await item.getByText(name, { exact: true }).click();
  await expect(nameField).toBeVisible();
  return item;
};

const addMockSkill = async (page: Page, name: string, setScript: (skill: Locator) => Promise<void>) => {
  const skills = inspector(page).getByRole('region', { name: 'Skills' });
  const before = await skills.getByRole('listitem').filter({ hasText: /^skill_\d+/ }).count();
  await skills.getByRole('button', { name: 'Add skill', exact: true }).click();
  const placeholder = `skill_${before + 1}`;
  const fresh = await openSkill(page, placeholder);
  await fresh.getByLabel('Skill name').fill(name);
  await fresh.getByLabel('Skill name').press('Enter');
  const skill = await openSkill(page, name);
  await setScript(skill);
};

/** Selects an edge by clicking it on the canvas, as a person would. */
const selectEdge = async (page: Page, source: string, target: string) => {
  // Labels are placed just after the graph is drawn, and placed again where they found no room:
  // a click aimed while one moves may miss, so it is aimed again.
  await expect(async () => {
    await clickEdge(page, source, target);
    await expect(inspector(page)).toContainText(`${source} → ${target}`, { timeout: 2_000 });
  }).toPass();
};

/** The graph as the journeys leave it, stage by stage. */
const SKILLS = {
  search_logs: { type: 'mock', script: [{ outcome: 'empty' }] },
  search_archive: { type: 'mock', script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] },
};
const EDGES = [
  { id: 'e1', source: 'reason', target: 'act' },
  { id: 'e2', source: 'act', target: 'verify' },
  { id: 'e3', source: 'verify', target: 'respond', when: { outcome: 'sufficient' } },
  { id: 'e4', source: 'verify', target: 'recover', when: { outcome: 'exhausted' } },
  { id: 'e5', source: 'verify', target: 'reason', when: 'otherwise' },
  { id: 'e6', source: 'recover', target: 'reason', when: { outcome: 'recovered' } },
  { id: 'e7', source: 'recover', target: 'stop', when: 'otherwise' },
];
/** The forward path: plan, act, judge, answer. */
const FORWARD = EDGES.slice(0, 3);

const stage = (name: string, parts: { skills?: boolean; nodes?: boolean; edges?: typeof EDGES }) => ({
  format: 'loopscope/graph', version: 1, name, entry: parts.nodes ? 'reason' : '',
  skills: parts.skills ? SKILLS : {}, nodes: parts.nodes ? SIX_NODES : [], edges: parts.edges ?? [],
});

test('a newcomer adds two mock skills in the graph settings: one finds nothing, one finds records', async ({ page }) => {
  await page.goto('/?template=blank');
  await expect(inspector(page)).toContainText('Graph settings');
  await addMockSkill(page, 'search_logs', async (skill) => {
    await skill.getByLabel('Outcome', { exact: true }).selectOption('empty');
    // The new skill's placeholder record goes, or the "empty" result would count as evidence: an empty call has no records to give.
    await expect(skill.getByLabel('Records (JSON)')).toHaveCount(0);
  });
  await addMockSkill(page, 'search_archive', async (skill) => {
    await skill.getByLabel('Records (JSON)').fill('[{"ip": "10.0.0.5"}]');
  });
  await expect(inspector(page).getByRole('region', { name: 'Skills' })).toContainText('search_archive');
});

test('a newcomer drops six nodes from the palette, the last with the keyboard, none overlapping', async ({ page }) => {
  await page.goto('/?template=blank');
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await dropKind(page, 'Reason', 196, 128);
  await dropKind(page, 'Act', 446, 148);
  await dropKind(page, 'Verify', 696, 128);
  await dropKind(page, 'Respond', 946, 81);
  await dropKind(page, 'Recover', 696, 378);
  // The last one with the keyboard: focus the palette item and press Enter.
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: 'Stop', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.react-flow__node')).toHaveCount(6);
  await expect(flowNode(page, 'reason')).toContainText('entry');
  // The keyboard-added node lands clear of the others, below the middle of the view: show everything.
  await page.getByRole('button', { name: 'Fit View' }).click();
  // Every box read in one frame: the fit is animated, and boxes read one after another mid-way would be from different views.
  const boxes = await page.locator('.react-flow__node').evaluateAll((nodes) =>
    Object.fromEntries(nodes.map((node) => [node.getAttribute('data-id'), node.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }])),
  );
  const stopBox = boxes.stop;
  for (const id of ['reason', 'act', 'verify', 'respond', 'recover']) {
    const box = boxes[id];
    const overlaps = stopBox.x < box.x + box.width && box.x < stopBox.x + stopBox.width && stopBox.y < box.y + box.height && box.y < stopBox.y + stopBox.height;
    expect(overlaps, `stop overlaps ${id}`).toBe(false);
  }
});

test('a newcomer connects the forward path from the general and the outcome handles', async ({ page }) => {
  await page.goto('/?template=blank');
  await openGraph(page, stage('Path to connect', { skills: true, nodes: true }));
  await connectHandles(page, 'reason', 'out', 'act');
  await connectHandles(page, 'act', 'out', 'verify');
  await connectHandles(page, 'verify', 'sufficient', 'respond');
  await expect(page.locator('.react-flow__edge')).toHaveCount(3);
  // Named by the outcome row it leaves, the edge needs no label: the inspector says its condition.
  await selectEdge(page, 'verify', 'respond');
  await expect(inspector(page).getByLabel('Outcome', { exact: true })).toHaveValue('sufficient');
});

test('a newcomer connects the recovery loop and makes the fallbacks "otherwise" in the condition editor', async ({ page }) => {
  await page.goto('/?template=blank');
  await openGraph(page, stage('Loop to connect', { skills: true, nodes: true, edges: FORWARD }));
  await connectHandles(page, 'verify', 'exhausted', 'recover');
  await connectHandles(page, 'verify', 'out', 'reason');
  await connectHandles(page, 'recover', 'recovered', 'reason');
  await connectHandles(page, 'recover', 'out', 'stop');
  await expect(page.locator('.react-flow__edge')).toHaveCount(7);
  for (const [source, target] of [['verify', 'reason'], ['recover', 'stop']]) {
    await selectEdge(page, source, target);
    await inspector(page).getByLabel('Fires when').selectOption({ label: 'otherwise (no other edge matched)' });
    await expect(inspector(page)).toContainText('An otherwise edge is always tried last.');
  }
});

test('a newcomer plans the first round and a recovery rule in the inspector, and the loop runs to completed', async ({ page }) => {
  await page.goto('/?template=blank');
  await openGraph(page, stage('Loop to run', { skills: true, nodes: true, edges: EDGES }));

  // The planner's first round uses the usual source.
  await flowNode(page, 'reason').locator('.agent-node-label').click();
  const plans = inspector(page).getByRole('group', { name: 'Plans by round' });
  await plans.getByRole('button', { name: 'Add round', exact: true }).click();
  await plans.getByLabel('1st action’s skill').selectOption('search_logs');
  await plans.getByLabel('Arguments (JSON)').fill('{"q": "10.0.0.5"}');
  await expect(flowNode(page, 'reason')).toContainText('search_logs');

  // An empty result recovers by switching to the alternative source.
  await flowNode(page, 'recover').locator('.agent-node-label').click();
  const rules = inspector(page).getByRole('group', { name: 'Recovery rules' });
  await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
  await expect(rules.getByLabel('When the reason is')).toHaveValue('empty_result');
  await rules.getByLabel('Switch to skill').selectOption('search_archive');
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('Problems (0)');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('completed');
  const steps = timelineSteps(page);
  await expect(steps).toHaveCount(8);
  await expect(steps.locator('.tl-label')).toHaveText(['Reason', 'Act', 'Verify', 'Recover', 'Reason', 'Act', 'Verify', 'Respond']);
  await expect(steps.nth(1).getByRole('group', { name: 'Attempts of step 2' })).toContainText('search_logs');
  await expect(steps.nth(1).getByRole('group', { name: 'Attempts of step 2' })).toContainText('empty');
  await expect(steps.nth(3)).toContainText('recovered');
  // Round 2's act step used the alternative skill, and found records.
  const roundTwoAttempts = steps.nth(5).getByRole('group', { name: 'Attempts of step 6' });
  await expect(roundTwoAttempts).toContainText('search_archive');
  await expect(roundTwoAttempts).not.toContainText('search_logs');
  await expect(roundTwoAttempts).toContainText('ok');
});
