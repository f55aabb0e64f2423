import {
  ChatPage,
  expect,
  mockConfig,
  mockKey,
  openWithData,
  readDbStore,
  sampleConversation,
  seedStorage,
  test,
  writeDbRecords,
} from './fixtures.ts';

/**
 * What the app finds in storage when it starts, damaged or left by older versions: it starts all
 * the same, reads what can be read, says what could not, and loses nothing.
 */

test('a corrupted saved configuration does not stop the app: defaults, a notice, the conversations shown', async ({
  page,
}) => {
  const chat = await openWithData(page);
  await page.evaluate(() => localStorage.setItem('ai-chat-config', 'not json{'));
  await page.reload();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toContainText('Second thoughts');
  await chat.rows.nth(1).getByRole('button').first().click();
  await expect(chat.messages('assistant')).toContainText('Echo: Keep me');
  await expect(chat.toast('The saved configuration could not be read')).toBeVisible();
  await expect(page.getByTestId('provider-badge')).toHaveText('OpenAI');
  await expect(
    page.getByText(
      'Please configure your AI provider settings in the panel on the right to start using the application.',
    ),
  ).toBeVisible();

  // A configuration that parses but is not one (unknown provider) is reported the same way.
  await page.evaluate(() => localStorage.setItem('ai-chat-config', '{"provider":"skynet","apiKey":"k"}'));
  await page.reload();
  await expect(chat.toast('The saved configuration could not be read')).toBeVisible();
  await expect(chat.rows).toHaveCount(2);
});

test('corrupted conversation records are skipped and reported; the readable ones show', async ({ page }) => {
  const chat = new ChatPage(page);
  await seedStorage(page, { 'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))) });
  await chat.open();
  await chat.newConversation();
  await chat.send('First one');
  await chat.waitForReplyDone();
  await chat.newConversation();
  await chat.send('Second one');
  await chat.waitForReplyDone();
  await expect(chat.rows).toHaveCount(2);

  const at = '2020-01-01T00:00:00.000Z';
  await writeDbRecords(page, [
    // Not a conversation at all, and no summary.
    { store: 'conversations', value: { id: 'junk', name: 42, messages: 'nope' } },
    // A record with a bad message, whose summary looks fine: listed first, then found unreadable.
    {
      store: 'conversations',
      value: {
        ...sampleConversation('damaged', 'Damaged one', [['q', 'a']], at),
        messages: [{ role: 'wizard' }],
      },
    },
    {
      store: 'summaries',
      value: {
        id: 'damaged',
        name: 'Damaged one',
        createdAt: at,
        updatedAt: at,
        provider: 'openai',
        messageCount: 3,
      },
    },
    // A summary that is junk for a record that is fine: the record still shows.
    {
      store: 'conversations',
      value: sampleConversation('fine', 'Fine despite its summary', [['ok q', 'ok a']], at),
    },
    { store: 'summaries', value: { id: 'fine', name: null } },
  ]);
  // The damaged one is made the active one, the worst case at start.
  await page.evaluate(() => localStorage.setItem('ai-chat-active-conversation', 'damaged'));
  await page.reload();

  // One reported by the listing (no summary), one when opened (its summary looked fine).
  await expect(chat.toast('1 saved conversation could not be read and was skipped')).toHaveCount(2);
  await expect(chat.toast('"Damaged one" is damaged')).toBeVisible();
  // Most recently active first: the first of them is shown.
  await expect(chat.rows).toHaveCount(3);
  await expect(chat.rows.nth(0)).toContainText('Conversation 2');
  await expect(chat.rows.nth(1)).toContainText('Conversation 1');
  await expect(chat.rows.nth(2)).toContainText('Fine despite its summary');
  await expect(chat.rows.filter({ hasText: 'Damaged one' })).toHaveCount(0);
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(chat.messages('assistant')).toContainText('Echo: Second one');

  // The app goes on working and saving.
  await chat.send('After the damage');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: After the damage');
  await page.reload();
  // Found unreadable once, it is no longer listed: both bad records are now reported at start.
  await expect(chat.toast('2 saved conversations could not be read and were skipped')).toBeVisible();
  await expect(chat.rows).toHaveCount(3);
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: After the damage');
  const stored = await readDbStore(page);
  expect(stored.map((record) => record.id)).toEqual(expect.arrayContaining(['junk', 'damaged', 'fine']));
});

test('legacy conversations in localStorage move into IndexedDB on first load, then the key is removed', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const legacy = [
    sampleConversation(
      'legacy-1',
      'Legacy chat',
      [['legacy question', 'legacy answer']],
      '2024-01-01T00:00:00.000Z',
    ),
    // Written by the oldest version: no provider, no timestamps.
    { id: 'legacy-2', name: 'Very old chat', messages: [{ role: 'user', content: 'ancient question' }] },
  ];
  await seedStorage(page, {
    'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))),
    'ai-chat-conversations': JSON.stringify(legacy),
    'ai-chat-active-conversation': 'legacy-1',
  });
  await chat.open();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.filter({ hasText: 'Legacy chat' })).toHaveAttribute('data-active', 'true');
  await expect(chat.messages('assistant')).toContainText('legacy answer');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('ai-chat-conversations'))).toBeNull();
  const records = await readDbStore(page);
  expect(records.map((record) => record.id).sort()).toEqual(['legacy-1', 'legacy-2']);
  // The record is the new written form: the same conversation, its messages now with ids.
  expect(records.find((record) => record.id === 'legacy-1')).toMatchObject({
    ...legacy[0],
    messages: (legacy[0]?.messages as Record<string, unknown>[]).map((message) =>
      expect.objectContaining(message),
    ),
  });

  expect(records.find((record) => record.id === 'legacy-2')).toMatchObject({
    name: 'Very old chat',
    provider: 'openai',
    // No system message was stored: an empty one (which sends nothing) is now the root.
    messages: [
      { role: 'system', content: '' },
      { role: 'user', content: 'ancient question' },
    ].map((message) => expect.objectContaining(message)),
  });

  await page.reload();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.messages('assistant')).toContainText('legacy answer');
});

