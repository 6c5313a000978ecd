import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectErrors } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/**
 * MCP tools in the static page: the page reaches URL servers only, so the journey starts the real
 * @modelcontextprotocol/server-everything from node_modules over Streamable HTTP (its CORS lets a
 * page call it), on a port of this run's own range, and stops it by its PID.
 */
const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** 4430-4439 are this journey's; one port per worker. */
const mcpPort = (parallelIndex: number) => 4430 + (parallelIndex % 10);

const startEverything = async (port: number): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      said += text;
      if (said.includes('listening on port')) resolve();
    });
    void exited.then(() => reject(new Error(`server-everything exited: ${said}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
};

/** Collect asks the server twice (a text answer, then structured content); Act calls a tool that is not read-only. */
const graph = {
  format: 'loopscope/graph', version: 1, name: 'Weather over MCP', entry: 'gather',
  permissions: { mode: 'read-only' },
  state: { city: 'Chicago' },
  skills: {
    echo: { type: 'mcp', server: 'everything', tool: 'echo' },
    weather: { type: 'mcp', server: 'everything', tool: 'get-structured-content' },
    toggle_logging: { type: 'mcp', server: 'everything', tool: 'toggle-simulated-logging', access: 'write' },
    scout: {
      type: 'mock', access: 'read', script: [
        { outcome: 'ok', reply: { tool: 'echo', args: { message: 'hello from Loopscope' } } },
        { outcome: 'ok', reply: { tool: 'weather', args: { location: 'Chicago' } } },
        { outcome: 'ok', reply: { done: true, output: {} } },
      ],
    },
  },
  nodes: [
    { id: 'gather', kind: 'collect', label: 'Collect', position: { x: 0, y: 0 }, config: { loop: { decider: 'scout', tools: ['echo', 'weather'], maxIter: 3 } } },
    { id: 'log', kind: 'act', label: 'Act', position: { x: 300, y: 0 }, config: { skill: 'toggle_logging' } },
    { id: 'ask', kind: 'approve', label: 'Ask', position: { x: 300, y: 200 } },
    { id: 'answer', kind: 'respond', label: 'Answer', position: { x: 600, y: 0 } },
    { id: 'halt', kind: 'stop', label: 'Halt', position: { x: 600, y: 200 } },
  ],
  edges: [
    { id: 'e1', source: 'gather', target: 'log' },
    { id: 'e2', source: 'log', target: 'answer', when: { outcome: 'ok' } },
    { id: 'e3', source: 'log', target: 'ask', when: { outcome: 'denied' } },
    { id: 'e4', source: 'log', target: 'halt', when: 'otherwise' },
    { id: 'e5', source: 'ask', target: 'log', when: { outcome: 'approved' } },
    { id: 'e6', source: 'ask', target: 'halt', when: 'otherwise' },
  ],
  scenarios: [],
};

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });
const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
const call = (page: Page, skill: string, n = 1) => detail(page).locator(`dl[aria-label="Call of ${skill}, attempt ${n}"]`);

test('a run against a real MCP server, stepped through: the page asks for the server\'s address and the host, each call shows its args and answer, a write tool is refused before the call', async ({ page }, testInfo) => {
  // A real server answers each call: seconds on a loaded machine.
  test.slow();
  const errors = collectErrors(page);
  const server = await startEverything(mcpPort(testInfo.parallelIndex));
  try {
    await page.goto('/?template=blank');
    await page.getByLabel('Import JSON').setInputFiles({ name: 'weather.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(graph)) });
    await expect(page.getByRole('heading', { name: 'Weather over MCP' })).toBeVisible();

    // The graph names a server; only the person says where it is, once, in this browser.
    await button(page, 'Step').click();
    const consent = page.getByRole('dialog', { name: 'Allow network access' });
    await expect(consent).toContainText('MCP server “everything” (echo, weather, toggle_logging)');
    const address = consent.getByLabel('MCP server “everything” (echo, weather, toggle_logging)');
    await expect(consent.getByRole('button', { name: 'Allow and run' })).toBeDisabled();
    await address.fill(server.url);
    await expect(consent).toContainText(`Requests go to http://127.0.0.1:${mcpPort(testInfo.parallelIndex)}`);
    await consent.getByRole('button', { name: 'Allow and run' }).click();

    // Step 1, Collect: two iterations, each call with its args and the server's answer.
    await expect(steps(page)).toHaveCount(1);
    const echoCall = call(page, 'echo');
    await expect(echoCall).toContainText('{"message":"hello from Loopscope"}');
    await expect(echoCall).toContainText('[{"text":"Echo: hello from Loopscope"}]');
    const weatherCall = call(page, 'weather');
    await expect(weatherCall).toContainText('{"location":"Chicago"}');
    await expect(weatherCall).toContainText('"conditions"');
    await expect(detail(page).getByRole('table', { name: 'Attempts of iteration 2' })).toContainText('weather ok');

    // Step 2, Act: the tool is not read-only, so read-only mode refuses it before any request.
    await button(page, 'Step').click();
    await expect(steps(page)).toHaveCount(2);
    const refused = call(page, 'toggle_logging');
    await expect(refused).toContainText('refused before the call, the server was not asked');
    await expect(detail(page).getByRole('table', { name: 'Attempts' })).toContainText('toggle_logging permission_denied');
    await expect(detail(page).getByRole('table', { name: 'Attempts' })).toContainText('write');

    // The run waits before Approve: a person grants it once, the run goes on, and Act calls it.
    const approval = page.getByRole('dialog', { name: 'Approval' });
    await expect(approval).toContainText('toggle_logging');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('status')).toContainText('completed');
    await expect(steps(page)).toHaveCount(5);
    await steps(page).nth(3).click();
    await expect(detail(page).getByRole('heading', { name: /^Step 4 · Act/ })).toBeVisible();
    await expect(call(page, 'toggle_logging')).toContainText('{}');
    await expect(call(page, 'toggle_logging')).toContainText('Started simulated, random-leveled logging');

    // A second run asks nothing: the address is kept in this browser, the host allowed for this graph.
    await button(page, 'Run').click();
    await expect(page.getByLabel('Shown run')).toHaveValue('2');
    await expect(page.getByRole('dialog', { name: 'Approval' })).toBeVisible();
    await expect(consent).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('loopscope.mcpServerUrls'))).toBe(JSON.stringify({ everything: server.url }));
    // The graph itself never holds the address.
    await approval.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByRole('status')).toContainText('stopped');
    const download = page.waitForEvent('download');
    await button(page, 'Export JSON').click();
    const exported = readFileSync((await (await download).path()) as string, 'utf8');
    expect(exported).toContain('"server": "everything"');
    expect(exported).not.toContain(server.url);
    expect(errors).toEqual([]);
  } finally {
    await server.stop();
  }
});

