import { writeFile } from 'node:fs/promises';
import {
  ChatPage,
  expect,
  exportSnapshot,
  mockConfig,
  mockKey,
  openDataDialog,
  readDbStore,
  sampleConversation,
  seedStorage,
  test,
  writeDbRecords,
} from './fixtures.ts';
import { mockUrl } from './ports.ts';
import type { Page } from '@playwright/test';

const invalidFormat = 'Error importing data: Invalid format';

/** Some real data to protect: one conversation with a reply, one renamed and empty. */
async function useTheApp(chat: ChatPage): Promise<void> {
  await chat.newConversation();
  await chat.send('Keep me');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('Echo: Keep me');
  await chat.newConversation();
  // The newest on top, and a rename does not move it.
  await chat.rows.nth(0).hover();
  await chat.rows.nth(0).getByRole('button', { name: 'Rename conversation' }).click();
  await chat.page.getByRole('textbox', { name: 'Conversation name' }).fill('Second thoughts');
  await chat.page.getByRole('textbox', { name: 'Conversation name' }).press('Enter');
  await expect(chat.rows.nth(0)).toContainText('Second thoughts');
}

/**
 * Pastes a file into the Import tab (open) and expects the refusal with this description. Each
 * case's description is distinct, so an earlier toast cannot stand in for a later one.
 */
async function expectRefused(chat: ChatPage, text: string, problem: RegExp): Promise<void> {
  const { page } = chat;
  await page.getByPlaceholder('Paste JSON data here...').fill(text);
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(chat.toast(invalidFormat).filter({ hasText: problem })).toBeVisible();
  // The dialog stays open, so the user can fix the text and try again.
  await expect(page.getByRole('dialog', { name: 'Import / Export Data' })).toBeVisible();
}

async function openAndUse(page: Page): Promise<ChatPage> {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await useTheApp(chat);
  return chat;
}

const conversation = (fields: Record<string, unknown>) => ({
  ...sampleConversation('c1', 'Fine', [['q', 'a']]),
  ...fields,
});

