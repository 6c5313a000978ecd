/**
 * The worst inputs of issue 13, each as a short journey: hostile files, links and pastes get a
 * clean refusal or open safely; services and keys stay where the person allowed them.
 */
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { GENERATED } from '../corpus/generated.ts';
import { collectErrors, flowNode, pane, service, servicePort } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

const corpusFile = (name: string) => readFileSync(new URL(`../corpus/${name}`, import.meta.url));
const generated = (name: string) => GENERATED.find((entry) => entry.name === name)!.text();

const importFile = (page: Page, name: string, buffer: Buffer) =>
  page.getByLabel('Import JSON').setInputFiles({ name, mimeType: 'application/json', buffer });
const alert = (page: Page) => page.getByRole('alert').filter({ hasText: 'Could not open' });
const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
const status = (page: Page) => page.getByRole('status');
const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' });

const graphWith = (skill: Record<string, unknown>, retry: Record<string, unknown> = { maxAttempts: 1 }) => Buffer.from(JSON.stringify({
  format: 'loopscope/graph', version: 1, name: 'Calls a service', entry: 'call',
  skills: { remote: skill },
  nodes: [
    { id: 'call', kind: 'act', position: { x: 0, y: 0 }, config: { skill: 'remote', retry } },
    { id: 'halt', kind: 'stop', position: { x: 300, y: 0 } },
  ],
  edges: [{ id: 'e1', source: 'call', target: 'halt' }],
}));

test('the page runs under a policy that allows no inline script, no eval and no framing', async ({ page, cspViolations }) => {
  const response = await page.goto('/');
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self';");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /script-src 'self';/);
  await expect(heading(page, 'SecurityClaw triage')).toBeVisible();
  // A script put into the page (what stored XSS would do) does not run.
  expect(await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'document.body.dataset.injected = "ran"';
    document.head.append(script);
    await new Promise((resolve) => setTimeout(resolve, 0));
    return document.body.dataset.injected ?? 'refused';
  })).toBe('refused');
  // The guard saw it: take this one out, so the journey still checks there is no other.
  await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
  cspViolations.length = 0;
});

test('ids named like Object methods open from a file, draw, run, and come back after a reload', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await importFile(page, 'object-method-ids.json', corpusFile('object-method-ids.json'));
  await expect(heading(page, 'crash')).toBeVisible();
  for (const id of ['toString', 'hasOwnProperty', 'isPrototypeOf', 'valueOf']) await expect(flowNode(page, id)).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page).filter({ hasText: 'completed' })).toBeVisible();
  await expect(flowNode(page, 'toString')).toContainText('×1');

  await page.reload();
  await expect(flowNode(page, 'toString')).toBeVisible();
  expect(errors).toEqual([]);
});

test('bidi overrides and control characters in a name show escaped in the heading and in Graphs, as the terminal shows them', async ({ page }) => {
  await page.goto('/');
  await importFile(page, 'bidi-name.json', corpusFile('bidi-name.json'));
  // The name is safe\u202egnp.exe: shown with the override as its escape, it cannot read as "safeexe.png".
  await expect(heading(page, 'safe\\u202egnp.exe')).toBeVisible();
  await importFile(page, 'ansi-names.json', corpusFile('ansi-names.json'));
  await expect(heading(page, '\\u001b[2J\\u001b[H\\u001b[32mAll tests passed\\u001b[0m')).toBeVisible();
  await page.getByRole('button', { name: 'Graphs', exact: true }).click();
  const graphs = page.getByRole('dialog', { name: 'Graphs' });
  await expect(graphs.getByRole('button', { name: /^safe\\u202egnp\.exe/ })).toBeVisible();
  await expect(graphs).not.toContainText('\u202e');
  await expect(graphs).not.toContainText('\u001b');
});

/**
 * A graph whose every name holds a bidi override (U+202E), an isolate (U+2066) or a right-to-left
 * mark (U+200F): the node labels, an edge's condition and note, the graph's name, an MCP server
 * and tool, a scenario. Its scenario runs offline on the mock skill `search`.
 */
