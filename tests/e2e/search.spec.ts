import { ChatPage, expect, importFile, sampleConversation, test, twoTabs } from './fixtures.ts';

/** 'Search conversations': every message body of every branch, from a worker's index. */

const field = (chat: ChatPage) => chat.page.getByRole('searchbox', { name: 'Search conversations' });
const results = (chat: ChatPage) =>
  chat.page.getByRole('list', { name: 'Search results' }).getByRole('button');

/** A long conversation whose older reply (off the shown branch) and an early message hold words to find. */
function travelFile() {
  const turns = Array.from({ length: 30 }, (_, turn) => [
    { id: `q${turn}`, role: 'user', content: turn === 0 ? 'Plan a trip to the coast' : `Question ${turn}` },
    { id: `a${turn}`, role: 'assistant', content: `Answer ${turn}, with some filler text to take room.` },
  ]).flat();
  return {
    version: '2.0',
    conversations: [
      {
        id: 'travel',
        name: 'Travel plans',
        messages: [{ id: 's', role: 'system', content: 'You are a helpful assistant.' }, ...turns],
        otherMessages: [
          {
            id: 'a0-old',
            parentId: 'q0',
            role: 'assistant',
            content: 'Fly to Lisbon, with a layover in Madrid.',
            // Older than the reply on the path: version 1 of 2.
            createdAt: '2025-01-01T00:00:00.000Z',
          },
        ],
        createdAt: '2025-02-01T00:00:00.000Z',
        updatedAt: '2025-02-01T00:00:00.000Z',
      },
      sampleConversation('cooking', 'Cooking', [['A recipe for bread', 'Knead the dough well.']]),
      { ...sampleConversation('old', 'Old notes', [['Lisbon trams', 'Tram 28.']]), place: 'archived' },
    ],
    activeConversationId: 'cooking',
  };
}

test('finds a reply on another branch, with typos, and opens that branch at the message, marked', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importFile(page, travelFile());

  await field(chat).fill('lisbn');
  await expect(results(chat)).toHaveCount(2);
  const travel = results(chat).filter({ hasText: 'Travel plans' });
  await expect(travel).toContainText('Fly to Lisbon, with a layover in Madrid.');
  await expect(travel.locator('mark')).toHaveText(['Lisbon']);
  await expect(results(chat).filter({ hasText: 'Old notes' })).toContainText('Archived');
  await expect(page.getByRole('status').filter({ hasText: '2 conversations.' })).toBeVisible();

  await travel.click();
  await expect(chat.rows.filter({ hasText: 'Travel plans' })).toHaveAttribute('data-active', 'true');
  const reply = chat.messages('assistant').filter({ hasText: 'Fly to Lisbon' });
  await expect(reply).toBeInViewport();
  await expect(reply.getByTestId('message-version')).toHaveText('1 / 2');
  await expect(page.locator('[data-revealed]')).toContainText('Fly to Lisbon');
  await expect(page.locator('[data-revealed]')).toHaveCount(0);

  // A word of the name only: the conversation opens as it is.
  await field(chat).fill('cooking');
  await expect(results(chat)).toHaveCount(1);
  await expect(results(chat).locator('mark')).toHaveText(['Cooking']);
  await results(chat).click();
  await expect(chat.rows.filter({ hasText: 'Cooking' })).toHaveAttribute('data-active', 'true');

  await field(chat).fill('zeppelin');
  await expect(page.getByRole('status').filter({ hasText: 'No conversations match.' })).toBeVisible();
  await field(chat).press('Escape');
  await expect(field(chat)).toHaveValue('');
  await expect(chat.rows).toHaveCount(2);
});

test('the index is saved, and a reload finds the same messages', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importFile(page, travelFile());
  await field(chat).fill('layover');
  await expect(results(chat)).toHaveCount(1);
  // Saved a few seconds after the last change.
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const open = indexedDB.open('ai-chat-search');
              open.onsuccess = () => {
                const request = open.result.transaction('snapshots').objectStore('snapshots').get('index');
                request.onsuccess = () => {
                  open.result.close();
                  resolve(Object.keys((request.result as { keys?: object } | undefined)?.keys ?? {}).length);
                };
              };
            }),
        ),
      { timeout: 15_000 },
    )
    .toBe(3);
  await page.reload();
  await field(chat).fill('madrid');
  await expect(results(chat).filter({ hasText: 'Travel plans' })).toContainText('layover in Madrid');
  await expect(page.getByRole('status').filter({ hasText: '1 conversation.' })).toBeVisible();
});

test("another tab's new message is found, and the shortcut and palette reach the field", async ({
  context,
}) => {
  const [a, b] = await twoTabs(context);
  await b.newConversation();
  await b.send('What is a zebra crossing?');
  await b.waitForReplyDone();

  await a.page.keyboard.press('Control+Shift+F');
  await expect(field(a)).toBeFocused();
  await a.page.keyboard.type('zebra');
  await expect(results(a)).toHaveCount(1);
  await expect(results(a).locator('mark').first()).toHaveText('zebra');
  // Arrow down from the field into the results; Enter opens.
  await field(a).press('ArrowDown');
  await expect(results(a).first()).toBeFocused();
  await a.page.keyboard.press('Enter');
  await expect(a.messages('user').filter({ hasText: 'zebra crossing' })).toBeVisible();

  await a.page.keyboard.press('Control+k');
  await a.page.getByRole('combobox', { name: 'Search commands and conversations' }).fill('search conv');
  await expect(a.page.getByRole('option').first()).toContainText('Search conversations');
  await a.page.keyboard.press('Enter');
  await expect(field(a)).toBeFocused();
});
