import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, test, type Page } from './test.ts';
import { collectErrors, storedSessions } from './helpers.ts';

const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' });
const steps = (page: Page) => timeline(page).getByRole('listitem');
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const stopStatus = (page: Page) => page.getByRole('status');
const stepHeading = (page: Page) => detail(page).getByRole('heading', { name: /^Step \d+ ·/ });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const canvasNode = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const canvasEdge = (page: Page, id: string) => page.locator(`.react-flow__edge[data-id="${id}"]`);

/** Steps once and checks what the step detail and the canvas say about the new step. */
const stepAndCheck = async (page: Page, expected: { step: number; node: string; label: string; fired?: string; reason?: string }) => {
  await button(page, 'Step').click();
  await expect(steps(page)).toHaveCount(expected.step);
  await expect(stepHeading(page)).toContainText(`Step ${expected.step} · ${expected.label}`);
  await expect(canvasNode(page, expected.node)).toHaveClass(/\bcurrent\b/);
  if (expected.fired) {
    await expect(detail(page).locator('.fired-edge')).toHaveText(expected.fired);
    await expect(canvasEdge(page, expected.fired)).toHaveClass(/\bfired\b/);
  }
  if (expected.reason) await expect(detail(page).getByRole('list', { name: 'Edges tried' })).toContainText(`taken ${expected.fired}`);
  if (expected.reason) await expect(detail(page)).toContainText(expected.reason);
};

/** Drops the fields allowed to differ between two runs of one seed. */
const withoutTimings = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'durationMs').map(([key, item]) => [key, withoutTimings(item)]));
};

test('SecurityClaw round 1, step by step: a local retry, an exhausted plan, recovery', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(stopStatus(page)).toHaveText('No run yet.');

  await stepAndCheck(page, { step: 1, node: 'decide', label: 'Decide', fired: 'e1', reason: 'always' });
  await stepAndCheck(page, { step: 2, node: 'execute', label: 'Execute skill', fired: 'e2' });
  // The local retries sit inside the execute step: the timeout, then the empty result.
  const attempts = steps(page).nth(1).getByRole('group', { name: 'Attempts of step 2' });
  await expect(attempts).toContainText('attempt 1');
  await expect(attempts).toContainText('timeout');
  await expect(attempts).toContainText('SIEM did not answer within 5s');
  await expect(attempts).toContainText('attempt 2');
  await expect(attempts).toContainText('empty');
  await expect(detail(page).getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('meter', { name: 'Steps' })).toHaveAttribute('value', '2');

  await stepAndCheck(page, { step: 3, node: 'evaluate', label: 'Evaluate', fired: 'e4', reason: 'evaluation.plan_exhausted eq true (was true)' });
  await expect(detail(page).getByRole('list', { name: 'Edges tried' })).toContainText('not taken e3 → answer');
  await expect(detail(page).getByRole('list', { name: 'Guard checks' })).toContainText('tokens 200/2000');
  await stepAndCheck(page, { step: 4, node: 'recover', label: 'Recover', fired: 'e6' });
  await expect(detail(page).getByRole('table', { name: 'State changes' })).toContainText('query_alternative_source');
  expect(errors).toEqual([]);
});

/** SecurityClaw run to the start of round 2 with Step round, then stepped `more` times unchecked. */
const atRoundTwo = async (page: Page, more = 0) => {
  await page.goto('/');
  await button(page, 'Step round').click();
  await expect(steps(page)).toHaveCount(4);
  await expect(stopStatus(page)).toContainText('paused before round 2 starts');
  for (let step = 5; step < 5 + more; step += 1) {
    await button(page, 'Step').click();
    await expect(steps(page)).toHaveCount(step);
  }
};

test('SecurityClaw round 2, step by step: recovery changed the plan to the other source', async ({ page }) => {
  const errors = collectErrors(page);
  await atRoundTwo(page);
  await stepAndCheck(page, { step: 5, node: 'decide', label: 'Decide', fired: 'e1' });
  // Recovery changed the path: the new plan uses the other source.
  await expect(detail(page).getByRole('table', { name: 'State changes' }).getByRole('row', { name: /plan/ })).toContainText('query_alternative_source');
  await expect(timeline(page)).toContainText('Round 2');
  await stepAndCheck(page, { step: 6, node: 'execute', label: 'Execute skill', fired: 'e2' });
  await expect(steps(page).nth(5).getByRole('group', { name: 'Attempts of step 6' })).toContainText('query_alternative_source');
  expect(errors).toEqual([]);
});