const BIDI_NAMES = Buffer.from(JSON.stringify({
  format: 'loopscope/graph', version: 1, name: 'Report \u202egnp.exe', entry: 'think',
  skills: {
    search: { type: 'mock', script: [{ outcome: 'ok', records: [{}] }] },
    read: { type: 'mcp', server: 'files\u202e', tool: 'read\u2066_file' },
  },
  nodes: [
    { id: 'think', kind: 'reason', label: 'Plan \u202egnp.exe', position: { x: 0, y: 0 }, config: { plans: [{ actions: [{ skill: 'search' }] }] } },
    { id: 'run', kind: 'act', label: 'Act \u2066now', position: { x: 320, y: 0 } },
    { id: 'answer', kind: 'respond', label: 'Answer \u200fhere', position: { x: 640, y: 0 } },
    { id: 'fetch', kind: 'act', label: 'Fetch', position: { x: 320, y: 260 }, config: { skill: 'read' } },
  ],
  edges: [
    { id: 'e1', source: 'think', target: 'run', label: 'note \u2066here' },
    { id: 'e2', source: 'run', target: 'answer', when: { any: [{ outcome: 'ok' }, { path: 'flag', op: 'eq', value: 'x\u200fy' }] } },
    { id: 'e3', source: 'answer', target: 'fetch', when: { path: 'flag', op: 'exists' } },
  ],
  scenarios: [{ name: 'ship \u202eit', expect: { stopReason: 'completed' } }],
}));

/** Every raw bidi or format character the page shows: in its text, or in a title or an accessible name. */
const rawFormatCharacters = (page: Page) =>
  page.evaluate(() => {
    const raw = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/u;
    const attributes = [...document.querySelectorAll('[title], [aria-label]')].flatMap((element) => [element.getAttribute('title') ?? '', element.getAttribute('aria-label') ?? '']);
    return [document.body.innerText, ...attributes].filter((text) => raw.test(text));
  });

