import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { collectErrors, service, servicePort } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/**
 * A local SIEM: /search answers HTML first (a parse error, retried in place), then no events (an
 * empty result, which recovery handles); /archive answers the events. It counts every request, so
 * the test can tell that a scenario never called it.
 */
const startSiem = async (port: number) => {
  let searches = 0;
  const siem = await service(port, (_method, url, _headers, respond) => {
    if (url.startsWith('/search')) {
      searches += 1;
      respond(200, searches === 1 ? '<html>SIEM is busy</html>' : '[]');
    } else if (url.startsWith('/archive')) respond(200, JSON.stringify({ hits: [{ ip: '10.0.0.5', user: 'admin', count: 42 }, { ip: '10.0.0.5', user: 'root', count: 7 }] }));
    else respond(404, '{}');
  });
  // A preflight is not a call of the skill.
  return { ...siem, calls: () => siem.requests.filter((request) => request.method !== 'OPTIONS').map((request) => request.url.split('?')[0]) };
};

/** SecurityClaw whose two searches are http skills of the local service, with no scenario yet. */
const graphFor = (base: string) => {
  const graph = JSON.parse(readFileSync('src/graph/templates/securityclaw.json', 'utf8'));
  graph.name = 'SecurityClaw on a local SIEM';
  graph.skills.search_events = { type: 'http', access: 'read', tokens: 100, url: `${base}/search?q={{args.q}}`, timeoutMs: 5000 };
  graph.skills.query_alternative_source = { type: 'http', access: 'read', tokens: 150, url: `${base}/archive?q={{args.q}}`, recordsPath: 'hits', timeoutMs: 5000 };
  graph.scenarios = [];
  return JSON.stringify(graph);
};

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const scenarios = (page: Page) => page.getByRole('region', { name: 'Scenarios' });
const scenarioItem = (page: Page, name: string) => scenarios(page).getByRole('list', { name: 'Scenario list' }).getByRole('listitem').filter({ hasText: name });
const canvasNode = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const canvasEdge = (page: Page, id: string) => page.locator(`.react-flow__edge[data-id="${id}"]`);

const SAVED = 'triage via the local SIEM';

