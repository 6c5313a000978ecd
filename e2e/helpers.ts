import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { resolve } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** Console errors and uncaught exceptions of a page, collected from the first navigation on. */
export const collectErrors = (page: Page) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    // A LangGraph dev server answers 500 to `/schemas` of a graph whose input schema it cannot read
    // (its TypeScript parser, here without TypeScript 5's lib files): the panel says so, and the
    // browser logs the failed request besides.
    const noSchema = message.text().startsWith('Failed to load resource') && message.location().url.endsWith('/schemas');
    if (message.type() === 'error' && !noSchema) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
};

/** The graphs in the page's library (IndexedDB), as saved: names and texts. */
export const libraryEntries = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ name: string; text: string }[]>((resolve, reject) => {
        const open = indexedDB.open('loopscope');
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
/** Renames a node in the inspector, as a person would; `timeout` for each step, where a graph at the file limit makes each take seconds. */
export const relabel = async (page: Page, id: string, label: string, timeout?: number) => {
  await flowNode(page, id).locator('.agent-node-label').click({ timeout });
  const inspector = page.getByRole('region', { name: 'Inspector' });
  // The inspector follows the selection in a deferred render: until then it shows the node selected before.
  await expect(inspector.getByLabel('Id', { exact: true })).toHaveValue(id, { timeout });
  await inspector.getByLabel('Label').fill(label, { timeout });
  await expect(flowNode(page, id)).toContainText(label, { timeout });
};

export const pane = (page: Page) => page.locator('.react-flow__pane');

/**
 * A grid of act nodes, `columns` to a row, in a chain, each also joined to the node below it: past
 * 200 nodes, the canvas draws only what is in view.
 */
export const gridGraph = (count: number, columns = 20) => ({
  format: 'loopscope/graph',
  version: 1,
  name: `Grid of ${count}`,
  entry: 'n0',
  nodes: Array.from({ length: count }, (_, index) => ({ id: `n${index}`, kind: 'act', label: `Node ${index}`, position: { x: (index % columns) * 260, y: Math.floor(index / columns) * 240 } })),
  edges: Array.from({ length: count - 1 }, (_, index) => [
    { id: `e${index}`, source: `n${index}`, target: `n${index + 1}`, when: { outcome: 'ok' } },
    ...(index + columns < count ? [{ id: `d${index}`, source: `n${index}`, target: `n${index + columns}`, when: 'otherwise' }] : []),
  ]).flat(),
});

/**
 * Clicks an edge as a person would: on its label where it has one, else on its line, halfway
 * along (an edge its outcome row names has no label, unless there is more to say).
 */
export const clickEdge = async (page: Page, source: string, target: string) => {
  const edge = page.getByRole('group', { name: `Edge from ${source} to ${target}` });
  const label = page.locator(`.edge-label[data-edge-id="${await edge.getAttribute('data-id')}"]`);
  if (await label.count()) return label.click();
  const point = await edge.locator('.react-flow__edge-path').first().evaluate((path) => {
    const line = path as SVGPathElement;
    const at = line.getPointAtLength(line.getTotalLength() / 2);
    const matrix = line.getScreenCTM()!;
    return { x: at.x * matrix.a + at.y * matrix.c + matrix.e, y: at.x * matrix.b + at.y * matrix.d + matrix.f };
  });
  await page.mouse.click(point.x, point.y);
};

/** Reconnects an edge as a person would: its target end (`scope` holds the edge's updater) dragged onto another node's input. */
export const dragEdgeTarget = async (page: Page, scope: Locator, to: string) => {
  const anchor = (await scope.locator('.react-flow__edgeupdater-target').boundingBox())!;
  const handle = (await flowNode(page, to).locator('.react-flow__handle.target').boundingBox())!;
  await page.mouse.move(anchor.x + anchor.width / 2, anchor.y + anchor.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x, handle.y + 10, { steps: 8 });
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.up();
};

/** Drags a palette item onto the canvas and lets it go at a point of the pane: the node lands centred there. */
export const dropKind = async (page: Page, title: string, x: number, y: number) => {
  await page.getByRole('complementary', { name: 'Palette' }).getByRole('button', { name: title, exact: true }).dragTo(pane(page), { targetPosition: { x, y } });
};

/** Drops each kind at its point of the pane, in order (see dropKind). */
export const dropAll = async (page: Page, drops: readonly (readonly [string, number, number])[]) => {
  for (const [title, x, y] of drops) await dropKind(page, title, x, y);
};

/**
 * Seed 001's six kinds as a person drops them to build its loop: plan, act, evaluate, answer,
 * recover, stop. Respond goes against the canvas's top edge (a drop keeps it 16 px inside): a
 * connection let go on it there connects, the view holding still under the pointer.
 */
export const SEED_001_DROPS = [['Reason', 152, 168], ['Act', 362, 188], ['Verify', 572, 168], ['Respond', 782, 2], ['Recover', 782, 268], ['Stop', 572, 371]] as const;

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

/**
 * Drags from a node's source handle (its outcome row, or `out`, the condition row) and lets go on
 * another node's body, as in the editors where a connection dropped anywhere on a node connects to it.
 */
export const connectToBody = async (page: Page, source: string, handle: string, target: string, where: 'title' | 'middle' = 'title') => {
  const from = (await flowNode(page, source).locator(`.react-flow__handle.source[data-handleid="${handle}"]`).boundingBox())!;
  const to = (await flowNode(page, target).locator(where === 'title' ? '.agent-node-label' : '.agent-node').boundingBox())!;
  const [x, y] = where === 'title' ? [to.x + to.width / 2, to.y + to.height / 2] : [to.x + to.width * 0.6, to.y + to.height * 0.55];
  await page.mouse.move(from.x + from.width - 8, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(x - 30, y, { steps: 8 });
  await page.mouse.move(x, y, { steps: 4 });
  await page.mouse.up();
};

/**
 * Every text on the canvas's nodes and edge labels smaller than 10 px on screen (its font size
 * times the zoom): bodies, badges, chips and labels, not only titles.
 */
export const smallTexts = (page: Page) =>
  page.evaluate(() => {
    const zoom = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a;
    return [...document.querySelectorAll<HTMLElement>('.react-flow__node *, .edge-label, .edge-label *')]
      .filter((element) => element.checkVisibility() && [...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.trim()))
      .map((element) => ({ text: element.textContent!.trim().slice(0, 24), size: parseFloat(getComputedStyle(element).fontSize) * zoom }))
      .filter(({ size }) => size < 10)
      .map(({ text, size }) => `${text} ${size.toFixed(1)} px`);
  });

/** Every node's box on screen, by id. */
export const nodeBoxes = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map((node) => ({ id: node.dataset.id ?? '', box: node.getBoundingClientRect().toJSON() as DOMRect })));

/** Pairs of nodes that overlap on screen. */
export const overlappingNodes = async (page: Page) => {
  const boxes = await nodeBoxes(page);
  const found: string[] = [];
  for (const [index, { id, box }] of boxes.entries())
    for (const other of boxes.slice(index + 1))
      if (box.left < other.box.right && other.box.left < box.right && box.top < other.box.bottom && other.box.top < box.bottom) found.push(`${id} on ${other.id}`);
  return found;
};

/** Nodes not wholly inside the canvas with a margin of `margin` px, by their boxes on screen. */
export const nodesOutOfView = (page: Page, margin = 0) =>
  page.evaluate((inset) => {
    const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>('.react-flow__node')]
      .filter((node) => {
        const box = node.getBoundingClientRect();
        return box.left < pane.left + inset || box.right > pane.right - inset || box.top < pane.top + inset || box.bottom > pane.bottom - inset;
      })
      .map((node) => node.dataset.id);
  }, margin);

/**
 * Runs the graph on the canvas to its end, then selects each step of the timeline in turn and calls
 * `check` with its number (from 1) once the canvas marks it: each step has its own chips and labels.
 */
export const atEveryStep = async (page: Page, check: (step: number) => Promise<void>) => {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'completed' })).toBeVisible();
  const steps = page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
  const count = await steps.count();
  expect(count).toBeGreaterThan(3);
  for (let index = 0; index < count; index += 1) {
    await steps.nth(index).click();
    await expect(page.locator('.react-flow__node.current')).toHaveCount(1);
    await check(index + 1);
  }
};

