/**
 * A LangGraph server's graph drawn with its nodes close together (issue 52, item 6): a forward edge
 * between two nodes 14 px apart is a curve between them, not a loop under both.
 */
import { createServer, type Server } from 'node:http';
import { expect, test } from './test.ts';
import { servicePort } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

let server: Server;
let url = '';

const GRAPH = {
  nodes: [{ id: '__start__' }, { id: 'plan' }, { id: 'act' }, { id: '__end__' }],
  edges: [{ source: '__start__', target: 'plan' }, { source: 'plan', target: 'act' }, { source: 'act', target: 'plan', conditional: true, data: 'again' }, { source: 'act', target: '__end__', conditional: true }],
};

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST' };
    if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
    request.resume();
    request.on('end', () => {
      const answer = (value: unknown) => response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(value));
      const path = request.url ?? '';
      if (path === '/assistants/search') return answer([{ assistant_id: 'close', graph_id: 'close' }]);
      if (path === '/threads/search') return answer([]);
      if (/^\/assistants\/[^/]+\/graph/.test(path)) return answer(GRAPH);
      response.writeHead(404, cors).end();
    });
  });
  const port = servicePort(test.info().parallelIndex, 2);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a forward edge between server nodes 14 px apart is a curve between them; the edge back is a loop', async ({ page }) => {
  // The places the person left the nodes at (kept per server and assistant): Act 14 px right of Plan (176 px wide).
  const places = [['__start__', { x: -150, y: 8 }], ['plan', { x: 0, y: 0 }], ['act', { x: 190, y: 0 }], ['__end__', { x: 420, y: 8 }]];
  await page.addInitScript(
    ([key, value]) => localStorage.setItem(key, value),
    [`loopscope.langgraph-layout ${url} close`, JSON.stringify({ signature: GRAPH.nodes.map((node) => node.id).join('\n'), places })],
  );
  await page.goto('/?template=blank');
  await page.getByRole('button', { name: 'Connect to a LangGraph server' }).click();
  const panel = page.getByRole('dialog', { name: 'LangGraph server' });
  await panel.getByLabel('Server URL').fill(url);
  await panel.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(panel).toContainText(`Connected to ${url}`);
  const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
  await expect(node('act')).toBeVisible();
  const forward = page.locator('.react-flow__edge[data-id="plan→act"] path.react-flow__edge-path').first();
  const [edge, plan, act] = await Promise.all([forward.boundingBox(), node('plan').boundingBox(), node('act').boundingBox()]);
  // In the gap between them, not out past Act and back under both.
  expect(edge!.x).toBeGreaterThanOrEqual(plan!.x + plan!.width - 2);
  expect(edge!.x + edge!.width).toBeLessThanOrEqual(act!.x + 2);
  expect(edge!.y + edge!.height).toBeLessThanOrEqual(Math.max(plan!.y + plan!.height, act!.y + act!.height));
  // The edge back from Act to Plan still loops round both: under them, or over them where __start__ is in the way under (ui/edgeRouting.ts).
  const back = await page.locator('.react-flow__edge[data-id="act→plan"] path.react-flow__edge-path').first().boundingBox();
  expect(back!.y + back!.height > Math.max(plan!.y + plan!.height, act!.y + act!.height) || back!.y < Math.min(plan!.y, act!.y)).toBe(true);
});
