import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect, type Page } from '@playwright/test';

/** Console errors and uncaught exceptions of a page, collected from the first navigation on. */
export const collectErrors = (page: Page) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
};

/** The graphs in the page's library (IndexedDB), as saved: names and texts. */
export const libraryEntries = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ name: string; text: string }[]>((resolve, reject) => {
        const open = indexedDB.open('loopscope', 2);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('library', 'readonly').objectStore('library').getAll();
          all.onsuccess = () => {
            open.result.close();
            resolve(all.result as { name: string; text: string }[]);
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );

/** The run sessions the page has stored, one per graph of the library (IndexedDB `loopscope-runs`). */
export const storedSessions = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ runs: { label: string; imported?: boolean }[]; liveRunId: number | null; selectedStep: number | null }[]>((resolve, reject) => {
        const open = indexedDB.open('loopscope-runs', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          if (!open.result.objectStoreNames.contains('sessions')) return resolve([]);
          const all = open.result.transaction('sessions', 'readonly').objectStore('sessions').getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => reject(all.error);
        };
      }),
  );

export const flowNode = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
/** Renames a node in the inspector, as a person would. */
export const relabel = async (page: Page, id: string, label: string) => {
  await flowNode(page, id).locator('.agent-node-label').click();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  // The inspector follows the selection in a deferred render: until then it shows the node selected before.
  await expect(inspector.getByLabel('Id', { exact: true })).toHaveValue(id);
  await inspector.getByLabel('Label').fill(label);
  await expect(flowNode(page, id)).toContainText(label);
};

export const pane = (page: Page) => page.locator('.react-flow__pane');

/** Drags a palette item onto the canvas at a point of the pane. */
export const dropKind = async (page: Page, title: string, x: number, y: number) => {
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: title, exact: true }).dragTo(pane(page), { targetPosition: { x, y } });
};

/** Drags from a node's source handle (an outcome, or `out` for a general edge) onto another node's target handle. */
export const connectHandles = async (page: Page, source: string, handle: string, target: string) => {
  const from = (await flowNode(page, source).locator(`.react-flow__handle.source[data-handleid="${handle}"]`).boundingBox())!;
  const to = (await flowNode(page, target).locator('.react-flow__handle.target').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2 - 20, to.y + to.height / 2, { steps: 8 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
};

const viewTransform = (page: Page) => page.locator('.react-flow__viewport').evaluate((element) => (element as HTMLElement).style.transform);

/**
 * Opens a graph document through the Import JSON file input and waits until it is on screen and
 * the view has fitted it: the view moved, and holds still from one frame to the next (a handle
 * measured while the view still glides would be missed).
 */
export const openGraph = async (page: Page, document: { name: string; [key: string]: unknown }) => {
  const before = await viewTransform(page);
  await page.getByLabel('Import JSON').setInputFiles({ name: 'graph.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(document)) });
  await page.getByRole('heading', { name: document.name, exact: true }).waitFor();
  await page.waitForFunction(
    (previous) =>
      new Promise<boolean>((resolve) => {
        const viewport = window.document.querySelector<HTMLElement>('.react-flow__viewport');
        const now = viewport?.style.transform;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(now !== previous && viewport?.style.transform === now)));
      }),
    before,
  );
};

/** SecurityClaw's six kinds, placed as a palette would drop them, with no edges: where building journeys start. */
export const SIX_NODES = [
  { id: 'reason', kind: 'reason', label: 'Reason', position: { x: 0, y: 0 } },
  { id: 'act', kind: 'act', label: 'Act', position: { x: 250, y: 0 } },
  { id: 'verify', kind: 'verify', label: 'Verify', position: { x: 500, y: 0 } },
  { id: 'respond', kind: 'respond', label: 'Respond', position: { x: 750, y: 0 } },
  { id: 'recover', kind: 'recover', label: 'Recover', position: { x: 500, y: 250 } },
  { id: 'stop', kind: 'stop', label: 'Stop', position: { x: 750, y: 250 } },
];

/**
 * The port of a journey's local service: above this run's own E2E_PORT, three per worker, so that
 * runs side by side (each on its own E2E_PORT) and the workers of one run never share one.
 */
export const servicePort = (parallelIndex: number, n: number) => Number(process.env.E2E_PORT ?? 4173) + 1 + parallelIndex * 3 + n;

/** A local HTTP service for one journey that lets the page call it, and keeps every request it got. */
export const service = async (port: number, answer: (method: string, url: string, headers: IncomingHttpHeaders, respond: (status: number, body: string) => void) => void) => {
  const requests: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'GET, POST' };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end();
      return;
    }
    answer(request.method ?? '', request.url ?? '', request.headers, (code, body) => response.writeHead(code, { ...cors, 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
};

/** Answers yes to the question a run asks before it contacts other hosts. */
export const allowHosts = (page: Page) => page.getByRole('dialog', { name: 'Allow network access' }).getByRole('button', { name: 'Allow and run' }).click();