const badFiles: [string, unknown, RegExp][] = [
  ['not an object', 'just a string', /The file must hold an object \(found a string\)/],
  ['neither config nor conversations', { version: '2.0' }, /neither a config nor conversations/],
  ['unknown version', { version: '3.1', conversations: [] }, /version must be "2\.0" \(found "3\.1"\)/],
  [
    'conversations not a list',
    { conversations: 'all of them' },
    /conversations must be a list \(found a string\)/,
  ],
  [
    'name of the wrong type',
    { conversations: [conversation({ name: 5 })] },
    /conversations\[0\]\.name must be a string \(found a number\)/,
  ],
  [
    'missing id',
    { conversations: [conversation({ id: undefined })] },
    /conversations\[0\]\.id must be a non-empty string/,
  ],
  [
    'missing messages',
    { conversations: [conversation({ messages: undefined })] },
    /conversations\[0\]\.messages must be a list \(found nothing\)/,
  ],
  [
    'message without content',
    { conversations: [conversation({ messages: [{ role: 'user' }] })] },
    /conversations\[0\]\.messages\[0\]\.content must be a string \(found nothing\)/,
  ],
  [
    'content of the wrong type',
    { conversations: [conversation({ messages: [{ role: 'user', content: { text: 'hi' } }] })] },
    /messages\[0\]\.content must be a string \(found an object\)/,
  ],
  [
    'bad timestamp',
    { conversations: [conversation({ createdAt: 'yesterday' })] },
    /conversations\[0\]\.createdAt must be an ISO timestamp/,
  ],
  [
    'unknown provider in a conversation',
    { conversations: [conversation({ provider: 'skynet' })] },
    /conversations\[0\]\.provider must be one of/,
  ],
  [
    'duplicate ids',
    { conversations: [conversation({ id: 'dup' }), conversation({ id: 'dup', name: 'Again' })] },
    /conversations\[1\]\.id "dup" is already used by conversations\[0\]/,
  ],
  [
    'a branch whose parent is not in the conversation',
    {
      conversations: [
        conversation({
          messages: [
            { id: 'm0', role: 'system', content: 'You are a helpful assistant.' },
            { id: 'm1', role: 'user', content: 'q' },
          ],
          otherMessages: [{ id: 'm2', parentId: 'nowhere', role: 'assistant', content: 'a' }],
        }),
      ],
    },
    /conversations\[0\]\.otherMessages\[0\]\.parentId "nowhere" names no message of this conversation/,
  ],
  [
    'branches whose parents form a cycle',
    {
      conversations: [
        conversation({
          messages: [{ id: 'm0', role: 'system', content: 'You are a helpful assistant.' }],
          otherMessages: [
            { id: 'x', parentId: 'y', role: 'user', content: 'q' },
            { id: 'y', parentId: 'x', role: 'assistant', content: 'a' },
          ],
        }),
      ],
    },
    /conversations\[0\]\.otherMessages\[0\]: its parents form a cycle/,
  ],
  [
    'a message id used twice',
    {
      conversations: [
        conversation({
          messages: [
            { id: 'm0', role: 'system', content: 'You are a helpful assistant.' },
            { id: 'm1', role: 'user', content: 'q' },
          ],
          otherMessages: [{ id: 'm1', parentId: 'm0', role: 'user', content: 'again' }],
        }),
      ],
    },
    /conversations\[0\]\.otherMessages\[0\]\.id "m1" is already used by conversations\[0\]\.messages\[1\]/,
  ],
  ['config of the wrong type', { config: 'openai' }, /config must be an object \(found a string\)/],
  [
    'config field of the wrong type',
    { config: { provider: 'openai', temperature: 'warm' } },
    /config\.temperature must be a number \(found a string\)/,
  ],
  ['unknown provider', { config: { provider: 'skynet' } }, /config\.provider must be one of/],
  [
    'active id of the wrong type',
    { conversations: [conversation({})], activeConversationId: 7 },
    /activeConversationId must be a string or null \(found a number\)/,
  ],
  // One bad conversation after good ones: nothing of the file is taken.
  [
    'bad last item',
    {
      conversations: [
        conversation({ id: 'g1' }),
        conversation({ id: 'g2' }),
        conversation({ id: 'g3', messages: [{ role: 'user', content: 1 }] }),
      ],
    },
    /conversations\[2\]\.messages\[0\]\.content must be a string/,
  ],
];

const groups: [string, string[]][] = [
  [
    'the file and its configuration',
    [
      'not an object',
      'neither config nor conversations',
      'unknown version',
      'config of the wrong type',
      'config field of the wrong type',
      'unknown provider',
    ],
  ],
  [
    'conversation fields',
    [
      'name of the wrong type',
      'missing id',
      'missing messages',
      'message without content',
      'content of the wrong type',
      'bad timestamp',
    ],
  ],
  [
    'the conversation list',
    [
      'conversations not a list',
      'unknown provider in a conversation',
      'duplicate ids',
      'active id of the wrong type',
      'bad last item',
    ],
  ],
  [
    'message trees',
    [
      'a branch whose parent is not in the conversation',
      'branches whose parents form a cycle',
      'a message id used twice',
    ],
  ],
];
const halves = groups.map(
  ([what, names]) => [what, badFiles.filter(([name]) => names.includes(name))] as const,
);
test('every bad file case is in a group', () => {
  expect(halves.flatMap(([, files]) => files)).toHaveLength(badFiles.length);
});

for (const [what, files] of halves) {
  test(`import: bad ${what} are refused, naming the problem, changing nothing`, async ({ page }) => {
    const chat = await openAndUse(page);
    const before = await exportSnapshot(page);
    await openDataDialog(page, 'Import');
    for (const [, file, problem] of files) await expectRefused(chat, JSON.stringify(file), problem);
    await page.keyboard.press('Escape');
    expect(await exportSnapshot(page)).toBe(before);
    await page.reload();
    expect(await exportSnapshot(page)).toBe(before);
  });
}