test('the inspector lists an MCP server\'s tools with their marks to pick from, and builds a node\'s args form from the input schema', async ({ page }, testInfo) => {
  test.slow();
  const server = await startEverything(mcpPort(testInfo.parallelIndex));
  try {
    await page.goto('/?template=blank');
    await page.getByLabel('Import JSON').setInputFiles({ name: 'weather.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(graph)) });
    await expect(page.getByRole('heading', { name: 'Weather over MCP' })).toBeVisible();
    const inspector = page.getByRole('region', { name: 'Inspector' });
    const item = inspector.getByRole('region', { name: 'Skills' }).getByRole('listitem').filter({ hasText: 'toggle_logging' }).first();
    await item.getByText('toggle_logging', { exact: true }).click();

    // The address is the person's, typed here for this browser; the tools come from the server.
    await item.getByLabel('Address of “everything” in this browser').fill(server.url);
    await item.getByRole('button', { name: 'List the tools of everything' }).click();
    const tools = item.getByRole('list', { name: 'Tools of everything' });
    await expect(tools.getByRole('listitem', { name: 'Tool echo' })).toContainText('read-only');
    await expect(tools.getByRole('listitem', { name: 'Tool echo' })).toContainText('Echoes back the input');
    await expect(tools.getByRole('listitem', { name: 'Tool toggle-simulated-logging' })).toContainText('writes');
    await expect(tools.getByRole('listitem', { name: 'Tool toggle-simulated-logging' })).toContainText('the skill\'s tool');
    await expect(item).toContainText('Each call needs write access (its annotations)');
    // Picking another tool changes the skill's tool.
    await tools.getByRole('button', { name: 'Use get-structured-content' }).click();
    await expect(item.getByLabel('Tool', { exact: true })).toHaveValue('get-structured-content');
    // Its annotations say read-only: the skill's access follows.
    await expect(item.getByLabel('Access')).toHaveValue('read');
    await expect(item).toContainText('Each call needs read access (its annotations)');

    // The Act node whose own skill it is: its args as a form of the tool's input schema.
    await page.locator('.react-flow__node[data-id="log"]').click();
    const args = inspector.getByRole('group', { name: 'Args of get-structured-content' });
    await expect(args.getByRole('list', { name: 'Args problems' })).toContainText('args.location: required');
    await args.getByLabel('location').selectOption('Los Angeles');
    await expect(args.getByRole('list', { name: 'Args problems' })).toBeHidden();
    await button(page, 'Run').click();
    await expect(page.getByRole('dialog', { name: 'Allow network access' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Allow network access' }).getByRole('button', { name: 'Allow and run' }).click();
    await expect(page.getByRole('status')).toContainText('completed');
    await steps(page).nth(1).click();
    await expect(call(page, 'toggle_logging')).toContainText('{"location":"Los Angeles"}');
  } finally {
    await server.stop();
  }
});