test('bidi and format characters in labels, conditions, pickers, the timeline and the host dialog show as their escapes, never raw', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await importFile(page, 'bidi-names.json', BIDI_NAMES);
  await expect(heading(page, 'Report \\u202egnp.exe')).toBeVisible();
  // The canvas: node titles, an edge's condition and its note, the MCP tool a node calls.
  await expect(flowNode(page, 'think').locator('.agent-node-label')).toHaveText('Plan \\u202egnp.exe');
  await expect(flowNode(page, 'think').locator('.shown-escape')).toHaveText('\\u202e');
  await expect(flowNode(page, 'answer').locator('.agent-node-label')).toHaveText('Answer \\u200fhere');
  await expect(page.locator('.edge-label[data-edge-id="e2"]')).toContainText('"x\\u200fy"');
  await expect(page.locator('.edge-label[data-edge-id="e1"]')).toContainText('note \\u2066here');
  await expect(flowNode(page, 'fetch').getByRole('img', { name: /read\\u2066_file/ })).toBeVisible();
  // The inspector of the node calling the tool names its server and tool with their escapes; its edit boxes keep the real values.
  await flowNode(page, 'fetch').locator('.agent-node-label').click();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.getByLabel('Id', { exact: true })).toHaveValue('fetch');
  expect(await rawFormatCharacters(page)).toEqual([]);
  // The graph's inspector, its MCP skill's settings among them.
  await pane(page).click({ position: { x: 5, y: 5 } });
  await inspector.getByRole('region', { name: 'Skills' }).locator('strong', { hasText: /^read$/ }).click();
  await expect(inspector.getByText('Address of “files\\u202e” in this browser')).toBeVisible();
  expect(await rawFormatCharacters(page)).toEqual([]);
  // The host dialog of a run of the graph as drawn names the graph and the MCP server with their escapes.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const consent = page.getByRole('dialog', { name: 'Allow network access' });
  await expect(consent).toContainText('“Report \\u202egnp.exe” has skills');
  await expect(consent).toContainText('MCP server “files\\u202e” (read)');
  expect(await rawFormatCharacters(page)).toEqual([]);
  await consent.getByRole('button', { name: 'Cancel' }).click();
  await expect(consent).toBeHidden();
  // A picker: the scenario select lists the name with its escape.
  const scenario = page.getByRole('combobox', { name: 'Scenario', exact: true });
  await expect(scenario.locator('option')).toContainText(['(graph as drawn)', 'ship \\u202eit']);
  await scenario.selectOption({ label: 'ship \\u202eit' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // The scenario runs offline (its MCP skill is never called, no host is asked): the timeline names each step with its escapes.
  await expect(status(page).filter({ hasText: 'completed' })).toBeVisible();
  await expect(timeline(page).getByRole('listitem').filter({ hasText: 'Plan \\u202egnp.exe' })).toBeVisible();
  await expect(timeline(page).getByRole('listitem').filter({ hasText: 'Answer \\u200fhere' })).toBeVisible();
  expect(await rawFormatCharacters(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('the issue file opens from a paste and from a link', async ({ page }) => {
  const errors = collectErrors(page);
  const text = corpusFile('issue-crash.json').toString('utf8');
  await page.goto(`/#graph=${deflateRawSync(Buffer.from(text)).toString('base64url')}`);
  await expect(heading(page, 'crash')).toBeVisible();
  await expect(flowNode(page, 'toString')).toBeVisible();

  await page.goto('/?template=blank');
  await expect(heading(page, 'Untitled graph')).toBeVisible();
  await page.getByRole('button', { name: 'Paste JSON', exact: true }).click();
  await page.getByRole('dialog', { name: 'Paste JSON' }).getByLabel('Graph JSON').fill(text);
  await page.getByRole('dialog', { name: 'Paste JSON' }).getByRole('button', { name: 'Open' }).click();
  await expect(flowNode(page, 'toString')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a key reaching a prototype is refused in the state editor and in a paste on the canvas', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'decide')).toBeVisible();
  const state = page.getByRole('region', { name: 'Inspector' }).getByLabel('Initial state (JSON)');
  await state.fill('{"question": "x", "__proto__": {"polluted": true}}');
  await expect(page.getByText('__proto__: the key "__proto__" is not allowed anywhere in a file')).toBeVisible();

  const clip = { format: 'loopscope/nodes', nodes: [{ id: 'x', kind: 'act', position: { x: 0, y: 0 }, config: { args: { constructor: { prototype: { polluted: true } } } } }], edges: [] };
  const paste = (text: string) =>
    page.evaluate((content) => {
      const data = new DataTransfer();
      data.setData('text/plain', content);
      window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data }));
    }, text);
  await paste(JSON.stringify(clip));
  await expect(alert(page)).toContainText('Could not open the pasted nodes: nodes[0].config.args.constructor: the key "constructor" is not allowed anywhere in a file');
  await page.getByRole('button', { name: 'Dismiss import error' }).click();
  const poisonedGraph = corpusFile('proto-key-in-state.json').toString('utf8');
  await paste(poisonedGraph);
  await expect(alert(page)).toContainText('state.__proto__: the key "__proto__" is not allowed anywhere in a file');
  await expect(page.locator('.react-flow__node')).toHaveCount(8);
  expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted)).toBeUndefined();
});