test('SecurityClaw round 2, step by step: the other source suffices and the run completes', async ({ page }) => {
  const errors = collectErrors(page);
  await atRoundTwo(page, 2);
  await stepAndCheck(page, { step: 7, node: 'evaluate', label: 'Evaluate', fired: 'e3', reason: 'outcome is "sufficient"' });
  await expect(page.getByRole('meter', { name: 'Rounds' })).toHaveAttribute('value', '2');
  await button(page, 'Step').click();
  await expect(steps(page)).toHaveCount(8);
  await expect(stopStatus(page)).toContainText('completed');
  await expect(timeline(page)).toContainText('Stopped: completed');
  expect(errors).toEqual([]);
});

test('a breakpoint on recover pauses the run before it and says which one', async ({ page }) => {
  await page.goto('/');
  const breakpoints = page.getByRole('region', { name: 'Breakpoints' });
  await breakpoints.getByLabel('Node').selectOption('recover');
  await breakpoints.getByRole('button', { name: 'Break before node' }).click();
  await expect(breakpoints).toContainText('before node recover runs');

  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('Paused by breakpoint on node recover');
  await expect(steps(page)).toHaveCount(3);
  await expect(button(page, 'Continue')).toBeEnabled();
  await button(page, 'Continue').click();
  await expect(stopStatus(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(8);

  await breakpoints.getByRole('button', { name: 'Remove breakpoint on node recover' }).click();
  await expect(breakpoints).not.toContainText('before node recover runs');
});

test('a condition breakpoint: an attempt fails', async ({ page }) => {
  await page.goto('/');
  const breakpoints = page.getByRole('region', { name: 'Breakpoints' });
  await breakpoints.getByLabel('Condition').selectOption('attempt_failed');
  await breakpoints.getByRole('button', { name: 'Add condition' }).click();
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('attempt 1 of search_events was timeout');
  await expect(steps(page)).toHaveCount(2);
});

test('an edge breakpoint pauses when it fires; a round condition pauses before the round starts', async ({ page }) => {
  await page.goto('/');
  const breakpoints = page.getByRole('region', { name: 'Breakpoints' });
  await breakpoints.getByLabel('Edge').selectOption('e4');
  await breakpoints.getByRole('button', { name: 'Break when edge fires' }).click();
  await breakpoints.getByLabel('Condition').selectOption('round');
  await breakpoints.getByLabel('N', { exact: true }).fill('2');
  await breakpoints.getByRole('button', { name: 'Add condition' }).click();
  await expect(breakpoints).toContainText('when round reaches 2');

  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('breakpoint on edge e4: it fired');
  await expect(steps(page)).toHaveCount(3);
  await button(page, 'Continue').click();
  await expect(stopStatus(page)).toContainText('paused before round 2 starts');
  await expect(steps(page)).toHaveCount(4);
  await button(page, 'Continue').click();
  await expect(stopStatus(page)).toContainText('completed');
});

test('Step round runs to the start of the next round', async ({ page }) => {
  await page.goto('/');
  await button(page, 'Step round').click();
  await expect(steps(page)).toHaveCount(4);
  await expect(stopStatus(page)).toContainText('paused before round 2 starts');
  await button(page, 'Step round').click();
  await expect(stopStatus(page)).toContainText('completed');
});

test('fork from step 2 with an edited state: evaluate finds the records', async ({ page }) => {
  await page.goto('/');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(1).click();
  await detail(page).getByRole('button', { name: 'Fork from here' }).click();
  const form = detail(page).getByRole('form', { name: 'Fork from step 2' });
  const editor = form.getByLabel('State after step 2 (JSON)');
  const state = JSON.parse(await editor.inputValue());
  state.results = [{ skill: 'search_events', args: {}, outcome: 'ok', records: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }], attempts: 1 }];
  await editor.fill(JSON.stringify(state));
  await form.getByRole('button', { name: 'Fork and continue' }).click();
  await expect(page.getByLabel('Shown run').locator('option')).toHaveText(['Run 1', 'Run 2 (fork of run 1 at step 2)']);
  await expect(steps(page)).toHaveCount(4);
  await expect(page.locator('.tl-parting')).toContainText('Runs part at step 3: run 1 took e4');
});