test('migrated legacy conversations are listed by their last update, and the first of them is shown', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  // Stored in another order than they were last updated: the list follows the updates.
  const legacy = [
    sampleConversation('stored-first', 'Stored first', [['q1', 'a1']], '2024-09-01T00:00:00.000Z'),
    sampleConversation('stored-second', 'Stored second', [['q2', 'a2']], '2024-01-01T00:00:00.000Z'),
    sampleConversation('stored-third', 'Stored third', [['q3', 'a3']], '2024-05-01T00:00:00.000Z'),
  ];
  await seedStorage(page, {
    'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))),
    'ai-chat-conversations': JSON.stringify(legacy),
    'ai-chat-active-conversation': 'gone',
  });
  await chat.open();
  await expect(chat.rows).toHaveCount(3);
  for (const reload of [false, true]) {
    if (reload) await page.reload();
    await expect(chat.rows.nth(0)).toContainText('Stored first');
    await expect(chat.rows.nth(1)).toContainText('Stored third');
    await expect(chat.rows.nth(2)).toContainText('Stored second');
    // The saved active id is gone: the first one listed is shown.
    await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
    await expect(chat.messages('assistant')).toContainText('a1');
  }
});

test('an unreadable legacy conversation is reported and kept; the readable ones move over', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const legacy = [
    sampleConversation('legacy-ok', 'Readable', [['q', 'readable answer']], '2024-01-01T00:00:00.000Z'),
    { id: 'legacy-bad', name: 'Unreadable', messages: [{ role: 'user', content: 42 }] },
  ];
  await seedStorage(page, { 'ai-chat-conversations': JSON.stringify(legacy) });
  await chat.open();
  await expect(chat.toast('Some conversations saved by an older version could not be read')).toContainText(
    'ai-chat-conversations[1].messages[0].content must be a string',
  );
  await expect(chat.rows).toHaveCount(1);
  await expect(chat.messages('assistant')).toContainText('readable answer');
  // Nothing is thrown away: the old key stays until everything in it can be moved.
  expect(await page.evaluate(() => localStorage.getItem('ai-chat-conversations'))).toBe(
    JSON.stringify(legacy),
  );
});

test('a database of the same name without our stores does not stop the app', async ({ page }) => {
  const chat = new ChatPage(page);
  // Made before the app ever ran (the not-found page does not start the app), at the app's own
  // version (3), so the app has no upgrade in which to add its stores.
  await page.goto('/elsewhere');
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('ai-chat', 3);
        open.onupgradeneeded = () => open.result.createObjectStore('something-else');
        open.onsuccess = () => {
          open.result.close();
          resolve();
        };
        open.onerror = () => reject(open.error ?? new Error('open failed'));
      }),
  );
  await chat.open(mockConfig('openai', mockKey('ok')));
  await expect(chat.toast('Conversations are not being saved')).toBeVisible();
  await chat.newConversation();
  await chat.send('Works anyway?');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('Echo: Works anyway?');
});
