/**
 * A hostile LangGraph server (issue 51): it answers every list with all it has from the offset on,
 * whatever the limit asked: 5,000 graphs and 20,000 threads. The page reads a page at a time, draws
 * only the graph selected, keeps its lists short and says where it stopped; it stays responsive.
 */
import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from './test.ts';
import { collectErrors, servicePort } from './helpers.ts';

const ASSISTANTS = 5_000;
const THREADS = 20_000;

let hostile: Server;
let url = '';
const asked = { graphs: 0 };

test.beforeAll(async () => {
  hostile = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST' };
    if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const offset = Number((JSON.parse(body || '{}') as { offset?: number }).offset ?? 0);
      const answer = (value: unknown) => response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(value));
      const path = request.url ?? '';
      if (path === '/assistants/search') return answer(Array.from({ length: ASSISTANTS - offset }, (_, index) => ({ assistant_id: `assistant-${offset + index}`, graph_id: `graph-${offset + index}` })));
      if (path === '/threads/search') return answer(Array.from({ length: THREADS - offset }, (_, index) => ({ thread_id: `thread-${String(offset + index).padStart(8, '0')}`, status: 'idle', updated_at: new Date(0).toISOString() })));
      if (/^\/assistants\/[^/]+\/graph/.test(path)) {
        asked.graphs += 1;
        return answer({ nodes: [{ id: '__start__' }, { id: 'work' }, { id: '__end__' }], edges: [{ source: '__start__', target: 'work' }, { source: 'work', target: '__end__' }] });
      }
      response.writeHead(404, cors).end();
    });
  });
  const port = servicePort(test.info().parallelIndex, 0);
  await new Promise<void>((resolve) => hostile.listen(port, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  hostile.closeAllConnections();
  await new Promise((resolve) => hostile.close(resolve));
});

const panel = (page: Page) => page.getByRole('dialog', { name: 'LangGraph server' });
const threads = (page: Page) => panel(page).getByRole('list', { name: 'Threads' }).getByRole('listitem');

test('a server answering 5,000 graphs and 20,000 threads: a page at a time, one graph described, each bound said, the page responsive', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=blank');
  await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
  await panel(page).getByLabel('Server URL').fill(url);
  await panel(page).getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(panel(page)).toContainText(`Connected to ${url}`);
  await expect(panel(page).getByRole('note')).toHaveText('The server lists more graphs: these are its first 200, the most Loopscope lists.');
  await expect(panel(page).getByLabel('Server graph').getByRole('option')).toHaveCount(200);
  await expect(threads(page)).toHaveCount(50);
  // The server's graph stands in, named with its server.
  await expect(page.getByRole('heading', { name: `graph-0 (from ${url})` })).toBeVisible();

  // Responsive: each press answers at once, a page more each time.
  const more = panel(page).getByRole('button', { name: 'Show more threads' });
  for (let shown = 100; shown <= 500; shown += 50) {
    await more.click();
    await expect(threads(page)).toHaveCount(shown);
  }
  await expect(more).toBeHidden();
  await expect(panel(page).getByRole('note').last()).toHaveText('The server has more threads: these are its newest 500, the most Loopscope lists.');
  expect(asked.graphs).toBe(1);
  // Another graph is described when chosen, and only then.
  await panel(page).getByLabel('Server graph').selectOption('graph-7');
  await expect(page.getByRole('heading', { name: `graph-7 (from ${url})` })).toBeVisible();
  expect(asked.graphs).toBe(2);
  await panel(page).getByRole('button', { name: 'Close' }).click();
  await expect(panel(page)).toBeHidden();
  expect(errors).toEqual([]);
});