test('import: __proto__ keys and deep nesting are refused without polluting anything', async ({ page }) => {
  const chat = await openAndUse(page);
  const before = await exportSnapshot(page);
  await openDataDialog(page, 'Import');

  // Everything hidden behind __proto__: a careless merge would take it (and pollute Object.prototype).
  const smuggled = JSON.stringify({
    version: '2.0',
    config: { provider: 'groq', apiKey: 'stolen' },
    conversations: [sampleConversation('evil', 'Evil')],
    polluted: 'root',
  });
  await expectRefused(chat, `{"__proto__": ${smuggled}}`, /"__proto__" key at the top level/);
  // Otherwise valid files carrying __proto__ anywhere are hostile by construction: refused.
  const nested = JSON.stringify({
    conversations: [sampleConversation('p1', 'Nested', [['q', 'a']])],
  }).replace('"role":"user"', '"__proto__":{"polluted":"message","status":"stopped"},"role":"user"');
  await expectRefused(chat, nested, /"__proto__" key at conversations\[0\]\.messages\[1\]/);
  const inConfig =
    '{"config": {"provider": "openai", "__proto__": {"polluted": "config", "apiKey": "evil"}}}';
  await expectRefused(chat, inConfig, /"__proto__" key at config/);

  const depth = 100_000;
  const deep = '['.repeat(depth) + ']'.repeat(depth);
  await expectRefused(
    chat,
    deep,
    /nested too deeply at \[0\]|conversations\[0\] must be an object \(found a list\)/,
  );
  const deepObjects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  await expectRefused(chat, deepObjects, /nested too deeply at a\.a|neither a config nor conversations/);
  const deepInContent = JSON.stringify({ conversations: [conversation({})] }).replace(
    '"content":"q"',
    `"content":${deep}`,
  );
  await expectRefused(
    chat,
    deepInContent,
    /nested too deeply at conversations\[0\]\.messages\[1\]\.content|messages\[1\]\.content must be a string \(found a list\)/,
  );

  const polluted = await page.evaluate(() => {
    const probe: Record<string, unknown> = {};
    return [probe.polluted, probe.status, probe.apiKey, Object.keys(Object.prototype).length];
  });
  expect(polluted).toEqual([undefined, undefined, undefined, 0]);
  await page.keyboard.press('Escape');
  expect(await exportSnapshot(page)).toBe(before);
});

test('import: a 50 MB file through the file picker gets a clear message, the app stays responsive, nothing changes', async ({
  page,
}, testInfo) => {
  const chat = await openAndUse(page);
  const before = await exportSnapshot(page);

  // Valid JSON all the way, 50 MB of plausible conversations, with one bad message at the very end:
  // the whole file must be checked before anything is replaced.
  const filler = 'lorem ipsum dolor sit amet '.repeat(400);
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < 50 * 1024 * 1024; index++) {
    const item = JSON.stringify(
      conversation({ id: `big-${index}`, messages: [{ role: 'user', content: filler }] }),
    );
    parts.push(item);
    size += item.length + 1;
  }
  const last = parts.length;
  parts.push(JSON.stringify(conversation({ id: 'bad', messages: [{ role: 'wizard', content: 'x' }] })));
  const path = testInfo.outputPath('big-import.json');
  await writeFile(path, `{"version":"2.0","conversations":[${parts.join(',')}]}`);

  await openDataDialog(page, 'Import');
  // Measures how long the main thread is blocked at most while the file is read and checked.
  await page.evaluate(() => {
    const w = window as unknown as { __maxGap: number };
    w.__maxGap = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      w.__maxGap = Math.max(w.__maxGap, now - last);
      last = now;
    }, 20);
  });
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(path);
  await expect(
    chat.toast(invalidFormat).filter({ hasText: `conversations[${last}].messages[0].role` }),
  ).toBeVisible({ timeout: 10_000 });
  const maxGap = await page.evaluate(() => (window as unknown as { __maxGap: number }).__maxGap);
  expect(maxGap).toBeLessThan(4_000);

  // Responsive: the dialog closes and the sidebar works at once.
  await page.keyboard.press('Escape');
  await chat.rows.nth(1).getByRole('button').first().click();
  await expect(chat.rows.nth(1)).toHaveAttribute('data-active', 'true', { timeout: 1_000 });
  await chat.rows.nth(0).getByRole('button').first().click();
  expect(await exportSnapshot(page)).toBe(before);
});

