import { ChatPage, expect, mockConfig, mockKey, openDataDialog, test } from './fixtures.ts';

test('export shows the download text, without the key unless asked, and downloads it', async ({ page }) => {
  const chat = new ChatPage(page);
  const key = mockKey('ok');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await chat.send('Keep me');
  await chat.waitForReplyDone();

  await openDataDialog(chat.page, 'Export');
  const area = page.getByTestId('export-text');
  await expect(area).toHaveValue(/"version": "2.0"/);
  const text = await area.inputValue();
  const data = JSON.parse(text);
  expect(data.config.apiKey).toBeUndefined();
  expect(data.conversations[0].messages.map((m: { content: string }) => m.content)).toContain('Keep me');
  expect(text).not.toContain(key);

  await page.getByLabel('Include API key').check();
  await expect(area).toHaveValue(new RegExp(key.replace('.', '\\.')));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^azure-openai-chat-\d{4}-\d{2}-\d{2}\.json$/);
});

test('import replaces everything, keeps the current key when the file has none, and Undo restores', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const key = mockKey('ok');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await expect(chat.rows).toHaveCount(1);

  const file = {
    version: '2.0',
    config: { provider: 'groq', model: 'llama-3.1-8b-instant', temperature: 0.3, maxTokens: 500, topP: 1 },
    conversations: [
      {
        id: 'a1',
        name: 'Imported one',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'Old question' },
          { role: 'assistant', content: 'Old answer' },
        ],
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-02T00:00:00.000Z',
        provider: 'groq',
      },
      {
        id: 'a2',
        name: 'Imported two',
        messages: [],
        createdAt: '2025-01-03T00:00:00.000Z',
        updatedAt: '2025-01-03T00:00:00.000Z',
        provider: 'groq',
      },
    ],
    activeConversationId: 'a2',
  };
  await openDataDialog(chat.page, 'Import');
  await expect(
    page.getByText('Warning: Importing data will overwrite your existing configuration and conversations.'),
  ).toBeVisible();
  await page.getByPlaceholder('Paste JSON data here...').fill(JSON.stringify(file));
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(chat.toast('Data imported successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Listed by their last update: the active one, updated last, is first.
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(chat.rows.nth(0)).toContainText('Imported two');
  await expect(page.getByTestId('provider-badge')).toHaveText('Groq');
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored).toMatchObject({ provider: 'groq', apiKey: key });

  await chat.toast('Data imported successfully').getByRole('button', { name: 'Undo' }).click();
  await expect(chat.rows).toHaveCount(1);
  await expect(chat.rows.first()).toContainText('Conversation 1');
  await expect(page.getByTestId('provider-badge')).toHaveText('OpenAI');

  await page.reload();
  await expect(chat.rows).toHaveCount(1);
  await expect(page.getByTestId('provider-badge')).toHaveText('OpenAI');
});

test('a bad import says what is wrong and changes nothing', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await openDataDialog(chat.page, 'Import');
  const area = page.getByPlaceholder('Paste JSON data here...');

  await area.fill('{ not json');
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(chat.toast('Error importing data: Invalid format')).toBeVisible();

  await area.fill(
    JSON.stringify({
      conversations: [{ id: 'x', name: 'Bad', messages: [{ role: 'wizard', content: 'hi' }] }],
    }),
  );
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(chat.toast(/messages\[0\]\.role/)).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(chat.rows).toHaveCount(1);
  await expect(chat.rows.first()).toContainText('Conversation 1');
});