test('a real run against a local service becomes a scenario; a changed condition fails it at the step where the run parts, in the panel, the comparison and JUnit', async ({ page }, testInfo) => {
  // It starts the command line too (npx and tsx), which takes seconds on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  const siem = await startSiem(servicePort(testInfo.parallelIndex, 0));
  try {
    await page.goto('/?template=blank');
    await page.getByLabel('Import JSON').setInputFiles({ name: 'local-siem.json', mimeType: 'application/json', buffer: Buffer.from(graphFor(siem.url)) });
    await expect(page.getByRole('heading', { name: 'SecurityClaw on a local SIEM' })).toBeVisible();
    await expect(scenarios(page)).toContainText('No scenario yet');

    // A real run: the service answers HTML, then nothing, and the archive answers.
    await button(page, 'Run').click();
    // The person allows the host first: nothing is sent before.
    const consent = page.getByRole('dialog', { name: 'Allow network access' });
    await expect(consent).toContainText(siem.url);
    expect(siem.calls()).toEqual([]);
    await consent.getByRole('button', { name: 'Allow and run' }).click();
    await expect(page.getByRole('status')).toContainText('completed');
    expect(siem.calls()).toEqual(['/search', '/search', '/archive']);

    // Save as scenario: the draft pins the run and its http results as mock scripts; the person trims it.
    await button(page, 'Save as scenario').click();
    const dialog = page.getByRole('dialog', { name: 'Save as scenario' });
    const json = dialog.getByLabel('Scenario (JSON)');
    const draft = JSON.parse(await json.inputValue());
    expect(draft.expect).toEqual({ stopReason: 'completed', rounds: 2, attempts: { execute: 3 }, path: ['decide', 'execute', 'evaluate', 'recover', 'decide', 'execute', 'evaluate', 'answer'] });
    expect(draft.skills.search_events.script).toEqual([
      { outcome: 'parse_error', tokens: 100, error: 'the answer is not JSON' },
      { outcome: 'empty', tokens: 100 },
    ]);
    expect(draft.skills.query_alternative_source.script).toEqual([{ outcome: 'ok', records: [{ ip: '10.0.0.5', user: 'admin', count: 42 }, { ip: '10.0.0.5', user: 'root', count: 7 }], tokens: 150 }]);
    await json.fill('{ "expect": ');
    await expect(dialog.getByRole('alert')).toContainText('not JSON');
    await expect(dialog.getByRole('button', { name: 'Save scenario' })).toBeDisabled();
    delete draft.description;
    await json.fill(JSON.stringify(draft, null, 2));
    await dialog.getByLabel('Scenario name').fill(SAVED);
    await dialog.getByRole('button', { name: 'Save scenario' }).click();
    await expect(dialog).toBeHidden();

    // It passes, offline: the service gets no further request.
    await expect(scenarioItem(page, SAVED)).toContainText('not run');
    await button(page, 'Run all scenarios').click();
    await expect(scenarioItem(page, SAVED)).toContainText('passed');
    await expect(scenarios(page)).toContainText('1 passed, 0 failed');

    // Change a condition: evaluate → recover now fires on plan_exhausted = false (or low coverage, as before).
    await page.getByRole('group', { name: 'Edge from evaluate to recover' }).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Inspector' }).getByLabel('Value').fill('false');
    await expect(page.locator('.edge-label[data-edge-id="e4"]')).toContainText('plan_exhausted = false');

    // The scenario fails, at step 3, where evaluate takes e5 instead of e4.
    await scenarios(page).getByRole('button', { name: `Run scenario ${SAVED}` }).click();
    const item = scenarioItem(page, SAVED);
    await expect(item).toContainText('failed at step 3');
    // It leads with the cause, then expected against actual.
    // Edges and outcomes as the saved run had them, and the change that made the run part from it (issue 53, #10).
    await expect(item.locator('.scenario-cause')).toHaveText("parts at step 3: Evaluate took e5 (exhausted), the saved run took e4 (exhausted). Edge e4 is evaluate → recover on plan_exhausted = false; the saved run's graph had evaluate → recover on plan_exhausted = true");
    await expect(item.getByRole('list', { name: `Failed expectations of ${SAVED}` })).toContainText('path: expected ["decide","execute","evaluate","recover"');
    expect(siem.calls()).toHaveLength(3);

    // The failure opens in the debugger at that step.
    await item.getByRole('button', { name: 'Open at step 3' }).click();
    await expect(page.getByLabel('Shown run')).toHaveValue('2');
    await expect(page.getByRole('region', { name: 'Step detail' }).getByRole('heading', { name: /^Step 3 ·/ })).toBeVisible();
    await expect(canvasNode(page, 'evaluate')).toHaveClass(/\bcurrent\b/);
    await expect(canvasEdge(page, 'e5')).toHaveClass(/\bfired\b/);

    // The comparison with the real run: paths aligned, the parting marked on the canvas.
    await item.getByRole('button', { name: 'Compare with run 1' }).click();
    const comparison = page.getByRole('region', { name: 'Run comparison' });
    await expect(comparison).toContainText('Runs part at step 3: run 1 took e4 (evaluation.plan_exhausted eq true (was true)), run 2 took e5 (otherwise: no other edge matched)');
    await expect(comparison.getByRole('table', { name: 'Aligned paths' }).locator('tr[aria-current="step"]')).toHaveText(['#3 evaluate (exhausted) → e4#3 evaluate (exhausted) → e5']);
    await expect(comparison.getByRole('table', { name: 'Attempt differences' })).toHaveCount(0);
    await expect(canvasNode(page, 'evaluate')).toHaveClass(/\bparted\b/);
    await expect(canvasEdge(page, 'e4')).toHaveClass(/\bparted-left\b/);
    await expect(canvasEdge(page, 'e5')).toHaveClass(/\bparted-right\b/);
    await comparison.getByRole('button', { name: 'Close comparison' }).click();
    await expect(comparison).toBeHidden();
    await expect(canvasEdge(page, 'e4')).not.toHaveClass(/\bparted-left\b/);

    // The same file on the command line: JUnit XML with that failure.
    const download = page.waitForEvent('download');
    await button(page, 'Export JSON').click();
    const file = testInfo.outputPath('local-siem.json');
    await (await download).saveAs(file);
    const junit = await promisify(execFile)('npx', ['loopscope', 'test', file, '--reporter', 'junit'], { encoding: 'utf8' }).catch((error: { code: number; stdout: string }) => error);
    expect(junit).toMatchObject({ code: 1 });
    const xml = (junit as { stdout: string }).stdout;
    expect(xml).toContain('<testsuite name="SecurityClaw on a local SIEM"');
    expect(xml).toContain(`<testcase name="${SAVED}"`);
    expect(xml).toMatch(/<failure message="parts at step 3: Evaluate took e5 \(exhausted\), the saved run took e4 \(exhausted\)\. Edge e4 is evaluate → recover on plan_exhausted = false; the saved run(&apos;|')s graph had evaluate → recover on plan_exhausted = true; \d+ expectation\(s\) failed, the first: /);
    expect(xml).toContain('path: expected [&quot;decide&quot;,&quot;execute&quot;,&quot;evaluate&quot;,&quot;recover&quot;');
    expect(siem.calls()).toHaveLength(3);
    expect(errors).toEqual([]);
  } finally {
    await siem.close();
  }
});

test('Undo takes a saved scenario back; the templates’ scenarios all pass in the panel', async ({ page }) => {
  // Many runs in one page: room for a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/');
  const items = scenarios(page).getByRole('list', { name: 'Scenario list' }).getByRole('listitem');
  // The first visit's template loads after the first screen: wait for its scenarios, then count them.
  await expect.poll(() => items.count()).toBeGreaterThanOrEqual(8);
  const count = await items.count();
  await button(page, 'Run all scenarios').click();
  // Each scenario is a whole run through LangGraph: give a loaded machine time.
  await expect(scenarios(page)).toContainText(`${count} passed, 0 failed`, { timeout: 30_000 });

  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toContainText('completed');
  await button(page, 'Save as scenario').click();
  await page.getByRole('dialog', { name: 'Save as scenario' }).getByRole('button', { name: 'Save scenario' }).click();
  await expect(items).toHaveCount(count + 1);
  await button(page, 'Undo').click();
  await expect(items).toHaveCount(count);
  await button(page, 'Redo').click();
  await expect(items).toHaveCount(count + 1);
  await expect(items.last()).toContainText('SecurityClaw triage: completed in 2 round(s)');
  expect(errors).toEqual([]);
});

test('any two runs compare: two seeds of one graph are alike; a run and its fork part where the fork changed a result', async ({ page }) => {
  test.slow();
  const errors = collectErrors(page);
  await page.goto('/');
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toContainText('completed');
  await page.getByLabel('Seed').fill('7');
  await button(page, 'Run').click();
  await expect(page.getByLabel('Shown run')).toHaveValue('2');
  await expect(page.getByRole('status')).toContainText('completed');
  await button(page, 'Compare runs').click();
  const comparison = page.getByRole('region', { name: 'Run comparison' });
  await expect(comparison).toContainText('Runs 1 and 2 are alike: the same path, attempts and state.');
  await comparison.getByRole('button', { name: 'Close comparison' }).click();

  // Fork run 2 after step 1 with search_events answering records: execute (step 2) finds them, so the runs part at step 3.
  await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(0).click();
  const detail = page.getByRole('region', { name: 'Step detail' });
  await detail.getByRole('button', { name: 'Fork from here' }).click();
  const form = detail.getByRole('form', { name: 'Fork from step 1' });
  await form.getByRole('combobox', { name: /^Skill/ }).selectOption('search_events');
  await form.getByRole('combobox', { name: /^Outcome/ }).selectOption('ok');
  await form.getByLabel('Records (JSON)').fill('[{"ip": "10.0.0.5"}, {"ip": "10.0.0.6"}]');
  await form.getByRole('button', { name: 'Fork and continue' }).click();
  await expect(page.getByLabel('Shown run')).toHaveValue('3');
  await expect(page.getByRole('status')).toContainText('completed');
  await button(page, 'Compare runs').click();
  await expect(comparison.getByLabel('Left run')).toHaveValue('2');
  await expect(comparison.getByLabel('Right run')).toHaveValue('3');
  await expect(comparison).toContainText('Runs part at step 3: run 2 took e4');
  // At the parting step, the state each run had differs in what execute returned.
  await expect(comparison.getByRole('table', { name: 'State differences before the step' })).toContainText('results');
  await expect(canvasEdge(page, 'e3')).toHaveClass(/\bparted-right\b/);

  // Another pair: the first run against the fork.
  await comparison.getByLabel('Left run').selectOption('1');
  await expect(comparison).toContainText('Runs part at step 3: run 1 took e4');
  expect(errors).toEqual([]);
});
