import { ChatPage, expect, importFile, mockConfig, mockKey, sampleConversation, test } from './fixtures.ts';

/** 'Storage' in the settings panel, and asking the browser to keep the data. */

test('once a conversation is saved the browser is asked to keep the data; Storage shows the figures and the largest conversations', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const storage = navigator.storage;
    const persist = storage.persist.bind(storage);
    storage.persist = () => {
      (window as unknown as { __persistAsked: number }).__persistAsked =
        ((window as unknown as { __persistAsked?: number }).__persistAsked ?? 0) + 1;
      return persist();
    };
  });
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await importFile(page, {
    version: '2.0',
    conversations: [
      sampleConversation('small', 'Small talk', [['hi', 'hello']]),
      sampleConversation('big', 'Long essay', [['Write a lot', 'word '.repeat(20_000)]]),
      sampleConversation('medium', 'Recipe', [['Bread?', 'flour '.repeat(2_000)]]),
    ],
  });
  await chat.rows.filter({ hasText: 'Small talk' }).getByRole('button').first().click();
  await chat.send('One more');
  await chat.waitForReplyDone();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __persistAsked?: number }).__persistAsked))
    .toBe(1);

  await page.getByText('Storage', { exact: true }).click();
  await expect(page.getByText(/^Storage: \d+\.\d MB of \d+(\.\d)? (MB|GB)$/)).toBeVisible();
  await expect(
    page.getByText(
      /^(Kept: the browser will not clear it to make room\.|The browser may clear it when space runs low: export a copy now and then\.)$/,
    ),
  ).toBeVisible();
  const largest = page.getByRole('list', { name: 'Largest conversations' }).getByRole('listitem');
  await expect(largest).toHaveCount(3);
  await expect(largest.nth(0)).toContainText('Long essay');
  await expect(largest.nth(0)).toContainText('195 KB');
  await expect(largest.nth(1)).toContainText('Recipe');
  await expect(largest.nth(2)).toContainText('Small talk');
});
