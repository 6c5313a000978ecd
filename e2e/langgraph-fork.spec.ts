/**
 * Forks of LangGraph agents Loopscope did not make (SPEC §8), served by the LangGraph dev server:
 * a fork edits what the step's node returned and applies it as that node in the checkpoint it ran
 * from, so reducers apply once (checked against the server's own history); a fork from a node that
 * routes with Command({goto}) goes where the person chose; every branch stays reachable and
 * comparable.
 */
import { expect } from './test.ts';
import { collectErrors } from './helpers.ts';
import { attach, button, canvas, detail, forkOnServer, panel, run, shownRun, steps, until, serveFixturesForJourneys, test } from './langgraphPage.ts';

const served = serveFixturesForJourneys();



/** The server's own word, over its HTTP API (as the SDK asks it): the newest thread of a graph, and a thread's checkpoints, newest first. */
type Checkpoint = { values: Record<string, unknown>; metadata: { source?: string } | null; checkpoint: { checkpoint_id: string }; parent_checkpoint: { checkpoint_id: string } | null };
const api = async <T,>(path: string, body: unknown): Promise<T> => {
  const answer = await fetch(`${served.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await answer.json()) as T;
};
const newestThread = async (graphId: string) => (await api<{ thread_id: string }[]>('/threads/search', { metadata: { graph_id: graphId }, limit: 1, sort_by: 'updated_at', sort_order: 'desc' }))[0].thread_id;
const historyOf = (threadId: string) => api<Checkpoint[]>(`/threads/${threadId}/history`, { limit: 100 });

test('plan-and-execute: a fork after editing only the plan leaves pastSteps as LangGraph applies it, once; the branch it came from stays, shown and compared', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  await attach(page, 'plan-execute');
  await run(page, { input: 'sail' });
  // The executor subgraph asks the person with interrupt().
  await until(page, 'waiting on an interrupt in agent');
  // While it waits, its node (the executor, a subgraph) is marked, and Continue is off: only an answer goes on.
  await expect(canvas(page).getByRole('group', { name: 'Subgraph agent' })).toHaveClass(/\bwaiting\b/);
  await expect(button(page, 'Continue on server')).toBeDisabled();
  await expect(button(page, 'Continue on server')).toHaveAccessibleDescription(/Answer it with Resume on server/);
  await panel(page).getByLabel('Resume value (JSON)').fill('"Brest"');
  await button(page, 'Resume on server').click();
  await until(page, 'ended');
  const ran = await steps(page).count();

  // The replanner's first step: the edit shows what it returned (the plan), not the whole state.
  const replan = steps(page).filter({ hasText: 'replan→agent' }).first();
  await replan.click();
  const at = Number(await replan.getAttribute('data-step'));
  await button(page, `Edit what step ${at} wrote`).click();
  const writes = panel(page).getByLabel(`Writes of step ${at} (JSON)`);
  await expect(writes).toHaveValue(/"Write the sailing plan"/);
  expect(await writes.inputValue()).not.toContain('pastSteps');
  expect(JSON.parse(await writes.inputValue())).toEqual({ plan: ['Look up the tide times', 'Write the sailing plan'] });
  await writes.fill((await writes.inputValue()).replace('Write the sailing plan', 'Write a haiku'));
  await forkOnServer(page, at);
  await expect(detail(page).getByRole('status')).toContainText('Ended');
  await steps(page).last().click();
  await expect(detail(page)).toContainText('Finished 3 steps');

  // The server's history: the fork is a child of the checkpoint the replanner ran from, holding
  // that checkpoint's state with only the plan changed (pastSteps not given to its reducer again).
  const history = await historyOf(await newestThread('plan-execute'));
  const fork = history.find((state) => state.metadata?.source === 'update') as Checkpoint;
  const parent = history.find((state) => state.checkpoint.checkpoint_id === fork.parent_checkpoint?.checkpoint_id) as Checkpoint;
  expect(fork.values).toEqual({ ...parent.values, plan: ['Look up the tide times', 'Write a haiku'] });
  const pastSteps = history[0].values.pastSteps as [string, string][];
  expect(pastSteps.map(([step]) => step)).toEqual(['Ask which harbour to sail from', 'Look up the tide times', 'Write a haiku']);
  expect(history[0].values.response).toBe('Finished 3 steps');

  // Both branches: the fork's step shows them; the first, as it ran, is shown again whole, then compared with the fork.
  const edited = steps(page).filter({ hasText: 'replan→agent' }).first();
  await edited.click();
  await expect(detail(page).getByLabel('Where it went')).toHaveText('state edited on the server as replan (updateState)');
  const branches = detail(page).getByRole('region', { name: `Branches at step ${at}` });
  await expect(branches).toContainText('2 branches part here');
  await expect(branches.getByRole('listitem')).toHaveText([/^as it ran Show branch 1/, /^edited \(a fork\) · shown/]);
  await branches.getByRole('button', { name: 'Show branch 1' }).click();
  await expect(shownRun(page)).toHaveText(/, branch /);
  await expect(steps(page)).toHaveCount(ran);
  // Its executor's last run: the step it ran, as first planned.
  await steps(page).nth(ran - 2).click();
  await expect(detail(page).getByRole('table', { name: 'State changes' })).toContainText('done: Write the sailing plan');
  await steps(page).nth(at - 1).click();
  const back = detail(page).getByRole('region', { name: `Branches at step ${at}` });
  await expect(back.getByRole('listitem')).toHaveText([/^as it ran · shown/, /^edited \(a fork\) Show branch 2/]);
  await back.getByRole('button', { name: 'Compare with branch 2' }).click();
  const comparison = page.getByRole('region', { name: 'Run comparison' });
  await expect(comparison).toBeVisible();
  await expect(comparison).toContainText(`take the same path; at step ${at} (replan) their attempts or state differ`);
  expect(errors).toEqual([]);
});

test('supervisor: a fork from the node that routes with Command({goto}) goes where the person chose; the branch it came from stays reachable', async ({ page }) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  await attach(page, 'supervisor');
  await run(page, { messages: [{ role: 'human', content: 'plan a sail' }] });
  await until(page, 'ended');
  await expect(steps(page)).toHaveCount(5);
  await steps(page).first().click();
  await expect(detail(page).getByLabel('Where it went')).toHaveText('supervisor → researcher: conditional, chose researcher of {researcher, writer, __end__}');
  // Its declared ends to choose from, the one it chose first.
  const goto = panel(page).getByLabel('Then go to');
  await expect(goto).toHaveValue('researcher');
  await expect(goto.getByRole('option')).toHaveText(['as its routing function chooses from the edited writes', 'researcher', 'writer', '__end__']);
  await goto.selectOption('writer');
  await forkOnServer(page, 1);
  await steps(page).first().click();
  await expect(detail(page).getByLabel('Where it went')).toHaveText('state edited on the server as supervisor (updateState), then goto writer (Command)');
  await steps(page).nth(1).click();
  await expect(detail(page).getByRole('heading', { name: 'Step 2 · writer' })).toBeVisible();

  await steps(page).first().click();
  const branches = detail(page).getByRole('region', { name: 'Branches at step 1' });
  await branches.getByRole('button', { name: 'Show branch 1' }).click();
  await expect(shownRun(page)).toHaveText(/, branch /);
  await expect(steps(page)).toHaveCount(5);
  await steps(page).nth(1).click();
  await expect(detail(page).getByRole('heading', { name: 'Step 2 · researcher' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('assistants of one graph told apart, the chosen one\'s config shown and edited for a run; the header acts on the server or says why not; every breakpoint listed; at 1280×720 the panel leaves the step detail free', async ({ page }) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  const made = await api<{ assistant_id: string }>('/assistants', { graph_id: 'supervisor', name: 'supervisor at Lorient', config: { configurable: { harbour: 'Lorient' } } });
  await page.setViewportSize({ width: 1280, height: 720 });
  await attach(page, 'supervisor');
  const assistant = panel(page).getByRole('combobox', { name: /^Assistant/ });
  const options = assistant.getByRole('option');
  await expect(options).toHaveCount(2);
  await expect(options).toContainText([/^supervisor \(default\) · version 1 · id /, `supervisor at Lorient · version 1 · id ${made.assistant_id}`]);
  await assistant.selectOption(made.assistant_id);
  const config = panel(page).getByLabel('Assistant config for runs (JSON)');
  await expect(config).toHaveValue(/"harbour": "Lorient"/);

  // The header's Run cannot start the page's stand-in of a server graph, and says so.
  const toolbar = page.getByRole('toolbar', { name: 'Run controls' });
  await expect(toolbar.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await expect(toolbar.getByRole('button', { name: 'Run', exact: true })).toHaveAttribute('title', /runs on its server/);

  await run(page, { messages: [{ role: 'human', content: 'plan a sail' }] });
  await until(page, 'ended');
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('Tides at Lorient');
  // The step detail is beside the panel, not under it.
  const [cover, room] = [await panel(page).boundingBox(), await detail(page).boundingBox()];
  expect(cover && room && (cover.x + cover.width <= room.x || cover.y + cover.height <= room.y)).toBe(true);

  // A config value edited for the next run changes it.
  await config.fill(JSON.stringify({ configurable: { harbour: 'Quimper' } }));
  await run(page, { messages: [{ role: 'human', content: 'plan a sail' }] });
  await until(page, 'ended');
  await steps(page).nth(1).click();
  await expect(detail(page)).toContainText('Tides at Quimper');

  // A breakpoint set on the canvas is listed.
  await button(page, 'Close').click();
  await canvas(page).locator('.react-flow__node[data-id="writer"]').getByRole('button', { name: 'Toggle breakpoint on writer' }).click();
  await expect(detail(page).getByRole('region', { name: 'Breakpoints' })).toContainText('before node writer runs on the server');
  expect(errors).toEqual([]);
});
