/**
 * Debugging LangGraph agents Loopscope did not make (SPEC §8): the fixtures written with LangGraph's
 * own building blocks (src/runtime/fixtures/langgraph: a ReAct agent with a scripted chat model, a
 * dynamic interrupt(), a subgraph, a Send fan-out) served by the LangGraph dev server; the page
 * connects, draws each graph as the server describes it, runs it there and explains its steps.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { expect } from './test.ts';
import { collectErrors } from './helpers.ts';
import { attach, button, canvas, detail, edge, forkOnServer, node, panel, run, steps, until, serveFixturesForJourneys, test } from './langgraphPage.ts';

const served = serveFixturesForJourneys();

/** Words a Loopscope node shows of its kind, outcomes and retries: none belongs on a LangGraph node. */
const LOOPSCOPE_WORDS = /\b(reason|collect|act|verify|recover|approve|respond|stop|retry|outcome|ok|empty|denied|entry)\b/i;

test('the ReAct agent: drawn as the server describes it, its router choosing tools, the conversation with its tokens, a fork with an edited message, two threads compared', async ({ page }) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  await attach(page, 'react-agent');
  for (const id of ['__start__', 'callModel', 'tools', '__end__']) await expect(node(page, id)).toBeVisible();
  await expect(node(page, 'tools')).toContainText('tools: get_weather');
  for (const text of await canvas(page).locator('.react-flow__node').allInnerTexts()) expect(text).not.toMatch(LOOPSCOPE_WORDS);
  // Plain edges solid, the router's edge dashed to each of its targets.
  await expect(edge(page, '__start__→callModel')).toHaveClass(/\bplain\b/);
  await expect(edge(page, 'tools→callModel')).toHaveClass(/\bplain\b/);
  await expect(edge(page, 'callModel→tools')).toHaveClass(/\bconditional\b/);
  await expect(edge(page, 'callModel→__end__')).toHaveClass(/\bconditional\b/);
  // Not a Loopscope document: the inspector says what it is, and no problem of its empty stand-in is listed.
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText('LangGraph graph (read-only here)');
  // Named with its server in the library: no server's graph passes for one of the person's own.
  await expect(inspector.getByRole('definition')).toHaveText([`react-agent (from ${served.url})`, /\S/, served.url ?? '']);
  await expect(inspector).not.toContainText('Graph settings');
  const problems = page.getByRole('region', { name: 'Problems' });
  await expect(problems).toContainText('Problems are checked for Loopscope graphs only');
  await expect(problems).not.toContainText('no_entry');

  await run(page, { messages: [{ role: 'human', content: 'Weather in Paris?' }] });
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(3);
  await expect(detail(page).getByRole('status')).toContainText('Ended: __end__ reached.');

  // The step where the router chose tools says so, and marks that edge.
  await steps(page).first().click();
  await expect(detail(page).getByLabel('Where it went')).toHaveText('callModel → tools: conditional, chose tools of {tools, __end__}');
  await expect(edge(page, 'callModel→tools')).toHaveClass(/\bfired\b/);
  await expect(edge(page, 'callModel→__end__')).toHaveClass(/\bnot-taken\b/);
  await expect(node(page, 'callModel').locator('.lg-node')).toHaveClass(/\bcurrent\b/);
  await expect(detail(page)).toContainText('messages: 1 added by this step');

  // The last step: the conversation, the tool call beside its result, the final answer, the tokens.
  await steps(page).nth(2).click();
  await expect(edge(page, 'callModel→__end__')).toHaveClass(/\bfired\b/);
  const conversation = detail(page).getByRole('list', { name: 'Conversation in messages' });
  await expect(conversation.getByRole('listitem')).toHaveCount(3);
  const call = conversation.getByRole('group', { name: 'Tool call get_weather' });
  await expect(call).toContainText('calls get_weather({"city":"Paris"})');
  await expect(call).toContainText('→ It is 18°C and sunny in Paris.');
  await expect(conversation.getByRole('listitem').last()).toContainText('It is 18°C and sunny in Paris right now.');
  await expect(detail(page)).toContainText('Tokens 140');
  await expect(detail(page)).toContainText('(4 messages, 140 tokens)');

  // Fork from step 1 with the tool call edited: what callModel wrote (its ai message, not the whole
  // conversation) runs again as these writes, and the server goes on from there and calls the tool for Lyon.
  const threadA = (await panel(page).locator('.server-thread').textContent())?.match(/Thread (\w+)/)?.[1] as string;
  await steps(page).first().click();
  await button(page, 'Edit what step 1 wrote').click();
  const edits = panel(page).getByLabel('Writes of step 1 (JSON)');
  await expect(edits).toHaveValue(/"city": "Paris"/);
  expect(await edits.inputValue()).not.toContain('Weather in Paris?');
  await edits.fill((await edits.inputValue()).replace('"city": "Paris"', '"city": "Lyon"'));
  await forkOnServer(page, 1);
  await expect(steps(page)).toHaveCount(3);
  await steps(page).first().click();
  await expect(detail(page).getByLabel('Where it went')).toHaveText('state edited on the server as callModel (updateState)');
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('It is 18°C and sunny in Lyon.');

  // A second thread, then the two compared: their node paths aligned, and where they part.
  await run(page, { messages: [{ role: 'human', content: 'Weather in Paris?' }] });
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(3);
  await button(page, `Compare with thread ${threadA}`).click();
  const comparison = page.getByRole('region', { name: 'Run comparison' });
  await expect(comparison.getByRole('table', { name: 'Aligned paths' }).getByRole('row')).toHaveCount(4);
  await expect(comparison).toContainText('take the same path; at step 1 (callModel) their attempts or state differ');
  expect(errors).toEqual([]);
});

