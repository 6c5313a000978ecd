/**
 * The longest main-thread task during an autosave (issue 57, item 2), in the app's production
 * build: a big graph opened through Import JSON and saved, one of its nodes dragged, and the page's
 * main thread watched from the autosave's start (the app's `loopscope:save-started` mark) until it
 * has landed (`loopscope:saved`). Chromium reports long tasks only from 50 ms on, so the page keeps
 * a message ping-pong running instead: the longest gap between two answers is the longest time the
 * page could not have drawn a frame.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { gridGraph } from './graphs.ts';
import { median, type Row } from './report.ts';

export interface AutosaveBench {
  /** A fresh page of a fresh browser context, closed after `work`. */
  withPage: <T>(work: (page: Page) => Promise<T>) => Promise<T>;
  appUrl: string;
  /** Where a generated file is written for the page's file input. */
  folder: string;
  sizes: number[];
  repeat: number;
  budgetMs: number;
  log: (line: string) => void;
}

declare global {
  interface Window {
    __autosaveBench?: { ticks: number[]; marks: { name: string; at: number }[]; stop: () => void };
  }
}

/** Until the autosaves since `after` have landed: one has, and none started since (a save can start as another lands). */
const landed = (page: Page, after: number, budgetMs: number) =>
  page.waitForFunction(
    (since) => {
      const last = (name: string) => performance.getEntriesByName(name).at(-1)?.startTime ?? -1;
      return last('loopscope:saved') > since && last('loopscope:saved') > last('loopscope:save-started');
    },
    after,
    { timeout: budgetMs, polling: 100 },
  );

/** The longest gap between the page's answers from the first autosave's start after an edit to the last one's landing, in ms. */
const longestDuringSave = async (page: Page, nodes: number, budgetMs: number) => {
  const before = await page.evaluate(() => {
    const ticks: number[] = [];
    const marks: { name: string; at: number }[] = [];
    // The app keeps only the last of each mark: an observer sees them all.
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name.startsWith('loopscope:save')) marks.push({ name: entry.name, at: entry.startTime });
    });
    observer.observe({ type: 'mark' });
    window.__autosaveBench = { ticks, marks, stop: () => observer.disconnect() };
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      ticks.push(performance.now());
      if (window.__autosaveBench?.ticks === ticks) channel.port2.postMessage(null);
    };
    channel.port2.postMessage(null);
    return performance.now();
  });
  // An edit as a person makes one: a node moved a little.
  const node = page.locator('.react-flow__node[data-id="n0"]');
  const box = (await node.boundingBox({ timeout: budgetMs }))!;
  await page.mouse.move(box.x + 20, box.y + 8);
  await page.mouse.down();
  for (let step = 1; step <= 5; step += 1) await page.mouse.move(box.x + 20 + step * 8, box.y + 8 + step * 4);
  await page.mouse.up();
  await landed(page, before, budgetMs);
  const { longest, ticks, saves } = await page.evaluate(() => {
    const { ticks: all, marks, stop } = window.__autosaveBench!;
    window.__autosaveBench = undefined;
    stop();
    const started = marks.find((mark) => mark.name === 'loopscope:save-started')!.at;
    const saved = marks.findLast((mark) => mark.name === 'loopscope:saved')!.at;
    let most = 0;
    for (let index = 1; index < all.length; index += 1) if (all[index] > started && all[index - 1] < saved) most = Math.max(most, all[index] - all[index - 1]);
    return { longest: most, ticks: all.length, saves: marks.filter((mark) => mark.name === 'loopscope:saved').length };
  });
  if (ticks < 2) throw new Error(`autosave at ${nodes} nodes: the page answered no message while it saved`);
  return { longest, saves };
};

export const autosaveRows = async ({ withPage, appUrl, folder, sizes, repeat, budgetMs, log }: AutosaveBench): Promise<Row[]> => {
  const rows: Row[] = [];
  for (const nodes of sizes) {
    log(`autosave, ${nodes} nodes`);
    const document = gridGraph(nodes, Math.round(nodes * 1.5));
    const file = join(folder, `autosave-${nodes}.json`);
    writeFileSync(file, JSON.stringify(document));
    const samples: number[] = [];
    let saves = 0;
    for (let n = 0; n < repeat; n += 1)
      samples.push(
        await withPage(async (page) => {
          await page.goto(appUrl);
          await page.locator('.react-flow__node').first().waitFor({ timeout: budgetMs });
          const opened = await page.evaluate(() => performance.now());
          await page.getByLabel('Import JSON').setInputFiles(file, { timeout: budgetMs });
          await page.getByRole('heading', { name: String(document.name), exact: true }).waitFor({ timeout: budgetMs });
          // The import's own save (the graph's first) landed, and the canvas holds still.
          await landed(page, opened, budgetMs);
          await page.locator('.react-flow__node[data-id="n0"]').waitFor({ timeout: budgetMs });
          const measured = await longestDuringSave(page, nodes, budgetMs);
          saves = Math.max(saves, measured.saves);
          return measured.longest;
        }),
      );
    log(`  longest main-thread task during an autosave: ${samples.map((ms) => ms.toFixed(1)).join(', ')} ms (up to ${saves} saves after the drag)`);
    rows.push({
      id: `autosave.longest.${nodes}`,
      measure: `${nodes.toLocaleString('en')} nodes: longest main-thread task during an autosave`,
      unit: 'ms',
      ours: median(samples),
      baseline: null,
      baselineIs: 'absolute target (a frame)',
      target: { atMost: 16 },
      note: 'a node dragged, then the page watched from the autosave\'s start to its landing: the longest gap between answers of a message ping-pong',
    });
  }
  return rows;
};
