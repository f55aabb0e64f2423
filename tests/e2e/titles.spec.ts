import {
  ChatPage,
  expect,
  mockConfig,
  mockKey,
  recordedRequests,
  renameRow,
  test,
  type ProviderId,
} from './fixtures.ts';

/** Auto-title: after the first reply, the conversation's own model names it (on by default). */
test.use({ autoTitle: true });

/** The mock's 'ok' scenario echoes the last user message: the title request's starts with the question. */
const echoedTitle = 'Echo: User: What is a zebra crossing';

const chatRequests = async (key: string) =>
  (await recordedRequests(key)).filter((request) => request.method === 'POST');

for (const provider of ['openai', 'claude', 'gemini'] as ProviderId[]) {
  test(`names the conversation after its first reply, with one non-streamed request (${provider})`, async ({
    page,
  }) => {
    const key = mockKey('ok');
    const chat = new ChatPage(page);
    await chat.open(mockConfig(provider, key));
    await chat.newConversation();
    await chat.send('What is a zebra crossing?');
    await chat.waitForReplyDone();
    await expect(chat.rows.first()).toContainText(echoedTitle);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(echoedTitle);

    const [reply, title] = await chatRequests(key);
    const body = JSON.stringify(title?.body);
    expect(body).toContain('title of two to six words');
    expect(body).toContain('What is a zebra crossing?');
    // The reply was streamed, the title not: Gemini's paths say so, the others' bodies do.
    if (provider === 'gemini') {
      expect(reply?.path).toContain(':streamGenerateContent');
      expect(title?.path).toContain(':generateContent');
    } else {
      expect((reply?.body as { stream?: boolean }).stream).toBe(true);
      expect((title?.body as { stream?: boolean }).stream).not.toBe(true);
    }

    // Only once: a second reply leaves the name.
    await chat.send('And a pelican crossing?');
    await chat.waitForReplyDone();
    expect(await chatRequests(key)).toHaveLength(3);
    await page.reload();
    await expect(chat.rows.first()).toContainText(echoedTitle);
  });
}

test("off in the settings: the name stays 'Conversation 1', and the choice survives a reload", async ({
  page,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  const preference = page.getByRole('checkbox', { name: 'Automatic titles' });
  await expect(preference).toBeChecked();
  await preference.uncheck();
  await chat.newConversation();
  await chat.send('What is a zebra crossing?');
  await chat.waitForReplyDone();
  await page.reload();
  await expect(preference).not.toBeChecked();
  await expect(chat.rows.first()).toContainText('Conversation 1');
  expect(await chatRequests(key)).toHaveLength(1);
});

test('a conversation renamed before its first reply keeps its name', async ({ page }) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await renameRow(chat, 0, 'Crossings');
  await chat.send('What is a zebra crossing?');
  await chat.waitForReplyDone();
  await chat.send('And a pelican crossing?');
  await chat.waitForReplyDone();
  expect(await chatRequests(key)).toHaveLength(2);
  await expect(chat.rows.first()).toContainText('Crossings');
});

test('a failed title request leaves the name, without a toast', async ({ page }) => {
  const key = mockKey('stream-only');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await chat.send('What is a zebra crossing?');
  await chat.waitForReplyDone();
  await expect.poll(async () => (await chatRequests(key)).length).toBe(2);
  // The reply's own request succeeded; the title's got a 500 and was dropped quietly.
  await chat.send('Anything else?');
  await chat.waitForReplyDone();
  await expect(chat.rows.first()).toContainText('Conversation 1');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
});