/** Waits until the canvas's view holds still from one frame to the next (an animated fit has ended). */
export const viewStill = (page: Page) =>
  page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const viewport = document.querySelector<HTMLElement>('.react-flow__viewport');
        const before = viewport?.style.transform;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(viewport?.style.transform === before)));
      }),
  );

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

/** Runs the open graph's scenario `name` from the toolbar and waits until the run stops with `stopReason`. */
export const runScenarioTo = async (page: Page, name: string, stopReason: string) => {
  await page.getByRole('combobox', { name: /^Scenario/ }).selectOption(name);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toContainText(stopReason);
};

/**
 * What the canvas draws over a node it should not, by the boxes on screen: an edge label overlapping
 * any node's box, and an edge whose path passes inside a node it does not join (points every 4 px
 * along its SVG path, each node's box shrunk by 3 px so that a path grazing a corner is not counted).
 * `drawn`: the nodes and labels' selectors (the server graph's canvas has its own labels, and groups that are no node).
 */
export const drawingClashes = (page: Page, drawn = { nodes: '.react-flow__node', labels: '.edge-label' }) =>
  page.evaluate(({ nodes: nodeSelector, labels }) => {
    const MARGIN = 3;
    const nodes = [...document.querySelectorAll<HTMLElement>(nodeSelector)].map((node) => ({ id: node.dataset.id ?? '', box: node.getBoundingClientRect() }));
    const found: string[] = [];
    for (const label of document.querySelectorAll<HTMLElement | SVGElement>(labels)) {
      const box = label.getBoundingClientRect();
      for (const node of nodes)
        if (box.left < node.box.right && node.box.left < box.right && box.top < node.box.bottom && node.box.top < box.bottom) found.push(`label of ${label.dataset.edgeId} on ${node.id}`);
    }
    for (const edge of document.querySelectorAll<SVGGElement>('.react-flow__edge')) {
      const ends = [edge.dataset.source, edge.dataset.target];
      const others = nodes.filter((node) => !ends.includes(node.id));
      for (const path of edge.querySelectorAll<SVGPathElement>('path.react-flow__edge-path')) {
        const [length, matrix] = [path.getTotalLength(), path.getScreenCTM()!];
        for (let along = 0; along <= length; along += 4) {
          const { x, y } = path.getPointAtLength(along);
          const point = new DOMPoint(x, y).matrixTransform(matrix);
          const under = others.find(({ box }) => point.x > box.left + MARGIN && point.x < box.right - MARGIN && point.y > box.top + MARGIN && point.y < box.bottom - MARGIN);
          if (under) {
            found.push(`edge ${edge.dataset.id} under ${under.id}`);
            break;
          }
        }
      }
    }
    return [...new Set(found)];
  }, drawn);

