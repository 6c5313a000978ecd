/**
 * The screenshots of docs/: the default graph, a hand-built graph, the debugger mid-run and the
 * Debug layout stepping through recovery, at a laptop's 1280×720 and at 1920×1080. Against a running preview of the built app:
 *   npx vite build --outDir .e2e-me && npx vite preview --outDir .e2e-me --port 4322 &
 *   node --import tsx scripts/screenshots.ts http://127.0.0.1:4322 docs
 */
import { chromium, type Page } from '@playwright/test';
// A graph a person drew: node positions as dropped by hand, not laid out.
import handBuilt from '../src/graph/fixtures/hand-built.json' with { type: 'json' };

const [base = 'http://127.0.0.1:4322', outDir = 'docs'] = process.argv.slice(2);
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];


const open = async (page: Page, path: string) => {
  await page.goto(`${base}${path}`);
  await page.locator('.react-flow__node').first().waitFor();
  // Edge labels are placed just after the first screen: every graph shot here has some.
  await page.locator('.edge-label').first().waitFor();
  // The first fit animates; the shot waits until the view is still.
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
};

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const size of SIZES) {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const name = (what: string) => `${outDir}/${what}-${size.width}x${size.height}.png`;

  await open(page, '/?template=securityclaw');
  await page.screenshot({ path: name('default-graph') });

  const { encodeShareFragment } = await import('../src/editor/shareLink.ts');
  await open(page, `/#${await encodeShareFragment(JSON.stringify(handBuilt))}`);
  await page.screenshot({ path: name('hand-built') });

  await open(page, '/?template=securityclaw');
  for (let step = 0; step < 3; step += 1) {
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(step).waitFor();
  }
  await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(1).click();
  await page.screenshot({ path: name('debugger-mid-run') });

  // The Debug layout, stepped with F10 into the recovery path: the recover step, its node in view.
  await open(page, '/?template=securityclaw');
  await page.getByRole('button', { name: 'Debug layout', exact: true }).click();
  await page.getByRole('button', { name: 'Debug layout', exact: true, pressed: true }).waitFor();
  for (let step = 0; step < 4; step += 1) {
    await page.keyboard.press('F10');
    await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').nth(step).waitFor();
  }
  await page.locator('.react-flow__node.current[data-id="recover"]').waitFor();
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  await page.screenshot({ path: name('debug-layout') });
  await context.close();
}
await browser.close();
