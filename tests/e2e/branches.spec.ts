import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import type { ChatPage } from './fixtures.ts';
import {
  expect,
  exportSnapshot,
  importFile,
  mockConfig,
  mockKey,
  readDbStore,
  recordedRequests,
  test,
  twoTabs,
} from './fixtures.ts';

/** The messages each request carried, as "role: content" lines. */
async function sentHistories(key: string): Promise<string[][]> {
  const requests = await recordedRequests(key);
  return requests
    .filter((request) => request.method === 'POST')
    .map((request) =>
      ((request.body as { messages: { role: string; content: string }[] }).messages ?? []).map(
        (message) => `${message.role}: ${message.content}`,
      ),
    );
}

async function shownTexts(chat: ChatPage): Promise<string[]> {
  return (await chat.messages().locator('.message-content').allInnerTexts()).map((text) => text.trim());
}

/** Opens the app on a new conversation with the `numbered` mock: each call's reply says its number. */
async function start(chat: ChatPage, scenario = 'numbered'): Promise<string> {
  const key = mockKey(scenario);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  return key;
}

function action(message: Locator, name: string): Locator {
  return message.getByRole('button', { name, exact: true });
}

test('edit a question: a new version on its own branch, with a new reply; the old branch stays', async ({
  chat,
  page,
}) => {
  const key = await start(chat);
  await chat.ask('Capital of France?');
  await chat.ask('And of Spain?');
  await expect
    .poll(() => shownTexts(chat))
    .toEqual([
      'Capital of France?',
      'Reply 1 to: Capital of France?',
      'And of Spain?',
      'Reply 2 to: And of Spain?',
    ]);

  const first = chat.messages('user').first();
  await first.hover();
  await action(first, 'Edit message').click();
  const editor = page.getByRole('textbox', { name: 'Edit message' });
  await expect(editor).toHaveValue('Capital of France?');
  // Escape cancels and leaves everything as it was.
  await editor.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(chat.messages()).toHaveCount(4);

  await action(first, 'Edit message').click();
  await editor.fill('Capital of Italy?');
  await editor.press('Shift+Enter');
  await editor.pressSequentially('Answer briefly.');
  await expect(editor).toHaveValue('Capital of Italy?\nAnswer briefly.');
  await editor.press('Enter');
  await chat.waitForReplyDone();
  await expect
    .poll(() => shownTexts(chat))
    .toEqual(['Capital of Italy?\nAnswer briefly.', 'Reply 3 to: Capital of Italy?\nAnswer briefly.']);
  // Sent from the edited question, without the old branch.
  expect((await sentHistories(key)).at(-1)).toEqual([
    'system: You are a helpful assistant.',
    'user: Capital of Italy?\nAnswer briefly.',
  ]);

  const edited = chat.messages('user').first();
  await expect(edited.getByTestId('message-version')).toHaveText('2 / 2');
  await expect(action(edited, 'Next version')).toBeDisabled();
  await action(edited, 'Previous version').click();
  await expect(edited.getByTestId('message-version')).toHaveText('1 / 2');
  // The old branch comes back whole, its later turns included.
  await expect
    .poll(() => shownTexts(chat))
    .toEqual([
      'Capital of France?',
      'Reply 1 to: Capital of France?',
      'And of Spain?',
      'Reply 2 to: And of Spain?',
    ]);
  // The choice of branch is saved.
  await page.reload();
  await expect(chat.messages()).toHaveCount(4);
  await expect(chat.messages('user').first().getByTestId('message-version')).toHaveText('1 / 2');

  // 'Save and send' and Ctrl+Enter send too.
  await action(chat.messages('user').nth(1), 'Edit message').click();
  await editor.fill('And of Portugal?');
  await page.getByRole('button', { name: 'Save and send' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Reply 4 to: And of Portugal?');
  await action(chat.messages('user').nth(1), 'Edit message').click();
  await editor.fill('And of Greece?');
  await editor.press('Control+Enter');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Reply 5 to: And of Greece?');
  await expect(chat.messages('user').nth(1).getByTestId('message-version')).toHaveText('3 / 3');
});

test('regenerate: another answer to the same question, as a version beside the first', async ({ chat }) => {
  const key = await start(chat);
  await chat.ask('Name a colour');
  const reply = chat.messages('assistant').first();
  await expect(reply).toContainText('Reply 1 to: Name a colour');
  await reply.hover();
  await action(reply, 'Regenerate').click();
  await chat.waitForReplyDone();
  await expect(reply).toContainText('Reply 2 to: Name a colour');
  await expect(reply.getByTestId('message-version')).toHaveText('2 / 2');
  const histories = await sentHistories(key);
  expect(histories[1]).toEqual(histories[0]);
  await action(reply, 'Previous version').click();
  await expect(reply).toContainText('Reply 1 to: Name a colour');
  await expect(reply.getByTestId('message-version')).toHaveText('1 / 2');
  await expect(chat.messages()).toHaveCount(2);
});

test('delete a message: it and everything below it go, with Undo; the last version shown gives way to its sibling', async ({
  chat,
}) => {
  await start(chat);
  await chat.ask('one');
  await chat.ask('two');
  const second = chat.messages('user').nth(1);
  await second.hover();
  await action(second, 'Delete message').click();
  await expect(chat.toast('Message deleted')).toBeVisible();
  await expect.poll(() => shownTexts(chat)).toEqual(['one', 'Reply 1 to: one']);
  await chat.toast('Message deleted').getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => shownTexts(chat)).toEqual(['one', 'Reply 1 to: one', 'two', 'Reply 2 to: two']);

  const reply = chat.messages('assistant').nth(1);
  await reply.hover();
  await action(reply, 'Regenerate').click();
  await chat.waitForReplyDone();
  await expect(reply).toContainText('Reply 3 to: two');
  await action(reply, 'Delete message').click();
  await expect(reply).toContainText('Reply 2 to: two');
  await expect(reply.getByTestId('message-version')).toHaveCount(0);
  // Stored first: a reload while the save is still in flight can lose it (the page-hide flush
  // writes only what has not been sent yet), which is not what this test is about.
  await expect
    .poll(async () => JSON.stringify(await readDbStore(chat.page)))
    .not.toContain('Reply 3 to: two');
  await chat.page.reload();
  await expect.poll(() => shownTexts(chat)).toEqual(['one', 'Reply 1 to: one', 'two', 'Reply 2 to: two']);
});

test('branch into a new conversation: the path up to a message, named "{name} (branch)" and selected', async ({
  chat,
}) => {
  await start(chat);
  await chat.ask('first');
  await chat.ask('second');
  const firstReply = chat.messages('assistant').first();
  await firstReply.hover();
  await action(firstReply, 'Branch into new conversation').click();
  // The newest on top.
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toContainText('Conversation 1 (branch)');
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(chat.page.getByRole('heading', { level: 1 })).toHaveText('Conversation 1 (branch)');
  await expect.poll(() => shownTexts(chat)).toEqual(['first', 'Reply 1 to: first']);
  await chat.ask('third');
  await expect(chat.messages('assistant').last()).toContainText('Reply 3 to: third');
  await chat.rows.nth(1).click();
  await expect(chat.messages()).toHaveCount(4);
});

test('the system prompt is set per conversation; empty sends none; Clear resets it, Undo brings it back', async ({
  chat,
  page,
}) => {
  const key = await start(chat);
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conversation settings' });
  const prompt = dialog.getByRole('textbox', { name: 'System prompt' });
  await expect(prompt).toHaveValue('You are a helpful assistant.');
  await prompt.fill('Answer in French.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await chat.ask('Hello');
  expect((await sentHistories(key))[0]?.[0]).toBe('system: Answer in French.');

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(chat.messages()).toHaveCount(0);
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(prompt).toHaveValue('You are a helpful assistant.');
  await page.keyboard.press('Escape');
  await chat.toast('Conversation cleared').getByRole('button', { name: 'Undo' }).click();
  await expect(chat.messages()).toHaveCount(2);
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(prompt).toHaveValue('Answer in French.');
  await prompt.fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await chat.ask('Again');
  expect((await sentHistories(key))[1]?.[0]).toBe('user: Hello');

  await page.reload();
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(prompt).toHaveValue('');
  // A new conversation starts with the spec's default.
  await page.keyboard.press('Escape');
  await chat.newConversation();
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(prompt).toHaveValue('You are a helpful assistant.');
});

test('while a reply streams, edit, regenerate, delete and versions wait; Stop works as before', async ({
  chat,
  held,
}) => {
  const key = mockKey('numbered');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await chat.ask('first');
  const reply = chat.messages('assistant').first();
  await reply.hover();
  await action(reply, 'Regenerate').click();
  await chat.waitForReplyDone();

  // The next reply is held mid-stream: the configuration now points at the held provider.
  await chat.page.evaluate(
    (config) => localStorage.setItem('ai-chat-config', config),
    JSON.stringify(held.config()),
  );
  await chat.page.reload();
  await chat.send('second');
  const stream = await held.nextReply();
  stream.send('This is a held reply');
  await expect(chat.stopButton).toBeVisible();
  // Some of the reply has arrived, so Stop keeps it.
  await expect(chat.messages('assistant').last()).toContainText('This is a held reply');
  const question = chat.messages('user').first();
  await question.hover();
  await expect(action(question, 'Edit message')).toBeDisabled();
  await expect(action(question, 'Delete message')).toBeDisabled();
  await expect(action(reply, 'Regenerate')).toBeDisabled();
  await expect(action(reply, 'Delete message')).toBeDisabled();
  await expect(action(reply, 'Previous version')).toBeDisabled();
  await chat.stopButton.click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Stopped: the reply is incomplete.');
  await expect(action(reply, 'Previous version')).toBeEnabled();
});

test('a reload in the middle of a regenerated reply keeps both versions, the new one marked interrupted', async ({
  chat,
  page,
  held,
}) => {
  const key = mockKey('numbered');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await chat.ask('question');
  // The regenerated reply is held mid-stream: the configuration now points at the held provider.
  await page.evaluate(
    (config) => localStorage.setItem('ai-chat-config', config),
    JSON.stringify(held.config()),
  );
  await page.reload();
  const reply = chat.messages('assistant').first();
  await reply.hover();
  await action(reply, 'Regenerate').click();
  const stream = await held.nextReply();
  stream.send('This is a held reply');
  await expect(reply).toContainText('This is a held reply');
  // Mid-stream, once a periodic save (at most once a second, as text arrives) has stored part of
  // the new version: the stream goes on a word at a time until one has.
  await expect
    .poll(async () => {
      stream.send(' and more');
      return JSON.stringify(await readDbStore(page));
    })
    .toContain('This is a held reply');
  await expect(chat.stopButton).toBeVisible();
  await page.reload();
  await expect(reply).toContainText('This is a held reply');
  await expect(reply).toContainText('Interrupted: the reply is incomplete');
  await expect(reply.getByTestId('message-version')).toHaveText('2 / 2');
  await action(reply, 'Previous version').click();
  await expect(reply).toContainText('Reply 1 to: question');
});

test('export then import keeps every branch; the export stays a 2.0 file whose messages are the active path', async ({
  chat,
  page,
}) => {
  await start(chat);
  await chat.ask('q');
  const reply = chat.messages('assistant').first();
  await reply.hover();
  await action(reply, 'Regenerate').click();
  await chat.waitForReplyDone();
  const text = await exportSnapshot(page);
  const file = JSON.parse(text) as {
    version: string;
    conversations: { messages: { role: string; content: string }[]; otherMessages: unknown[] }[];
  };
  expect(file.version).toBe('2.0');
  expect(file.conversations[0]?.messages.map(({ role, content }) => `${role}: ${content}`)).toEqual([
    'system: You are a helpful assistant.',
    'user: q',
    'assistant: Reply 2 to: q',
  ]);
  expect(file.conversations[0]?.otherMessages).toHaveLength(1);

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(chat.messages()).toHaveCount(0);
  await importFile(page, file);
  await expect(reply).toContainText('Reply 2 to: q');
  await action(reply, 'Previous version').click();
  await expect(reply).toContainText('Reply 1 to: q');
  expect(await exportSnapshot(page)).not.toBe(text);
});

test('a 2.0 export written by the previous release imports whole, as linear chains', async ({
  chat,
  page,
}) => {
  await chat.open(mockConfig('openai', mockKey('ok')));
  const file: unknown = JSON.parse(readFileSync('tests/e2e/data/release-1-export.json', 'utf8'));
  await importFile(page, file);
  await expect(chat.rows).toHaveCount(3);
  await expect(chat.rows.nth(1)).toHaveAttribute('data-active', 'true');
  await expect.poll(() => shownTexts(chat)).toEqual(['Hello', 'Bonjour']);
  await expect(chat.messages('assistant')).toContainText('Stopped: the reply is incomplete.');
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(page.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Answer in French.');
  await page.keyboard.press('Escape');
  // Listed by their last update (the export has no activity of its own): this one is last.
  await chat.rows.nth(2).click();
  await expect(chat.messages()).toHaveCount(4);
  await expect(chat.messages('assistant').last()).toContainText(
    'Interrupted: the reply is incomplete (Network error).',
  );
  const records = await readDbStore(page);
  expect(records).toHaveLength(3);
});

test('two tabs: a branch made in one shows in the other', async ({ context }) => {
  const [a, b] = await twoTabs(context, mockKey('numbered'));
  await a.newConversation();
  await a.ask('question');
  await b.rows.first().getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText('Reply 1 to: question');
  const reply = a.messages('assistant').first();
  await reply.hover();
  await action(reply, 'Regenerate').click();
  await a.waitForReplyDone();
  const other = b.messages('assistant').first();
  // The other tab keeps the version it shows, and now offers the new one.
  await expect(other.getByTestId('message-version')).toHaveText('1 / 2');
  await action(other, 'Next version').click();
  await expect(other).toContainText('Reply 2 to: question');
  await action(other, 'Previous version').click();
  await expect(other).toContainText('Reply 1 to: question');
});

test('two tabs: a regenerate streaming in one while the other deletes the old version loses nothing else', async ({
  context,
  held,
}) => {
  const [a, b] = await twoTabs(context, held.config());
  await a.newConversation();
  await a.send('Tell me something');
  const first = await held.nextReply();
  first.send('The first answer.');
  first.end();
  await a.waitForReplyDone();
  await b.rows.first().getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText('The first answer.');

  const reply = a.messages('assistant').first();
  await reply.hover();
  await action(reply, 'Regenerate').click();
  const second = await held.nextReply();
  let whole = 'The second answer,';
  second.send(whole);
  await expect(reply).toContainText(whole);
  // The other tab sees the new version once it is saved (at most once a second while text
  // arrives): the stream goes on, a word at a time, until it does.
  const other = b.messages('assistant').first();
  await expect
    .poll(async () => {
      second.send(' more');
      whole += ' more';
      return other.getByTestId('message-version').allTextContents();
    })
    .toEqual(['1 / 2']);
  // It deletes the old version while the new one streams.
  await other.hover();
  await action(other, 'Delete message').click();
  await expect(a.page.getByTestId('streaming-cursor')).toBeVisible();
  second.send(', in full.');
  whole += ', in full.';
  second.end();
  await a.waitForReplyDone();

  for (const tab of [a, b]) {
    await expect(tab.messages('assistant')).toHaveCount(1);
    await expect(tab.messages('assistant').first()).toContainText(whole);
    await expect(tab.messages('assistant').first().getByTestId('message-version')).toHaveCount(0);
    await expect(tab.messages('assistant').first()).not.toContainText('Interrupted');
  }
  const [record] = await readDbStore(a.page);
  const messages = record?.messages as { role: string; content: string; status?: string }[];
  expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
  expect(messages.at(-1)?.content).toBe(whole);
  expect(messages.at(-1)?.status).toBeUndefined();
  expect(record?.otherMessages).toBeUndefined();
  await b.page.reload();
  await b.rows.first().getByRole('button').first().click();
  await expect(b.messages('assistant')).toHaveCount(1);
  await expect(b.messages('assistant').first()).toContainText(whole);
});
