/**
 * A LangGraph graph's run input from its input schema (issue 52, Studio's basics): the dev server
 * gives chat-agent's (a StateSchema: a messages channel and typed fields), the panel makes a form of
 * it with the JSON kept in step, says which field is wrong, and talks to the graph in a chat box.
 */
import { expect } from './test.ts';
import { collectErrors } from './helpers.ts';
import { attach, button, panel, serveFixturesForJourneys, test, until } from './langgraphPage.ts';

serveFixturesForJourneys();

test('the input form from the schema: a field per property, the JSON in step, a wrong field named; the chat box goes on with one thread', async ({ page }) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  await attach(page, 'chat-agent');
  const form = panel(page).getByRole('group', { name: 'Run input' });
  const tone = form.getByRole('combobox', { name: /^tone/ });
  await expect(tone).toBeVisible({ timeout: 30_000 });
  await expect(form).toContainText('How the agent answers');
  await expect(tone.getByRole('option')).toHaveText(['(not set)', 'plain', 'cheerful']);
  const maxWords = form.getByRole('textbox', { name: /^maxWords/ });
  const signature = form.getByRole('textbox', { name: /^signature/ });
  await expect(form.getByRole('textbox', { name: /^messages/ })).toBeVisible();

  // The form writes the JSON…
  await tone.selectOption('cheerful');
  await signature.fill('Bot');
  await form.getByText('Run input as JSON').click();
  const json = form.getByRole('textbox', { name: 'Run input (JSON)' });
  await expect(json).toHaveValue(JSON.stringify({ tone: 'cheerful', signature: 'Bot' }, null, 2));
  // …and the JSON the form.
  await json.fill('{"tone": "plain", "maxWords": 4}');
  await expect(tone).toHaveValue('plain');
  await expect(maxWords).toHaveValue('4');
  await expect(signature).toHaveValue('');

  // A field that does not read is named, and no run starts with it.
  await maxWords.fill('four');
  await expect(form.getByRole('alert')).toHaveText('Run input: maxWords: "four" is not a number');
  await button(page, 'New run on server').click();
  await expect(form.getByRole('alert')).toHaveText('Run input: maxWords: "four" is not a number');
  await expect(panel(page).getByRole('list', { name: 'Threads' })).toContainText('No threads yet');
  // JSON typed by hand is checked against the schema too.
  await json.fill('{"tone": "grumpy"}');
  await button(page, 'New run on server').click();
  await expect(form.getByRole('alert')).toHaveText('Run input: tone: expected one of "plain", "cheerful"');
  await json.fill('{"tone": "cheerful", "maxWords": 7}');

  // The chat box: a message starts a thread with the form's input, the next goes on with it.
  const chat = panel(page).getByRole('group', { name: 'Chat' });
  await chat.getByRole('textbox', { name: 'Message' }).fill('Hello there friend');
  await chat.getByRole('button', { name: 'Send' }).click();
  await until(page, 'ended');
  const conversation = chat.getByRole('list', { name: 'Conversation on the thread' });
  await expect(conversation.getByRole('listitem')).toHaveText([/human.*Hello there friend/, /ai.*Happy to help! You said: Hello there$/]);
  await chat.getByRole('textbox', { name: 'Message' }).fill('And again');
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(conversation.getByRole('listitem')).toHaveCount(4, { timeout: 60_000 });
  await expect(conversation.getByRole('listitem').nth(2)).toContainText('And again');
  // The same thread went on (the tone and word cap it started with are still its state).
  await expect(conversation.getByRole('listitem').nth(3)).toContainText('Happy to help! You said: And again');
  await expect(panel(page).getByRole('list', { name: 'Threads' }).getByRole('listitem')).toHaveCount(1);
  expect(errors).toEqual([]);
});
