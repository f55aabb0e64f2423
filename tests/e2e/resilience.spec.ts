import type { Page } from '@playwright/test';
import {
  ChatPage,
  expect,
  importConversation,
  mockConfig,
  mockKey,
  providerLabel,
  readDbStore,
  recordedRequests,
  test,
  type ProviderId,
} from './fixtures.ts';

type StoredMessage = { role: string; content: string; status?: string; error?: string };

const draft = 'My next question, not sent yet';

async function posts(key: string): Promise<number> {
  return (await recordedRequests(key)).filter((request) => request.method === 'POST').length;
}

test('a tab closed mid-reply: on reopening, the partial reply is there, marked as interrupted', async ({
  context,
}) => {
  const first = await context.newPage();
  const chat = new ChatPage(first);
  await chat.open(mockConfig('openai', mockKey('slow')));
  await chat.newConversation();
  await chat.send('Tell me a long story');
  // About eight pieces in (200 ms each): well past the first periodic save.
  const content = chat.messages('assistant').locator('.message-content');
  await expect(content).toContainText('one small piece');
  const seen = (await content.innerText()).trim();
  const closed = first.waitForEvent('close');
  await first.close({ runBeforeUnload: true });
  await closed;

  const second = new ChatPage(await context.newPage());
  await second.open();
  const reply = second.messages('assistant');
  await expect(reply).toContainText('Interrupted: the reply is incomplete');
  await expect(reply.getByRole('button', { name: 'Retry' })).toBeVisible();
  // Everything that was on screen when the tab closed was saved (the save on page hide).
  const saved = (await readDbStore(second.page))[0]?.messages as StoredMessage[];
  expect(saved.at(-1)).toMatchObject({ role: 'assistant', status: 'interrupted' });
  expect(saved.at(-1)?.content.slice(0, seen.length)).toBe(seen);
  expect(saved.at(-1)?.content).not.toContain('The end.');
});

/** The failure kinds: provider, the toast's description (cause, and the fix where one exists). */
const failures: [scenario: string, provider: ProviderId, description: RegExp][] = [
  ['http-401', 'openai', /401 · Incorrect API key provided.*You can find your API key/],
  ['http-403', 'openai', /403 · Country, region, or territory not supported/],
  ['http-429', 'openai', /429 · Rate limit reached.*retry after 20 s/],
  ['http-500', 'openai', /500 · The server had an error while processing your request/],
  ['no-cors', 'claude', /CORS/],
  ['drop', 'openai', /Connection to 127\.0\.0\.1:\d+ was lost before the reply finished/],
];

for (const [scenario, provider, description] of failures) {
  test(`${scenario}: a clear message, a Retry action, the question kept, the draft never lost`, async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const key = mockKey(scenario);
    await chat.open(mockConfig(provider, key));
    await chat.newConversation();
    await chat.send('Will this work?');
    const toast = chat.toast(`Error calling ${providerLabel(provider)} API`);
    await expect(toast).toContainText(description);
    await expect(toast.getByRole('button', { name: 'Retry' })).toBeVisible();
    await chat.waitForReplyDone();
    await expect(chat.messages('user')).toContainText('Will this work?');

    const partial = scenario === 'drop';
    if (partial) {
      await expect(chat.messages('assistant')).toContainText('Echo:');
      await expect(chat.messages('assistant')).toContainText(
        /Interrupted: the reply is incomplete \(.*was lost/,
      );
    } else {
      await expect(chat.messages('assistant')).toHaveCount(0);
      await expect(page.getByText('No reply was received.')).toBeVisible();
    }

    // A draft typed after the failure survives another failing attempt.
    await chat.composer.fill(draft);
    await page.getByRole('log').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => posts(key)).toBe(2);
    await chat.waitForReplyDone();
    await expect(chat.composer).toHaveValue(draft);
    await expect(chat.messages('user')).toHaveCount(1);

    await page.reload();
    await expect(chat.messages('user')).toContainText('Will this work?');
    await expect(chat.composer).toHaveValue(draft);
    if (partial) await expect(chat.messages('assistant')).toContainText('Interrupted');
  });
}

test('CORS refusal (OpenAI-compatible) is named as such, not as a network failure', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('no-cors')));
  await chat.newConversation();
  await chat.send('Hello?');
  await expect(chat.toast('Error calling OpenAI API')).toContainText(/CORS/);
});