/**
 * What does not fit, as drawn on screen: texts under 10 px (font size × zoom), node boxes not
 * wholly inside the canvas, and edge labels over node boxes.
 */
export const misfits = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.querySelector('.react-flow')!.getBoundingClientRect();
    const zoom = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a;
    const hasText = (element: Element) => [...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.trim());
    const small = [...document.querySelectorAll<HTMLElement>('.react-flow__viewport *, .edge-label, .edge-label *')]
      .filter((element) => element.checkVisibility() && hasText(element))
      .map((element) => ({ text: element.textContent!.trim().slice(0, 24), size: parseFloat(getComputedStyle(element).fontSize) * zoom }))
      .filter(({ size }) => size < 10)
      .map(({ text, size }) => `text "${text}" ${size.toFixed(1)} px`);
    const nodes = [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map((node) => ({ id: node.dataset.id ?? '', box: node.getBoundingClientRect() }));
    const outside = nodes
      .filter(({ box }) => box.left < canvas.left || box.right > canvas.right || box.top < canvas.top || box.bottom > canvas.bottom)
      .map(({ id }) => `node ${id} not whole in the ${Math.round(canvas.width)}×${Math.round(canvas.height)} canvas`);
    const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const labels = [...document.querySelectorAll<HTMLElement>('.edge-label')].filter((label) => label.checkVisibility());
    const labelsOnNodes = labels.flatMap((label) => nodes.filter(({ box }) => overlap(label.getBoundingClientRect(), box)).map(({ id }) => `label of ${label.dataset.edgeId} on node ${id}`));
    return { fit: [...small, ...outside], labelsOnNodes, nodes: nodes.length };
  });

/** Checks the canvas as it is now, once it holds still: `moment` names it in the failure. */
export const expectFits = async (page: Page, moment: string) => {
  await viewStill(page);
  await expect.poll(async () => (await misfits(page)).fit, { message: moment }).toEqual([]);
  const { labelsOnNodes, nodes } = await misfits(page);
  expect(nodes, moment).toBeGreaterThan(0);
  expect(labelsOnNodes, moment).toEqual([]);
};

/** Pans the view a little by mouse, so that a fit that follows is seen to move it back. */
const panAway = async (page: Page) => {
  const area = (await pane(page).boundingBox())!;
  const [x, y] = [area.x + area.width - 12, area.y + area.height - 12];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x - 30, y - 20, { steps: 3 });
  await page.mouse.up();
  return viewTransform(page);
};

/** Presses a button that fits the view, after a pan: waits until the view has moved back and holds still. */
export const fitBy = async (page: Page, name: string) => {
  const panned = await panAway(page);
  await page.getByRole('button', { name, exact: true }).click();
  // ELK works in a worker: on a loaded machine Auto layout may take longer than one assertion's budget.
  await expect.poll(() => viewTransform(page), { timeout: 45_000 }).not.toBe(panned);
  await expect(page.getByRole('button', { name: 'Auto layout', exact: true })).toBeEnabled({ timeout: 45_000 });
};

/** A graph file from src/graph/fixtures (graphs no template has, found checking by hand), by its file name. */
export const graphFixture = (name: string) => JSON.parse(readFileSync(new URL(`../src/graph/fixtures/${name}.json`, import.meta.url), 'utf8')) as { name: string };

/**
 * `loopscope open FOLDER` as a person runs it (bin/loopscope.mjs), serving the build under test
 * (E2E_OUT): the address it prints, and how to stop it.
 */
export const openFolderServer = async (folder: string) => {
  const root = resolve(import.meta.dirname, '..');
  const server = spawn(process.execPath, ['bin/loopscope.mjs', 'open', folder, '--port', '0', '--no-browser'], {
    cwd: root,
    env: { ...process.env, LOOPSCOPE_APP_DIR: resolve(root, process.env.E2E_OUT ?? 'dist') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const line = await new Promise<string>((done, fail) => {
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      if (printed.includes('\n')) done(printed.split('\n')[0]);
    });
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    server.once('exit', (code) => fail(new Error(`loopscope open exited (${code}): ${printed}`)));
  });
  return { address: new URL(/http:\/\/\S+/.exec(line)![0]), stop: () => void server.kill('SIGTERM') };
};
