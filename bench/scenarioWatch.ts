/**
 * Scenarios as you edit (issue 56, "Speed"), in the app's production build: an edit that breaks a
 * scenario, timed in the page from its dispatch until the header's count is for that edit and the
 * canvas's marks are in the DOM and painted, against `loopscope test` of the same file with the same
 * edit run in-process in this run (src/cli/main.ts); and a node's drag while the scenarios re-run,
 * its frame p95 against the same drag with "Re-run scenarios on each edit" off.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { main } from '../src/cli/main.ts';
import { median, percentile, type Row } from './report.ts';

export interface ScenarioWatchBench {
  /** A fresh page of a fresh browser context (with bench/browser.ts's frame detector), closed after `work`. */
  withPage: <T>(work: (page: Page) => Promise<T>) => Promise<T>;
  appUrl: string;
  root: string;
  /** Where the edited graph files are written for `loopscope test`. */
  folder: string;
  repeat: number;
  budgetMs: number;
  log: (line: string) => void;
  /** bench/browser.ts's drag of the node nearest the canvas's middle: its frame times. */
  dragFrames: (page: Page) => Promise<number[]>;
}

/**
 * A template and the edit that breaks some of its scenarios: an act node's Max attempts lowered, so
 * far that a scenario's path changes (a scenario that fails on the same path gets no mark).
 */
const CASES = [
  { template: 'graph-engineer', title: 'Graph Engineer', node: 'run', attempts: 1 },
  { template: 'securityclaw', title: 'SecurityClaw', node: 'execute', attempts: 1 },
] as const;

/** As stored by src/store/scenarioWatch.ts; a time budget no loaded machine runs out of, so that every scenario runs on each edit. */
const SETTINGS_KEY = 'loopscope:scenario-watch';
const settings = (paused: boolean) => JSON.stringify({ paused, budgetMs: 600_000 });

const inspectorField = (page: Page) => page.getByRole('region', { name: 'Inspector' }).getByLabel('Max attempts');

/** The app on a template with the watch on or off; on, until the first result (the worker's runtime loaded) is shown. */
const openTemplate = async (page: Page, appUrl: string, template: string, paused: boolean, budgetMs: number) => {
  await page.addInitScript(({ key, value }) => localStorage.setItem(key, value), { key: SETTINGS_KEY, value: settings(paused) });
  await page.goto(`${appUrl}?template=${template}`);
  await page.waitForFunction(
    (off) => {
      const count = document.querySelector('.scenario-watch-count');
      const words = count?.querySelector('.scenario-watch-words')?.textContent ?? '';
      return off ? words === 'Scenarios: paused' : count?.getAttribute('data-version') != null && count.getAttribute('aria-busy') === 'false';
    },
    paused,
    { timeout: budgetMs, polling: 100 },
  );
};

const selectNode = async (page: Page, node: string) => {
  await page.locator(`.react-flow__node[data-id="${node}"] .agent-node-label`).click();
  await inspectorField(page).waitFor();
};

/**
 * Sets the inspector's Max attempts as typing does (one input event) and times, in the page, from
 * that dispatch until the count is for this edit and its marks are in the DOM, then the frame they
 * are drawn in. The marks of one result come in one render (debugger/ScenarioWatch.tsx), so the
 * first frame with any is the frame with all of them.
 */
const editToMarks = (page: Page, value: number, budgetMs: number) =>
  inspectorField(page).evaluate(
    (input, { attempts, budget }) =>
      new Promise<{ ms: number; marks: number; words: string }>((resolve, reject) => {
        const count = () => document.querySelector('.scenario-watch-count');
        const before = Number(count()?.getAttribute('data-version'));
        const shown = () => {
          const version = count()?.getAttribute('data-version');
          return version != null && Number(version) > before && document.querySelectorAll('.scenario-watch-mark').length > 0;
        };
        let started = 0;
        const timeout = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`no mark on screen ${budget} ms after the edit; the count says "${count()?.textContent}"`));
        }, budget);
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          observer.disconnect();
          clearTimeout(timeout);
          requestAnimationFrame(() =>
            resolve({ ms: performance.now() - started, marks: document.querySelectorAll('.scenario-watch-mark').length, words: count()?.querySelector('.scenario-watch-words')?.textContent ?? '' }),
          );
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        started = performance.now();
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(attempts));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    { attempts: value, budget: budgetMs },
  );

/** Undo, until the count is for it and no mark is left. */
const undo = async (page: Page, budgetMs: number) => {
  const before = Number(await page.locator('.scenario-watch-count').getAttribute('data-version'));
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.waitForFunction(
    (version) => {
      const count = document.querySelector('.scenario-watch-count');
      return Number(count?.getAttribute('data-version')) > version && count?.getAttribute('aria-busy') === 'false' && document.querySelectorAll('.scenario-watch-mark').length === 0;
    },
    before,
    { timeout: budgetMs, polling: 100 },
  );
};

const silent = { out: () => {}, err: () => {} };