test('on a 1280×720 laptop the graph is fitted beside the server panel, never under it, and Fit View fits it there again', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await attach(page, 'react-agent');
  const ids = ['__start__', 'callModel', 'tools', '__end__'];
  /** The nodes the panel covers, or that are out of the canvas. */
  const hidden = async () => {
    const [cover, area] = [await panel(page).boundingBox(), await canvas(page).boundingBox()];
    const boxes = await Promise.all(ids.map((id) => node(page, id).boundingBox()));
    return ids.filter((_, index) => {
      const box = boxes[index];
      if (!box || !cover || !area) return true;
      const under = box.x < cover.x + cover.width && box.x + box.width > cover.x && box.y < cover.y + cover.height && box.y + box.height > cover.y;
      const outside = box.x < area.x || box.y < area.y || box.x + box.width > area.x + area.width || box.y + box.height > area.y + area.height;
      return under || outside;
    });
  };
  await expect.poll(hidden).toEqual([]);
  // Panned under the panel, then Fit View: the whole graph beside it again.
  const area = (await canvas(page).boundingBox())!;
  await page.mouse.move(area.x + 12, area.y + 48);
  await page.mouse.down();
  await page.mouse.move(area.x + 412, area.y + 48, { steps: 8 });
  await page.mouse.up();
  await expect.poll(hidden).not.toEqual([]);
  await page.getByRole('button', { name: 'Fit View' }).click();
  await expect.poll(hidden).toEqual([]);
  await expect(node(page, 'tools')).toBeVisible();
  await node(page, 'tools').click();
  expect(errors).toEqual([]);
});