test('import: a legacy file (no version, azure config without provider) is accepted', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  const azureKey = mockKey('ok');
  const legacy = {
    config: {
      apiKey: azureKey,
      endpoint: mockUrl,
      deploymentName: 'gpt-4o-test',
      apiVersion: '2024-10-21',
      temperature: 0.5,
      maxTokens: 600,
    },
    conversations: [
      {
        id: 'old-1',
        name: 'From the old app',
        messages: [
          { role: 'user', content: 'Old question' },
          { role: 'assistant', content: 'Old answer' },
        ],
      },
      { id: 'old-2', name: 'Second old one', messages: [] },
    ],
  };
  await openDataDialog(page, 'Import');
  await page.getByPlaceholder('Paste JSON data here...').fill(JSON.stringify(legacy));
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(chat.toast('Data imported successfully')).toBeVisible();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toContainText('From the old app');
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(chat.messages('assistant')).toContainText('Old answer');
  await expect(page.getByTestId('provider-badge')).toHaveText('Azure OpenAI');
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored).toMatchObject({
    provider: 'azure',
    deploymentName: 'gpt-4o-test',
    apiKey: azureKey,
    temperature: 0.5,
  });
  const records = await readDbStore(page);
  expect(records.map((record) => [record.id, record.provider])).toEqual([
    ['old-1', 'azure'],
    ['old-2', 'azure'],
  ]);

  // The imported azure configuration really works.
  await chat.send('Still there?');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: Still there?');
});

test('import then Undo restores the previous state exactly, in memory and in storage', async ({ page }) => {
  const chat = await openAndUse(page);
  const before = await exportSnapshot(page);

  const replacement = {
    version: '2.0',
    config: {
      provider: 'claude',
      model: 'claude-haiku-4-5',
      maxTokens: 1000,
      temperature: 0.2,
      apiKey: 'other-key',
    },
    conversations: [sampleConversation('x1', 'Replacement', [['new q', 'new a']])],
    activeConversationId: 'x1',
  };
  await openDataDialog(page, 'Import');
  await page.getByPlaceholder('Paste JSON data here...').fill(JSON.stringify(replacement));
  await page.getByRole('button', { name: 'Import Data' }).click();
  const success = chat.toast('Data imported successfully');
  await expect(success).toBeVisible();
  await expect(chat.rows).toHaveCount(1);
  await expect(page.getByTestId('provider-badge')).toHaveText('Claude');
  expect(await exportSnapshot(page)).not.toBe(before);

  await success.getByRole('button', { name: 'Undo' }).click();
  await expect(chat.toast('Import undone')).toBeVisible();
  await expect(chat.rows).toHaveCount(2);
  expect(await exportSnapshot(page)).toBe(before);
  expect(await page.evaluate(() => localStorage.getItem('ai-chat-config'))).toContain('"provider":"openai"');
  await page.reload();
  expect(await exportSnapshot(page)).toBe(before);
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
});

test('a corrupted saved configuration does not stop the app: defaults, a notice, the conversations shown', async ({
  page,
}) => {
  const chat = await openAndUse(page);
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
  // version (2), so the app has no upgrade in which to add its stores.
  await page.goto('/elsewhere');
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('ai-chat', 2);
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
