/**
 * The page attached to the LangGraph fixtures served by the dev server (langgraphFixtures.ts): the
 * server for a spec file's journeys, and the panel, canvas, timeline and step detail by role and name.
 */
import { expect, test as journey, type Page } from './test.ts';
import { serveLangGraphFixtures } from './langgraphFixtures.ts';

type Served = Awaited<ReturnType<typeof serveLangGraphFixtures>>;

/**
 * The journeys' `test` with one dev server per Playwright worker, started when a journey of that
 * worker first needs it: it takes half a minute on a loaded machine, and four spec files each
 * started their own. A worker runs one journey at a time, and each journey makes threads of its
 * own, so none sees another's runs; a worker started again (after a failure) starts its own.
 */
export const test = journey.extend<object, { langGraphServer: Served }>({
  langGraphServer: [
    // oxlint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function takes from this pattern: none
    async ({}, use) => {
      const served = await serveLangGraphFixtures();
      await use(served);
      await served.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

let server: Served | undefined;

/** Serves the fixtures for the spec file's journeys, one after another; its `url` and folder once started. */
export const serveFixturesForJourneys = () => {
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(({ langGraphServer }) => {
    server = langGraphServer;
  });
  return { get url() { return server?.url ?? ''; }, get dir() { return server?.dir ?? ''; } };
};

export const panel = (page: Page) => page.getByRole('dialog', { name: 'LangGraph server' });
export const button = (page: Page, name: string) => panel(page).getByRole('button', { name, exact: true });
export const canvas = (page: Page) => page.getByRole('region', { name: 'LangGraph graph' });
export const node = (page: Page, id: string) => canvas(page).locator(`.react-flow__node[data-id="${id}"]`);
export const edge = (page: Page, id: string) => canvas(page).locator(`.react-flow__edge[data-id="${id}"]`);
export const steps = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
export const detail = (page: Page) => page.getByRole('region', { name: 'Step detail' });

/** From a blank canvas (of the page at `at`): Connect to a LangGraph server → the URL → Connect → the graph. */
export const attach = async (page: Page, graphId: string, at = '/?template=blank') => {
  await page.goto(at);
  await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
  await panel(page).getByLabel('Server URL').fill(server?.url ?? '');
  await button(page, 'Connect').click();
  await expect(panel(page)).toContainText(`Connected to ${server?.url}`);
  await panel(page).getByLabel('Server graph').selectOption(graphId);
  await expect(canvas(page)).toContainText(graphId);
};

/** A run on the server takes its time on a loaded machine: its end is waited for longer than a page's change. */
export const until = (page: Page, text: string) => expect(panel(page)).toContainText(text, { timeout: 60_000 });

export const run = async (page: Page, input: unknown) => {
  await panel(page).getByLabel('Run input (JSON)').fill(JSON.stringify(input));
  await button(page, 'New run on server').click();
};

/** The run the timeline shows, as Shown run names it. */
export const shownRun = (page: Page) => page.getByLabel('Shown run').locator('option:checked');

/**
 * Forks on the server from step `at`: the fork is a new branch, a run of its own (the one it came
 * from stays), so the branch's end is waited for once it is shown (the thread it forked had ended too).
 */
export const forkOnServer = async (page: Page, at: number) => {
  const runs = page.getByLabel('Shown run').getByRole('option');
  const before = await runs.count();
  await button(page, `Fork on server from step ${at}`).click();
  await expect(runs).toHaveCount(before + 1);
  await until(page, 'ended');
};
