import { collectErrors } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/** Issue 53, #8: a mock skill's script is a form, a row per call, with its JSON kept in step; at the size a laptop shows. */
test.use({ viewport: { width: 1280, height: 720 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });

test('a mock skill scripted through the form: rows added, moved, undone; the JSON view follows and a bad edit keeps its text; the run takes the script', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?template=securityclaw');
  await expect(page.getByTestId('rf__node-execute')).toBeVisible();
  // The graph's settings (nothing selected) hold its skills.
  const skills = inspector(page).getByRole('region', { name: 'Skills' });
  await skills.getByText('search_events', { exact: true }).click();
  const script = skills.getByRole('group', { name: 'Script' }).filter({ visible: true });
  const call = (n: number) => script.getByRole('listitem', { name: `Call ${n}` });
  await expect(script).toContainText('The last row repeats for every call after it.');
  await expect(call(1).getByLabel('Outcome')).toHaveValue('timeout');
  await expect(call(2)).toContainText('Call 2 and every call after it');
  await expect(call(2).getByLabel('Outcome')).toHaveValue('empty');

  // A third call that finds the events, moved first: the search answers at once.
  await button(page, 'Add call').click();
  await expect(call(3)).toContainText('Call 3 and every call after it');
  await call(3).getByLabel('Records (JSON)').fill('[{"ip": "10.0.0.5", "count": 42}]');
  await button(page, 'Move call 3 up').click();
  await button(page, 'Move call 2 up').click();
  await expect(call(1).getByLabel('Outcome')).toHaveValue('ok');
  await expect(call(3)).toContainText('Call 3 and every call after it');
  await expect(call(3).getByLabel('Outcome')).toHaveValue('empty');

  // The JSON view says the same; an edit there that does not read says where, and loses nothing.
  await script.getByText('Script as JSON').click();
  const json = script.getByLabel('Script (JSON)');
  expect(JSON.parse(await json.inputValue()).map((entry: { outcome: string }) => entry.outcome)).toEqual(['ok', 'timeout', 'empty']);
  const typed = '[{"outcome": "ok", "records": [{"ip": "10.0.0.5"}]},\n {"outcome": "error" "error": "down"}]';
  await json.fill(typed);
  await expect(script.getByText(/^not JSON: .*line 2/)).toBeVisible();
  await expect(json).toHaveValue(typed);
  await expect(call(3).getByLabel('Outcome')).toHaveValue('empty');
  await json.fill(typed.replace('"error" "error"', '"error", "error"'));
  // The form shows what the JSON says.
  await expect(call(2).getByLabel('Outcome')).toHaveValue('error');
  await expect(call(2).getByLabel('Error message')).toHaveValue('down');
  await expect(call(3)).toHaveCount(0);

  // Undo takes the JSON edit back, then the moves, one at a time.
  await button(page, 'Undo').click();
  await expect(call(3).getByLabel('Outcome')).toHaveValue('empty');
  await button(page, 'Undo').click();
  await expect(call(1).getByLabel('Outcome')).toHaveValue('timeout');
  await button(page, 'Redo').click();
  await expect(call(1).getByLabel('Outcome')).toHaveValue('ok');

  // The run takes the script: the search finds the events on its first call.
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toContainText('completed');
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('search_events');
  await expect(page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').filter({ hasText: 'Execute skill' }).first()).toContainText('ok');
  expect(errors).toEqual([]);
});