test('over a LangGraph graph the editing controls are off and say why; zoom and the minimap drive its canvas; it is fitted again when the panel closes and the window grows', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await attach(page, 'react-agent');
  const ids = ['__start__', 'callModel', 'tools', '__end__'];
  for (const id of ids) await expect(node(page, id)).toBeVisible();

  // The stand-in takes no edits: the palette and the toolbar's editing buttons are off, and say why.
  const why = 'A LangGraph graph is edited in its code; open a Loopscope graph from Graphs to edit one here';
  const palette = page.getByRole('complementary', { name: 'Palette' });
  await expect(palette).toContainText(`${why}.`);
  const kinds = palette.getByRole('list').getByRole('button');
  await expect(kinds.first()).toBeVisible();
  for (const kind of await kinds.all()) {
    await expect(kind).toBeDisabled();
    await expect(kind).toHaveAccessibleDescription(`${why}.`);
  }
  const editor = page.getByRole('toolbar', { name: 'Editor' });
  for (const name of ['Auto layout', 'Undo', 'Redo']) {
    await expect(editor.getByRole('button', { name, exact: true })).toBeDisabled();
    await expect(editor.getByRole('button', { name, exact: true })).toHaveAttribute('title', why);
  }

  /** How far the middle of the drawn nodes is from the middle of the canvas's free part (the whole canvas, with no panel over it). */
  const offCentre = async () => {
    const area = (await canvas(page).locator('.react-flow').boundingBox())!;
    const boxes = (await Promise.all(ids.map((id) => node(page, id).boundingBox()))).filter((box) => box !== null);
    const [left, right] = [Math.min(...boxes.map((box) => box.x)), Math.max(...boxes.map((box) => box.x + box.width))];
    const [top, bottom] = [Math.min(...boxes.map((box) => box.y)), Math.max(...boxes.map((box) => box.y + box.height))];
    return Math.max(Math.abs((left + right) / 2 - (area.x + area.width / 2)), Math.abs((top + bottom) / 2 - (area.y + area.height / 2)));
  };
  // Fitted beside the panel; the panel closed, the graph is fitted into the whole canvas again.
  await expect.poll(offCentre).toBeGreaterThan(60);
  await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
  await expect(panel(page)).toBeHidden();
  await expect.poll(offCentre).toBeLessThan(24);
  // A bigger window: fitted again into the bigger canvas.
  const before = (await node(page, 'callModel').boundingBox())!;
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect.poll(async () => (await node(page, 'callModel').boundingBox())!.x).not.toBe(before.x);
  await expect.poll(offCentre).toBeLessThan(24);

  // Zoom and the minimap beside the canvas are the LangGraph graph's: its nodes, its view.
  const view = page.getByRole('region', { name: 'View' });
  await expect(view.locator('.react-flow__minimap-node')).toHaveCount(ids.length);
  const width = async () => (await node(page, 'callModel').boundingBox())!.width;
  const fittedWidth = await width();
  await view.getByRole('button', { name: 'Zoom In' }).click();
  await expect.poll(width).toBeGreaterThan(fittedWidth * 1.1);
  await view.getByRole('button', { name: 'Zoom Out' }).click();
  await view.getByRole('button', { name: 'Zoom Out' }).click();
  await expect.poll(width).toBeLessThan(fittedWidth * 0.95);
  // A zoom by the buttons or on the minimap is the person's: a resized window does not fit the graph again over it.
  const canvasWidth = async () => Math.round((await canvas(page).locator('.react-flow').boundingBox())!.width);
  /** Resizes the window, and waits for the canvas's new size and two frames more: a view still fitted is fitted again by then. */
  const resize = async (size: { width: number; height: number }) => {
    const before = await canvasWidth();
    await page.setViewportSize(size);
    await expect.poll(canvasWidth).not.toBe(before);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  };
  const zoomedOut = await width();
  await resize({ width: 1400, height: 800 });
  expect(await width()).toBe(zoomedOut);
  await view.getByRole('button', { name: 'Fit View' }).click();
  await expect.poll(offCentre).toBeLessThan(24);
  const refitted = await width();
  await view.getByRole('img', { name: 'Minimap' }).hover();
  await page.mouse.wheel(0, -200);
  await expect.poll(width).not.toBe(refitted);
  const wheeled = await width();
  await resize({ width: 1600, height: 900 });
  expect(await width()).toBe(wheeled);
  await view.getByRole('button', { name: 'Fit View' }).click();
  await expect.poll(offCentre).toBeLessThan(24);
  expect(errors).toEqual([]);
});

test('a dynamic interrupt answered from the page, beside a breakpoint (interruptBefore) on another node', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'interrupt-graph');
  // The panel covers the right of the canvas: closed while the breakpoint is set, then opened again as it was.
  await button(page, 'Close').click();
  const breakpoint = node(page, 'publish').getByRole('button', { name: 'Toggle breakpoint on publish' });
  await breakpoint.click();
  await expect(breakpoint).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
  await expect(panel(page)).toContainText(`Connected to ${served.url}`);
  await run(page, { topic: 'tides' });
  await until(page, 'waiting on an interrupt in review');
  await expect(panel(page).getByLabel('Interrupt value of review')).toContainText('Publish this draft?');
  await expect(detail(page).getByRole('status')).toContainText('review waits on interrupt()');
  await panel(page).getByLabel('Resume value (JSON)').fill('"yes"');
  await button(page, 'Resume on server').click();
  await until(page, 'paused before publish');
  await expect(steps(page)).toHaveCount(2);
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('Waited on interrupt() with {"question":"Publish this draft?","draft":"A short note about tides."}, then went on with the answer: "yes"');
  await button(page, 'Continue on server').click();
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(3);
  await steps(page).nth(2).click();
  await expect(detail(page).getByRole('table', { name: 'State changes' })).toContainText('published');
  expect(errors).toEqual([]);
});