test('fork from step 3 with another outcome: evaluate routes on it, and the steps before are kept', async ({ page }) => {
  await page.goto('/');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(2).click();
  await detail(page).getByRole('button', { name: 'Fork from here' }).click();
  const form = detail(page).getByRole('form', { name: 'Fork from step 3' });
  // Beside the outcome: the edge is chosen from it, which edge fires on what.
  await expect(form.getByLabel("Step 3's outcome")).toHaveAccessibleDescription(/^Edges follow the outcome: the edge after step 3 is chosen again from it \(e3 to Format response: outcome: sufficient; e4 to Recover: plan_exhausted/);
  await form.getByLabel("Step 3's outcome").selectOption('sufficient');
  await form.getByRole('button', { name: 'Fork and continue' }).click();
  await expect(page.getByLabel('Shown run').locator('option')).toHaveText(['Run 1', 'Run 2 (fork of run 1 at step 3)']);
  await expect(stopStatus(page)).toContainText('completed');
  await expect(steps(page)).toHaveCount(4);
  await expect(page.locator('.tl-parting')).toContainText('Runs part at step 3: run 1 took e4');
  await expect(page.locator('.tl-parting')).toContainText('run 2 took e3');
});

test('time travel: after the run, selecting step 2 shows execute as current; arrow keys move between steps', async ({ page }) => {
  await page.goto('/');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(1).click();
  await expect(canvasNode(page, 'execute')).toHaveClass(/\bcurrent\b/);
  await expect(canvasNode(page, 'answer')).not.toHaveClass(/\bcurrent\b/);
  await expect(stepHeading(page)).toContainText('Step 2 · Execute skill');
  await expect(steps(page).nth(1)).toHaveAttribute('aria-current', 'step');

  await page.keyboard.press('ArrowDown');
  await expect(stepHeading(page)).toContainText('Step 3 · Evaluate');
  await page.keyboard.press('End');
  await expect(stepHeading(page)).toContainText('Step 8 · Format response');
  await page.keyboard.press('Home');
  await expect(stepHeading(page)).toContainText('Step 1 · Decide');
  await page.keyboard.press('ArrowUp');
  await expect(stepHeading(page)).toContainText('Step 1 · Decide');
});

/** Runs SecurityClaw to its end and opens the fork form on a step. */
const forkForm = async (page: Page, step: number) => {
  await page.goto('/');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('completed');
  await steps(page).nth(step - 1).click();
  await detail(page).getByRole('button', { name: 'Fork from here' }).click();
  return detail(page).getByRole('form', { name: `Fork from step ${step}` });
};

test('the fork form shows bad state inline, with its path, and forks nothing', async ({ page }) => {
  const form = await forkForm(page, 1);
  const editor = form.getByLabel('State after step 1 (JSON)');
  await editor.fill('{ "question": ');
  await expect(form.getByRole('alert')).toContainText('not JSON');
  await expect(form.getByRole('button', { name: 'Fork and continue' })).toBeDisabled();
  await editor.fill('[1]');
  await expect(form.getByRole('alert')).toContainText('expected');
  await editor.fill('{"round": "two"}');
  await expect(form.getByRole('alert')).toContainText('round: expected a number, got a string');
  await expect(form.getByRole('button', { name: 'Fork and continue' })).toBeDisabled();
  await editor.fill('{"question": "x", "__proto__": {"polluted": true}}');
  await expect(form.getByRole('alert')).toContainText('the key "__proto__" is not allowed');
  await expect(form.getByRole('button', { name: 'Fork and continue' })).toBeDisabled();
});

test('fork from step 1 with search_events returning records: evaluate takes e3, both runs kept', async ({ page }) => {
  const form = await forkForm(page, 1);
  await form.getByLabel('State after step 1 (JSON)').fill('{"question": "failed logins from 10.0.0.5?", "round": 1, "steps": 1, "tokensUsed": 0}');

  await form.getByRole('combobox', { name: /^Skill/ }).selectOption('search_events');
  await form.getByRole('combobox', { name: /^Outcome/ }).selectOption('ok');
  await form.getByLabel('Records (JSON)').fill('[{"ip": "10.0.0.5", "event": "login_failed"}, {"ip": "10.0.0.5", "event": "login_failed", "user": "root"}]');
  await form.getByRole('button', { name: 'Fork and continue' }).click();

  const picker = page.getByLabel('Shown run');
  await expect(picker.locator('option')).toHaveText(['Run 1', 'Run 2 (fork of run 1 at step 1)']);
  await expect(steps(page)).toHaveCount(4);
  await expect(stopStatus(page)).toContainText('completed');
  await expect(page.locator('.tl-parting')).toHaveText(
    'Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 2 took e3 (outcome is "sufficient")',
  );
  await steps(page).nth(2).click();
  await expect(detail(page).locator('.fired-edge')).toHaveText('e3');
  await expect(canvasEdge(page, 'e3')).toHaveClass(/\bfired\b/);

  await picker.selectOption({ label: 'Run 1' });
  await expect(steps(page)).toHaveCount(8);
});

test('an approval: the prompt names the pending action; Approve lets it run, Deny stops', async ({ page }) => {
  await page.goto('/?template=approval-gate');
  await button(page, 'Run').click();
  const dialog = page.getByRole('dialog', { name: 'Approval' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('open_ticket');
  await expect(dialog).toContainText('Block 10.0.0.5');
  await expect(dialog).toContainText('refused by the permission check');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(stopStatus(page)).toContainText('completed');

  await button(page, 'Run').click();
  await page.getByRole('dialog', { name: 'Approval' }).getByRole('button', { name: 'Deny' }).click();
  await expect(stopStatus(page)).toContainText('denied');
});

test('the approval prompt over the canvas: a graph still fitted moves out from under it, and back when it goes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?template=approval-gate');
  const nodes = page.locator('.react-flow__node');
  await expect(nodes.first()).toBeVisible();
  const transform = () => page.locator('.react-flow__viewport').evaluate((element) => (element as HTMLElement).style.transform);
  await button(page, 'Run').click();
  const dialog = page.getByRole('dialog', { name: 'Approval' });
  await expect(dialog).toBeVisible();
  /** The nodes the prompt is over. */
  const covered = async () => {
    const cover = (await dialog.boundingBox())!;
    return nodes.evaluateAll((elements, box) => elements.filter((element) => {
      const { left, right, top, bottom } = element.getBoundingClientRect();
      return left < box.x + box.width && right > box.x && top < box.y + box.height && bottom > box.y;
    }).map((element) => element.getAttribute('data-id')), cover);
  };
  await expect.poll(covered).toEqual([]);
  const besidePrompt = await transform();
  // Denied, the run stops there: nothing runs after that would bring a node into view.
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toBeHidden();
  await expect(stopStatus(page)).toContainText('denied');
  // The prompt gone, the graph is fitted into the whole canvas again.
  await expect.poll(transform).not.toBe(besidePrompt);
});

test('max_rounds is named on screen, with the rounds gauge at its limit', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: /^Scenario/ }).selectOption('max rounds forces stop');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('max_rounds');
  await expect(stopStatus(page)).toContainText('used all its rounds');
  await expect(page.getByRole('meter', { name: 'Rounds' })).toHaveAttribute('value', '5');
});

