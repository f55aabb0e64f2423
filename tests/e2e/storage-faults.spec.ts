import type { Page } from '@playwright/test';
import {
  ChatPage,
  expect,
  mockConfig,
  mockKey,
  readDbStore,
  setStorageFull,
  simulateFullStorage,
  test,
} from './fixtures.ts';

const fullTitle = 'Storage is full: changes are not being saved';

/** The stored messages' text of every conversation, by name. */
async function storedTexts(page: Page): Promise<Record<string, string[]>> {
  const records = await readDbStore(page);
  return Object.fromEntries(
    records.map((record) => [
      record.name as string,
      (record.messages as { content: string }[]).map((message) => message.content),
    ]),
  );
}

test('storage full: a warning with Export, nothing in memory dropped, and saving resumes', async ({
  page,
}) => {
  await simulateFullStorage(page);
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.send('Before');
  await chat.waitForReplyDone();

  await setStorageFull(page, true);
  await chat.send('During');
  await chat.waitForReplyDone();
  const warning = chat.toast(fullTitle);
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('Nothing is lost while this tab stays open');
  await expect(chat.messages('assistant')).toHaveCount(2);
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: During');
  // Storage really refused: it still holds the conversation as it was before.
  expect((await storedTexts(page))['Conversation 1']).not.toContain('During');

  await chat.newConversation();
  await expect(chat.rows).toHaveCount(2);
  // One warning for the whole outage, not one per failed write.
  await expect(chat.toast(fullTitle)).toHaveCount(1);

  await warning.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByRole('dialog', { name: 'Import / Export Data' })).toBeVisible();
  await expect(page.getByTestId('export-text')).toHaveValue(/Echo: During/);
  await expect(page.getByTestId('export-text')).toHaveValue(/"name": "Conversation 2"/);
  await page.keyboard.press('Escape');

  // Space frees up: the next save works, and what failed earlier is written too.
  await setStorageFull(page, false);
  await chat.send('After');
  await chat.waitForReplyDone();
  await expect
    .poll(() => storedTexts(page))
    .toMatchObject({
      'Conversation 1': expect.arrayContaining(['Before', 'During', expect.stringContaining('Echo: During')]),
      'Conversation 2': expect.arrayContaining(['After', expect.stringContaining('Echo: After')]),
    });
  await page.reload();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.messages('assistant')).toContainText('Echo: After');
  await expect(chat.toast(fullTitle)).toHaveCount(0);
});

test('storage full: what failed to save is written by itself once space frees up', async ({ page }) => {
  // The page's clock runs in real time; the test moves it on to the app's first retry (5 s after
  // the failed write) instead of waiting for it.
  await page.clock.install();
  await simulateFullStorage(page);
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await setStorageFull(page, true);
  await chat.newConversation();
  await expect(chat.toast(fullTitle)).toBeVisible();
  expect(await readDbStore(page)).toEqual([]);

  await setStorageFull(page, false);
  // No user action: the app retries on its own.
  await page.clock.fastForward(5_000);
  await expect.poll(() => storedTexts(page)).toHaveProperty(['Conversation 1']);
  await page.reload();
  await expect(chat.rows).toHaveCount(1);
});

for (const [how, breakIt] of [
  ['missing', () => Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true })],
  [
    'refusing to open',
    () => {
      IDBFactory.prototype.open = () => {
        throw new DOMException(
          'A mutation operation was attempted on a database that did not allow mutations.',
          'InvalidStateError',
        );
      };
    },
  ],
] as const) {
  test(`IndexedDB ${how}: the app works in memory and says so`, async ({ page }) => {
    await page.addInitScript(breakIt);
    const chat = new ChatPage(page);
    await chat.open(mockConfig('openai', mockKey('ok')));
    const warning = chat.toast('Conversations are not being saved');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText('closing the tab loses your chats');

    await chat.newConversation();
    await chat.send('In memory only');
    await chat.waitForReplyDone();
    await expect(chat.messages('assistant')).toContainText('Echo: In memory only');
    await chat.newConversation();
    await expect(chat.rows).toHaveCount(2);
    // Writes to memory succeed: no storage error on top of the notice.
    await expect(chat.toast(/Could not save|Storage is full/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Import / Export' }).click();
    await expect(page.getByTestId('export-text')).toHaveValue(/Echo: In memory only/);
  });
}
