import {
  ChatPage,
  expect,
  expectImportRefused,
  exportSnapshot,
  mockConfig,
  mockKey,
  openDataDialog,
  openWithData,
  readDbStore,
  sampleConversation,
  test,
} from './fixtures.ts';
import { mockUrl } from './ports.ts';

/**
 * Imports that must not go through: each refused whole, naming the problem, changing nothing. The
 * validator's every case is a unit test (src/domain/import-refusals.test.ts); here, one file of
 * each kind through the page, and what the page must never do with them. Large and deep files,
 * measured for long tasks, are in hostile-imports.spec.ts.
 */

const conversation = (fields: Record<string, unknown>) => ({
  ...sampleConversation('c1', 'Fine', [['q', 'a']]),
  ...fields,
});

test('import: bad files of each kind are refused, naming the problem, changing nothing', async ({ page }) => {
  const chat = await openWithData(page);
  const before = await exportSnapshot(page);
  await openDataDialog(page, 'Import');
  const files: [unknown, RegExp][] = [
    [
      { config: { provider: 'openai', temperature: 'warm' } },
      /config\.temperature must be a number \(found a string\)/,
    ],
    [
      { conversations: [conversation({ messages: [{ role: 'user', content: { text: 'hi' } }] })] },
      /messages\[0\]\.content must be a string \(found an object\)/,
    ],
    // One bad conversation after good ones: nothing of the file is taken.
    [
      {
        conversations: [
          conversation({ id: 'g1' }),
          conversation({ id: 'g2' }),
          conversation({ id: 'g3', messages: [{ role: 'user', content: 1 }] }),
        ],
      },
      /conversations\[2\]\.messages\[0\]\.content must be a string/,
    ],
    [
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
  ];
  for (const [file, problem] of files) await expectImportRefused(chat, JSON.stringify(file), problem);
  await expectImportRefused(chat, '{"version": "2.0", "conversations": [', /The file is not valid JSON/);
  await page.keyboard.press('Escape');
  expect(await exportSnapshot(page)).toBe(before);
  await page.reload();
  expect(await exportSnapshot(page)).toBe(before);
});

test('import: __proto__ keys and deep nesting are refused without polluting anything', async ({ page }) => {
  const chat = await openWithData(page);
  const before = await exportSnapshot(page);
  await openDataDialog(page, 'Import');

  // Everything hidden behind __proto__: a careless merge would take it (and pollute Object.prototype).
  const smuggled = JSON.stringify({
    version: '2.0',
    config: { provider: 'groq', apiKey: 'stolen' },
    conversations: [sampleConversation('evil', 'Evil')],
    polluted: 'root',
  });
  await expectImportRefused(chat, `{"__proto__": ${smuggled}}`, /"__proto__" key at the top level/);
  // Otherwise valid files carrying __proto__ anywhere are hostile by construction: refused.
  const nested = JSON.stringify({
    conversations: [sampleConversation('p1', 'Nested', [['q', 'a']])],
  }).replace('"role":"user"', '"__proto__":{"polluted":"message","status":"stopped"},"role":"user"');
  await expectImportRefused(chat, nested, /"__proto__" key at conversations\[0\]\.messages\[1\]/);
  const inConfig =
    '{"config": {"provider": "openai", "__proto__": {"polluted": "config", "apiKey": "evil"}}}';
  await expectImportRefused(chat, inConfig, /"__proto__" key at config/);

  // Ten times deeper than the limit (a million levels are read from a file in hostile-imports).
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  await expectImportRefused(chat, deep(10_000), /nested too deeply at \[0\]/);
  await expectImportRefused(
    chat,
    '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
    /nested too deeply at a\.a/,
  );
  const deepInContent = JSON.stringify({ conversations: [conversation({})] }).replace(
    '"content":"q"',
    `"content":${deep(10_000)}`,
  );
  await expectImportRefused(
    chat,
    deepInContent,
    /nested too deeply at conversations\[0\]\.messages\[1\]\.content/,
  );

  const polluted = await page.evaluate(() => {
    const probe: Record<string, unknown> = {};
    return [probe.polluted, probe.status, probe.apiKey, Object.keys(Object.prototype).length];
  });
  expect(polluted).toEqual([undefined, undefined, undefined, 0]);
  await page.keyboard.press('Escape');
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
  const chat = await openWithData(page);
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