test('a file nested 2,000 deep and a link inflating to 100 MB are refused, and the graph stays', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'decide')).toBeVisible();
  await importFile(page, 'deep-state.json', Buffer.from(generated('deep-state.json')));
  await expect(alert(page)).toContainText('nested deeper than 64 levels');
  await expect(heading(page, 'SecurityClaw triage')).toBeVisible();

  const bomb = deflateRawSync(Buffer.alloc(100_000_000, 32), { level: 9 }).toString('base64url');
  expect(bomb.length).toBeLessThan(200_000);
  // Another document first: a change of the fragment alone would not load the page again.
  await page.goto('about:blank');
  await page.goto(`/#graph=${bomb}`);
  await expect(alert(page)).toContainText('the link inflates to more than a graph may hold');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a large file is parsed off the page and opens on its entry', async ({ page }) => {
  await page.goto('/');
  await expect(flowNode(page, 'decide')).toBeVisible();
  const nodes = Array.from({ length: 900 }, (_, index) => ({ id: `n${index}`, kind: 'verify', label: `Check ${index}`, position: { x: (index % 30) * 260, y: Math.floor(index / 30) * 200 } }));
  const edges = nodes.slice(1).map((node, index) => ({ id: `e${index}`, source: `n${index}`, target: node.id, when: 'otherwise' }));
  const big = { format: 'loopscope/graph', version: 1, name: 'Nine hundred', entry: 'n0', nodes: [...nodes, { id: 'end', kind: 'stop', position: { x: 0, y: -400 } }], edges };
  // The parse worker starts once the first screen is idle, so it may be there before the import:
  // what counts is that the file's text reaches it.
  await expect.poll(() => page.workers().some((candidate) => candidate.url().includes('parse.worker'))).toBe(true);
  const worker = page.workers().find((candidate) => candidate.url().includes('parse.worker'))!;
  await worker.evaluate(() => {
    const scope = self as unknown as { received: number };
    scope.received = 0;
    self.addEventListener('message', () => (scope.received += 1));
  });
  await importFile(page, 'big.json', Buffer.from(JSON.stringify(big)));
  await expect.poll(() => worker.evaluate(() => (self as unknown as { received: number }).received)).toBeGreaterThan(0);
  // Drawing it is what takes time on a loaded machine; the parse did not hold the page meanwhile.
  await expect(heading(page, 'Nine hundred')).toBeVisible({ timeout: 30_000 });
  await expect(flowNode(page, 'n0')).toBeVisible();
  // Only the neighbourhood of the entry is drawn, not all nine hundred nodes.
  await expect.poll(() => page.locator('.react-flow__node').count()).toBeLessThan(60);
});

test('a service that never answers ends the attempt as timeout, after the host was allowed once', async ({ page }, testInfo) => {
  const silent = await service(servicePort(testInfo.parallelIndex, 0), () => undefined);
  try {
    await page.goto('/');
    await importFile(page, 'hang.json', graphWith({ type: 'http', url: `${silent.url}/hang`, timeoutMs: 300 }));
    await expect(heading(page, 'Calls a service')).toBeVisible();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const consent = page.getByRole('dialog', { name: 'Allow network access' });
    await expect(consent).toContainText(silent.url);
    await expect(consent).toContainText('remote');
    await consent.getByRole('button', { name: 'Allow and run' }).click();
    await expect(status(page).filter({ hasText: 'stopped' })).toBeVisible();
    await expect(timeline(page)).toContainText('timeout');
    expect(silent.requests.map((request) => request.url)).toEqual(['/hang']);

    // Asked once for this graph and origin.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => silent.requests.length).toBe(2);
    await expect(consent).toHaveCount(0);
  } finally {
    await silent.close();
  }
});

test('a key given for one origin is not sent to another graph pointing the same key name elsewhere', async ({ page }, testInfo) => {
  const completion = JSON.stringify({ choices: [{ message: { content: 'fine' } }], usage: { total_tokens: 3 } });
  const trusted = await service(servicePort(testInfo.parallelIndex, 1), (_method, _url, _headers, respond) => respond(200, completion));
  const other = await service(servicePort(testInfo.parallelIndex, 2), (_method, _url, _headers, respond) => respond(200, completion));
  const llm = (base: string) => graphWith({ type: 'llm', baseUrl: `${base}/v1`, model: 'tiny', apiKeyName: 'LLM_KEY' });
  try {
    await page.goto('/');
    await importFile(page, 'trusted.json', llm(trusted.url));
    await expect(heading(page, 'Calls a service')).toBeVisible();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const consent = page.getByRole('dialog', { name: 'Allow network access' });
    await consent.getByLabel(`API key LLM_KEY for ${trusted.url}`).fill('sk-typed-for-trusted');
    await consent.getByRole('button', { name: 'Allow and run' }).click();
    await expect(status(page).filter({ hasText: 'stopped' })).toBeVisible();
    await expect.poll(() => trusted.requests.filter((request) => request.method === 'POST').map((request) => request.headers.authorization)).toEqual(['Bearer sk-typed-for-trusted']);

    await importFile(page, 'other.json', llm(other.url));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(consent.getByLabel(`API key LLM_KEY for ${other.url}`)).toHaveValue('');
    await consent.getByRole('button', { name: 'Allow and run' }).click();
    await expect(timeline(page)).toContainText('permission_denied');
    expect(other.requests).toEqual([]);
  } finally {
    await trusted.close();
    await other.close();
  }
});