test('a blind retry is marked in the timeline', async ({ page }) => {
  await page.goto('/?template=graph-engineer');
  await page.getByRole('combobox', { name: /^Scenario/ }).selectOption('max steps bounds a VERIFY loop that never suffices');
  await button(page, 'Run').click();
  // A run to its step bound: on a loaded 2-core machine it takes longer than the default wait.
  await expect(stopStatus(page)).toContainText('max_steps', { timeout: 40_000 });
  await expect(steps(page).filter({ hasText: 'blind retry' }).first()).toBeVisible();
});

/** What `loopscope run FILE --json --seed 1` prints; started at once, so that it runs while the page does. */
const commandLineTrace = (file: string) =>
  promisify(execFile)(process.execPath, ['bin/loopscope.mjs', 'run', file, '--json', '--seed', '1'], { encoding: 'utf8', maxBuffer: 20_000_000 }).then(({ stdout }) => JSON.parse(stdout));

test('trace export equals the command line run, and importing it shows the same timeline', async ({ page }, testInfo) => {
  const cli = commandLineTrace('src/graph/templates/securityclaw.json');
  await page.goto('/');
  await button(page, 'Run').click();
  await expect(stopStatus(page)).toContainText('completed');
  const shown = await steps(page).allInnerTexts();

  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export trace').click()]);
  const exportedPath = testInfo.outputPath('exported.trace.json');
  await download.saveAs(exportedPath);
  const { graphFile, ...exported } = JSON.parse(await readFile(exportedPath, 'utf8'));
  expect(withoutTimings(exported)).toEqual(withoutTimings(await cli));
  // The export carries the graph it ran on.
  expect(graphFile.name).toBe('SecurityClaw triage');

  // Imported on another graph, the trace opens its own graph beside it.
  await button(page, 'Reset').click();
  await expect(steps(page)).toHaveCount(0);
  await button(page, 'New graph').click();
  await expect(page.getByRole('heading', { name: 'Untitled graph' })).toBeVisible();
  await page.getByLabel('Import trace').setInputFiles(exportedPath);
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();
  await expect(page.getByLabel('Shown run').locator('option')).toHaveText(['Run 1 (imported)']);
  expect(await steps(page).allInnerTexts()).toEqual(shown);
  await expect(stopStatus(page)).toContainText('completed');
  // The imported run is kept with the graph it came with, untouched since: a reload shows both again.
  await expect.poll(async () => (await storedSessions(page)).some((session) => session.runs.some((run) => run.imported))).toBe(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();
  await expect(page.getByLabel('Shown run').locator('option')).toHaveText(['Run 1 (imported)']);
  expect(await steps(page).allInnerTexts()).toEqual(shown);
  await steps(page).nth(1).click();
  await expect(canvasNode(page, 'execute')).toHaveClass(/\bcurrent\b/);
});

test('a trace of another graph is shown with a warning; a broken one is refused with its path', async ({ page }, testInfo) => {
  const [exported] = await Promise.all([commandLineTrace('src/graph/templates/securityclaw.json'), page.goto('/')]);
  const other = testInfo.outputPath('other.trace.json');
  await writeFile(other, JSON.stringify({ ...exported, graph: 'Another graph' }));
  await page.getByLabel('Import trace').setInputFiles(other);
  await expect(page.getByRole('alert').filter({ hasText: 'made on "Another graph"' })).toBeVisible();
  const broken = testInfo.outputPath('broken.trace.json');
  await writeFile(broken, JSON.stringify({ ...exported, steps: [{ ...exported.steps[0], kind: 'wizard' }] }));
  await page.getByLabel('Import trace').setInputFiles(broken);
  await expect(page.getByRole('alert').filter({ hasText: 'steps[0].kind' })).toBeVisible();
  const graphFile = JSON.parse(await readFile('src/graph/templates/securityclaw.json', 'utf8'));
  await writeFile(broken, JSON.stringify({ ...exported, graphFile: { ...graphFile, nodes: [{ id: 'x', kind: 'wizard' }] } }));
  await page.getByLabel('Import trace').setInputFiles(broken);
  await expect(page.getByRole('alert').filter({ hasText: 'graphFile.nodes[0].kind' })).toBeVisible();
});

test('Pause stops a slow run mid-way and the page keeps answering; Continue finishes it', async ({ page }) => {
  // The page's clock is ours: time passes only when the test says, so "no more steps" needs no waiting.
  await page.clock.install();
  await page.goto('/');
  // Far enough ahead that a loaded machine's slow answer does not carry the page's clock past it.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
  await page.getByLabel('Speed').selectOption({ label: 'Slow (600 ms a step)' });
  await button(page, 'Run').click();
  await expect(steps(page)).toHaveCount(1);
  await page.clock.runFor(600);
  await expect(steps(page)).toHaveCount(2);
  await button(page, 'Pause').click();
  // The step under way finishes its delay, then the run stops.
  await page.clock.runFor(600);
  await expect(stopStatus(page)).toHaveText('Paused.');
  const paused = await steps(page).count();
  expect(paused).toBeLessThan(8);
  await page.clock.runFor(10_000);
  await expect(steps(page)).toHaveCount(paused);
  await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').first().click();
  await expect(stepHeading(page)).toContainText('Step 1 · Decide');
  await page.getByLabel('Speed').selectOption({ label: 'Instant' });
  // Time flows again: LangGraph itself waits on timers between supersteps.
  await page.clock.resume();
  await button(page, 'Continue').click();
  await expect(stopStatus(page)).toContainText('completed');
});

test('a long trace read on the page still names its one broken step deep inside, and opens once mended', async ({ page }, testInfo) => {
  // Big enough to be read on the page with the quick check (runtime/traceText.ts), which leaves the broken step to the parsing worker to name.
  test.slow();
  const count = 6_000;
  const step = (index: number) => ({
    step: index + 1, round: Math.floor(index / 4) + 1, node: ['decide', 'execute', 'evaluate', 'recover'][index % 4], kind: ['reason', 'act', 'verify', 'recover'][index % 4],
    outcome: 'ok', attempts: [], reads: [], writes: { note: `step ${index + 1}` }, edges: [], fired: null, guard: null, durationMs: 0,
  });
  const trace = { format: 'loopscope/trace', version: 1, graph: 'SecurityClaw triage', seed: 1, stopReason: 'max_steps', rounds: count / 4, tokensUsed: 0, finalState: {}, steps: Array.from({ length: count }, (_, index) => step(index)) };
  const file = testInfo.outputPath('broken-deep.trace.json');
  await writeFile(file, JSON.stringify({ ...trace, steps: trace.steps.map((one, index) => (index === 4_321 ? { ...one, writes: { ...one.writes, deep: [{ n: 1, extra: { constructor: 1 } }] } } : one)) }));
  await page.goto('/');
  await page.getByLabel('Import trace').setInputFiles(file);
  await expect(page.getByRole('alert').filter({ hasText: 'steps[4321].writes.deep[0].extra.constructor' })).toBeVisible();
  await writeFile(file, JSON.stringify(trace));
  await page.getByLabel('Import trace').setInputFiles(file);
  await expect(stopStatus(page)).toContainText('max_steps');
  await expect(timeline(page).locator(`[data-step="${count}"]`)).toBeVisible();
});

test('a 10,000-step trace imports with its graph and scrolls, rendering only the visible steps', async ({ page }, testInfo) => {
  // One 2.6 MB file to parse and draw: the one journey allowed more time on a loaded machine.
  test.slow();
  const count = 10_000;
  const trace = {
    format: 'loopscope/trace', version: 1, graph: 'SecurityClaw triage', seed: 1, stopReason: 'max_steps', rounds: count / 4, tokensUsed: 0, finalState: {},
    // Its graph: read with the rest, it opens and is painted before the run is shown on it.
    graphFile: JSON.parse(await readFile('src/graph/templates/securityclaw.json', 'utf8')),
    steps: Array.from({ length: count }, (_, index) => ({
      step: index + 1, round: Math.floor(index / 4) + 1, node: ['decide', 'execute', 'evaluate', 'recover'][index % 4], kind: ['reason', 'act', 'verify', 'recover'][index % 4],
      outcome: 'ok', attempts: [], reads: [], writes: {}, edges: [], fired: { id: ['e1', 'e2', 'e4', 'e6'][index % 4], target: 'x', reason: 'synthetic' }, guard: null, durationMs: 0,
    })),
  };
  const file = testInfo.outputPath('long.trace.json');
  await writeFile(file, JSON.stringify(trace));
  await page.goto('/');
  await button(page, 'New graph').click();
  await expect(page.getByRole('heading', { name: 'Untitled graph' })).toBeVisible();
  await page.getByLabel('Import trace').setInputFiles(file);
  await expect(page.getByRole('heading', { name: 'SecurityClaw triage' })).toBeVisible();
  await expect(stopStatus(page)).toContainText('max_steps');
  // The last step is selected: it is in view, and only a window of steps is in the DOM.
  const stepItem = (step: number) => timeline(page).locator(`[data-step="${step}"]`);
  await expect(stepItem(count)).toBeVisible();
  expect(await steps(page).count()).toBeLessThan(80);
  // The whole timeline panel, its header and rounds overview included, stays a few hundred elements.
  expect(await page.getByRole('region', { name: 'Timeline panel' }).locator('*').count()).toBeLessThan(500);

  await stepItem(count).click();
  await page.keyboard.press('Home');
  await expect(stepItem(count)).toHaveCount(0);
  await expect(stepItem(1)).toBeVisible();
  await expect(stepHeading(page)).toContainText('Step 1 · Decide');
  // Scrolling anywhere shows the steps there, still only a window of them.
  const scroller = page.locator('.timeline-scroll');
  const shownSteps = () => timeline(page).locator('[data-step]').evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-step'))));
  // 150,000 px are about 5,770 rows of 26 px: five rows (a round header and four steps) hold four steps.
  await scroller.evaluate((element) => element.scrollTo(0, 150_000));
  await expect.poll(async () => Math.min(...(await shownSteps()))).toBeGreaterThan(4400);
  expect(Math.max(...(await shownSteps()))).toBeLessThan(4800);
  expect((await shownSteps()).length).toBeLessThan(80);
  await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(stepItem(count)).toBeVisible();
});