/** `loopscope test FILE` in this process, timed. */
const testAlone = async (file: string) => {
  const started = performance.now();
  await main(['test', file], silent);
  return performance.now() - started;
};

export const scenarioWatchRows = async ({ withPage, appUrl, root, folder, repeat, budgetMs, log, dragFrames }: ScenarioWatchBench): Promise<Row[]> => {
  const rows: Row[] = [];
  for (const { template, title, node, attempts } of CASES) {
    log(`scenarios as you edit: ${title}, ${node}'s Max attempts → ${attempts}`);
    const graph = JSON.parse(readFileSync(join(root, 'src', 'graph', 'templates', `${template}.json`), 'utf8')) as { nodes: { id: string; config: { retry: { maxAttempts: number } } }[]; scenarios: unknown[] };
    graph.nodes.find((candidate) => candidate.id === node)!.config.retry.maxAttempts = attempts;
    const file = join(folder, `${template}-edited.json`);
    writeFileSync(file, JSON.stringify(graph));
    // Once first: the command line's modules loaded and compiled, as the worker's runtime is before the first edit timed.
    await testAlone(file);
    const alone: number[] = [];
    const shown = await withPage(async (page) => {
      await openTemplate(page, appUrl, template, false, budgetMs);
      const seen: { ms: number; marks: number; words: string }[] = [];
      for (let n = 0; n < repeat; n += 1) {
        if (!(await inspectorField(page).count())) await selectNode(page, node);
        seen.push(await editToMarks(page, attempts, budgetMs));
        alone.push(await testAlone(file));
        await undo(page, budgetMs);
      }
      return seen;
    });
    log(`  edit → every mark on screen: ${shown.map((one) => Math.round(one.ms)).join(', ')} ms (${shown[0].marks} marks, "${shown[0].words}"); \`loopscope test\` alone: ${alone.map(Math.round).join(', ')} ms`);
    const ms = median(shown.map((one) => one.ms));
    const measure = `${title} (${graph.scenarios.length} scenarios): an edit → every mark on screen`;
    const note = `${node}'s Max attempts set to ${attempts} in the inspector: from the input event to the count for that edit and its ${shown[0].marks} marks in the DOM and painted (the 150 ms pause after an edit included)`;
    rows.push(
      { id: `scenarios.marks.${template}`, measure, unit: 'ms', ours: ms, baseline: null, baselineIs: 'absolute target', target: { atMost: 1000 }, note },
      { id: `scenarios.marks.${template}.alone`, measure: `${measure}, against the scenarios alone`, unit: 'ms', ours: ms, baseline: median(alone), baselineIs: '`loopscope test` of the same file with the same edit, in-process in this run, alternating with the page\'s edits', target: { ratio: 1.2 } },
    );
  }

  // A drag while the scenarios of an edit run in the worker and their marks arrive, against the same with the switch off.
  const { template, node, attempts } = CASES[0];
  log('scenarios as you edit: a drag while they re-run, and with the switch off');
  const dragOnce = (paused: boolean) =>
    withPage(async (page) => {
      await openTemplate(page, appUrl, template, paused, budgetMs);
      await selectNode(page, node);
      await inspectorField(page).fill(String(attempts));
      // On, the edit's run has gone to the worker (it waits 150 ms after an edit, and never starts while a pointer holds the canvas).
      if (!paused) await page.locator('.scenario-watch-count[aria-busy="true"]').waitFor({ timeout: budgetMs });
      const frames = await dragFrames(page);
      return { frames, marks: await page.locator('.scenario-watch-mark').count() };
    });
  const on: { frames: number[]; marks: number }[] = [];
  const off: { frames: number[]; marks: number }[] = [];
  for (let n = 0; n < repeat; n += 1) {
    if (n % 2 === 0) {
      on.push(await dragOnce(false));
      off.push(await dragOnce(true));
    } else {
      off.push(await dragOnce(true));
      on.push(await dragOnce(false));
    }
  }
  // Every frame of every repetition pooled, as the canvas rows do (bench/browser.ts).
  const p95 = (samples: typeof on) => percentile(samples.flatMap(({ frames }) => frames), 95);
  log(`  frame p95 while they re-run: ${on.map(({ frames }) => percentile(frames, 95)?.toFixed(1)).join(', ')} ms (marks on screen as the drag ended: ${on.map(({ marks }) => marks).join(', ')}); switch off: ${off.map(({ frames }) => percentile(frames, 95)?.toFixed(1)).join(', ')} ms`);
  rows.push({
    id: 'scenarios.drag.p95',
    measure: 'Graph Engineer: drag one node while its scenarios re-run, frame p95',
    unit: 'ms',
    ours: p95(on),
    baseline: p95(off),
    baselineIs: 'the same edit and drag with "Re-run scenarios on each edit" off',
    target: { ratio: 1.1 },
    note: `${node}'s Max attempts set to ${attempts}, then a node dragged as soon as the edit's run went to the worker`,
  });
  return rows;
};