test('drop: Retry after fixing the key gets the full reply, replacing the interrupted one', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('groq', mockKey('drop')));
  await chat.newConversation();
  await chat.send('Try me');
  await expect(chat.messages('assistant')).toContainText('Interrupted');
  await chat.waitForReplyDone();
  await chat.composer.fill(draft);

  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByLabel('API Key').fill(mockKey('ok'));
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(chat.toast('Configuration saved')).toBeVisible();

  await chat.messages('assistant').getByRole('button', { name: 'Retry' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toHaveCount(1);
  await expect(chat.messages('assistant')).toContainText('Echo: Try me (2 messages received)');
  await expect(chat.messages('assistant')).not.toContainText('Interrupted');
  await expect(chat.composer).toHaveValue(draft);
  await page.reload();
  await expect(chat.messages('assistant')).toContainText('Echo: Try me (2 messages received)');
  await expect(chat.messages('assistant')).not.toContainText('Interrupted');
});

/** Waits until a draft with this text is in storage (the composer saves drafts as one types). */
async function draftStored(page: Page, text: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(localStorage)
          .filter((key) => key.startsWith('ai-chat-draft:'))
          .map((key) => localStorage.getItem(key)),
      ),
    )
    .toContain(text);
}

test('drafts: each conversation keeps its own unsent text across switches and reloads', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.newConversation();
  // The newest on top: the second conversation is row 0, the first row 1.
  const select = (index: number) => chat.rows.nth(index).getByRole('button').first().click();

  await chat.composer.fill('Draft for the second');
  await draftStored(page, 'Draft for the second');
  await select(1);
  await expect(chat.composer).toHaveValue('');
  await chat.composer.fill('Draft for the first');
  await draftStored(page, 'Draft for the first');
  await select(0);
  await expect(chat.composer).toHaveValue('Draft for the second');
  await select(1);
  await expect(chat.composer).toHaveValue('Draft for the first');

  await page.reload();
  await expect(chat.rows.nth(1)).toHaveAttribute('data-active', 'true');
  await expect(chat.composer).toHaveValue('Draft for the first');
  await select(0);
  await expect(chat.composer).toHaveValue('Draft for the second');

  // Sending takes the draft; the other conversation's draft stays.
  await chat.composer.press('Enter');
  await chat.waitForReplyDone();
  await expect(chat.composer).toHaveValue('');
  await page.reload();
  await expect(chat.composer).toHaveValue('');
  await select(1);
  await expect(chat.composer).toHaveValue('Draft for the first');
});

test('drafts: text typed just before switching conversation or reloading is kept', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.newConversation();
  await chat.composer.fill('Typed, then switched away at once');
  // The newest (active) on top: away to the first conversation, and back.
  await chat.rows.nth(1).getByRole('button').first().click();
  await chat.rows.nth(0).getByRole('button').first().click();
  await expect(chat.composer).toHaveValue('Typed, then switched away at once');

  await chat.composer.fill('Typed, then reloaded at once');
  await page.reload();
  await expect(chat.composer).toHaveValue('Typed, then reloaded at once');
});

test('a message that cannot be rendered shows as plain text with a notice; the app goes on and renders the next ones', async ({
  page,
}) => {
  // The markdown renderer is loaded on demand; a failed load (offline, a stale deploy) makes every
  // markdown message fail to render.
  await page.route('**/assets/markdown-renderer-*.js', (route) => route.abort());
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  const markdown = '# Heading\n\nSome **bold** text and a list:\n\n- one\n- two';
  await importConversation(page, markdown);

  const reply = chat.messages('assistant');
  await expect(reply).toContainText('This message could not be formatted, so it is shown as plain text.');
  await expect(reply.locator('.message-content')).toContainText('# Heading');
  await expect(reply.locator('.message-content')).toContainText('Some **bold** text');
  await expect(chat.messages('user')).toHaveText(/hi/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Imported');

  // The rest of the app works: a plain reply renders normally.
  await chat.send('Still working?');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: Still working?');
  await expect(chat.messages('assistant').nth(1)).not.toContainText('could not be formatted');

  // Back online, the renderer is fetched again for the messages shown next.
  await page.unroute('**/assets/markdown-renderer-*.js');
  await importConversation(page, `${markdown}\n- three`);
  await expect(chat.messages('assistant').locator('strong')).toHaveText('bold');
  await expect(chat.messages('assistant')).not.toContainText('could not be formatted');
});

test('a part loaded on first use that fails to load says so with Try again, and loads when tried again', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  // Offline, or a deployment that removed the file: the search results cannot load.
  await page.route('**/assets/search-results-*.js', (route) => route.abort());
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('conversation');
  const problem = page
    .getByRole('alert')
    .filter({ hasText: 'This part of the app could not load (offline?).' });
  await expect(problem).toBeVisible();
  // The rest of the app is still there.
  await expect(page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  await page.unroute('**/assets/search-results-*.js');
  await problem.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('list', { name: 'Search results' })).toBeVisible();
});