test('a subgraph drawn as a group; its steps show their parent node and namespace', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'subgraph-graph');
  const group = canvas(page).getByRole('group', { name: 'Subgraph research' });
  await expect(group).toBeVisible();
  await expect(node(page, 'research:search')).toContainText('search');
  await expect(node(page, 'research:summarize')).toContainText('summarize');
  await run(page, { question: 'tides' });
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(4);
  await steps(page).first().click();
  await expect(detail(page)).toContainText('In the subgraph of research · checkpoint namespace research:');
  await expect(node(page, 'research:search').locator('.lg-node')).toHaveClass(/\bcurrent\b/);
  // A fork from inside the subgraph is off before any click, saying why and where to fork instead; nothing runs.
  const fork = button(page, 'Fork on server from step 1');
  await expect(fork).toBeDisabled();
  await expect(fork).toHaveAccessibleDescription(/^Step 1 ran inside the subgraph of research \(checkpoint namespace research:/);
  await expect(fork).toHaveAccessibleDescription(/whose checkpoints are its own: a fork edits a checkpoint of the graph itself\. Fork instead from step 3 \(research\), where the subgraph's result came back, or start a new run with the run input edited, to run it again\.$/);
  await expect(steps(page)).toHaveCount(4);
  await steps(page).nth(2).click();
  await expect(group).toHaveClass(/\bcurrent\b/);
  // The step where the subgraph's result came back can be forked from.
  await expect(button(page, 'Fork on server from step 3')).toBeEnabled();
  await expect(button(page, 'Fork on server from step 3')).not.toHaveAccessibleDescription(/./);
  await expect(detail(page).getByLabel('Where it went')).toHaveText('research → write: plain edge');
  expect(errors).toEqual([]);
});

test('a Send fan-out: the router sends three workers in one superstep', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'fan-out-graph');
  for (const id of ['plan', 'worker', 'combine', '__end__']) await expect(node(page, id)).toBeVisible();
  await expect(edge(page, 'plan→worker')).toHaveClass(/\bconditional\b/);
  await run(page, {});
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(5);
  await steps(page).first().click();
  await expect(detail(page).getByLabel('Where it went')).toHaveText('plan → worker: conditional, chose worker ×3 of {worker}');
  await steps(page).nth(2).click();
  await expect(detail(page)).toContainText('Task 2 of 3 in this superstep');
  expect(errors).toEqual([]);
});

test('map-reduce with Send: each worker its own input and result, the router\'s Sends on the step that took the branch, ×4 on the fan-out edge', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'map-reduce');
  await run(page, { topic: 'animals' });
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(6);
  await steps(page).first().click();
  const why = detail(page).getByRole('region', { name: 'Why it went there' });
  await expect(why).toContainText('The router after generateTopics returned [Send(generateJoke, {"subject":"lions"}), Send(generateJoke, {"subject":"elephants"}), Send(generateJoke, {"subject":"penguins"}), Send(generateJoke, {"subject":"owls"})]');
  // No source here (not `loopscope open`): it says so, and where the name would come from.
  await expect(why).toContainText('its name is not in the server\'s events');
  await expect(edge(page, 'generateTopics→generateJoke')).toHaveClass(/\bfired\b/);
  await expect(edge(page, 'generateTopics→generateJoke')).toContainText('×4');
  const animals = ['lion', 'elephant', 'penguin', 'owl'];
  for (const [index, animal] of animals.entries()) {
    await steps(page).nth(index + 1).click();
    await expect(detail(page).getByLabel(`Input of step ${index + 2}`)).toContainText(`"subject": "${animal}s"`);
    const returned = detail(page).getByLabel(`Returned by step ${index + 2}`);
    await expect(returned).toContainText(`Why did the ${animal} cross the road?`);
    for (const other of animals.filter((candidate) => candidate !== animal)) await expect(returned).not.toContainText(`the ${other} `);
  }
  // The superstep's writes, all four jokes through the concat reducer, on its last task only.
  await expect(detail(page)).toContainText('the whole superstep\'s (4 tasks, reducers applied)');
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('the change of state is shown on its last task (4 of 4)');
  expect(errors).toEqual([]);
});

test('a ReAct agent that retries and throws: each attempt under its step, the thrown error a failed step, the run stopped there in one word, the router\'s return value', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await attach(page, 'guarded-agent');
  await run(page, { messages: [{ role: 'human', content: 'Weather in Oslo?' }] });
  await until(page, 'stopped with an error at guard');
  await expect(steps(page)).toHaveCount(4);
  const attempts = page.getByRole('group', { name: 'Attempts of step 1' });
  await expect(attempts.locator('.tl-attempt')).toHaveCount(3);
  await expect(attempts).toContainText('attempt 1 failed; the server does not say why');
  await expect(attempts).toContainText('attempt 2 failed; the server does not say why');
  await expect(attempts).toContainText('tried again (retryPolicy)');
  // A LangGraph node's attempts have no tokens or plan of Loopscope's to tell.
  await expect(attempts).not.toContainText(/tok\b|re-plan/);
  await expect(steps(page).nth(3)).toContainText('error');
  const error = 'guard refused the tool result: "It is 18°C and sunny in Oslo." cites no source';
  await expect(detail(page).getByRole('status')).toHaveText(`Stopped with an error at node guard: ${error}.`);
  await expect(panel(page)).not.toContainText('paused before');
  // The header says it too (it said "Paused" while the panel said "paused before guard").
  await expect(page.locator('.run-state')).toHaveText('Stopped');
  await expect(node(page, 'guard').locator('.lg-node')).toHaveClass(/\bfailed\b/);
  await steps(page).nth(3).click();
  await expect(detail(page)).toContainText(`Failed: ${error}`);
  await steps(page).nth(1).click();
  await expect(detail(page).getByRole('region', { name: 'Why it went there' })).toContainText('The router after callModel returned "tools"');
  expect(errors).toEqual([]);
});

test('under loopscope open on the agent\'s folder, the step that took a branch names its routing function and shows the line that returned', async ({ page }) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  const child = spawn(process.execPath, ['bin/loopscope.mjs', 'open', served.dir ?? '', '--port', '0', '--no-browser'], {
    cwd: resolve(import.meta.dirname, '..'), env: { ...process.env, LOOPSCOPE_APP_DIR: resolve(import.meta.dirname, '..', process.env.E2E_OUT ?? 'dist') }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  try {
    const address = await new Promise<string>((done, fail) => {
      let printed = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        printed += chunk;
        const found = /http:\/\/\S+/.exec(printed);
        if (found && printed.includes('\n')) done(found[0]);
      });
      void exited.then(() => fail(new Error(`loopscope open exited: ${printed}`)));
    });
    await attach(page, 'react-agent', address);
    await run(page, { messages: [{ role: 'human', content: 'Weather in Paris?' }] });
    await until(page, 'ended');
    await steps(page).first().click();
    const why = detail(page).getByRole('region', { name: 'Why it went there' });
    await expect(why).toContainText(/routeModelOutput \(reactAgent\.ts\) returned "tools" after callModel, at line \d+/);
    const source = why.getByLabel('Source of routeModelOutput');
    await expect(source).toContainText('function routeModelOutput(state');
    await expect(source.locator('[aria-current="true"]')).toHaveText(/return .*\? 'tools' : '__end__'/);
    // A router the agent imports: its source is not in the folder, and the step says where it comes from.
    await panel(page).getByLabel('Server graph').selectOption('guarded-agent');
    await run(page, { messages: [{ role: 'human', content: 'Weather in Oslo?' }] });
    await until(page, 'stopped with an error at guard');
    await steps(page).nth(1).click();
    await expect(detail(page).getByRole('region', { name: 'Why it went there' })).toContainText('The router after callModel returned "tools"; toolsCondition is imported from @langchain/langgraph/prebuilt: its source is not in the agent\'s folder');
    expect(errors).toEqual([]);
  } finally {
    if (child.exitCode === null) child.kill('SIGINT');
    await exited;
  }
});

test('Connect to a server that never answers: Cancel stops it, and says so', async ({ page }) => {
  const stalled: Server = createServer(() => {});
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  const address = stalled.address();
  try {
    await page.goto('/?template=blank');
    await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
    await panel(page).getByLabel('Server URL').fill(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    await button(page, 'Connect').click();
    await expect(button(page, 'Connecting…')).toBeDisabled();
    await button(page, 'Cancel').click();
    await expect(panel(page).getByRole('alert')).toHaveText('Not connected: Connect was cancelled');
    await expect(button(page, 'Connect')).toBeEnabled();
  } finally {
    stalled.closeAllConnections();
    stalled.close();
  }
});
