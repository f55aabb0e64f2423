import { readFile, writeFile } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import { chatGptExport } from '../../tools/fixtures/chatgpt-export.mjs';
import { png } from './files.ts';
import {
  ChatPage,
  expect,
  mockConfig,
  mockKey,
  openDataDialog,
  readDbStore,
  recordedRequests,
  test,
} from './fixtures.ts';

/** Imports of other apps' exports: named and counted first, then added; the configuration stays. */

const fixture = (name: string) =>
  readFile(new URL(`../../src/domain/other-apps/__fixtures__/${name}`, import.meta.url), 'utf8');

/** Chooses a file in the Import tab (the dialog open). */
async function choose(chat: ChatPage, name: string, mimeType: string, buffer: Buffer | Uint8Array) {
  await chat.page
    .getByRole('dialog')
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType, buffer: Buffer.from(buffer) });
}

/** A ZIP laid out as the apps' own: conversations.json beside other files, maybe in a folder. */
function zipOf(json: string, folder = '') {
  return zipSync({
    [`${folder}conversations.json`]: strToU8(json),
    [`${folder}chat.html`]: strToU8('<html><script>alert(1)</script></html>'),
    [`${folder}user.json`]: strToU8('{"email":"someone@example.com"}'),
  });
}

test('a ChatGPT conversations.json: named and counted, added beside the others with its branches; the key stays', async ({
  page,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await openDataDialog(page, 'Import');
  await choose(
    chat,
    'conversations.json',
    'application/json',
    Buffer.from(await fixture('chatgpt-conversations.json')),
  );
  await expect(page.getByText('ChatGPT export: 2 conversations')).toBeVisible();
  await expect(page.getByText('1 entry could not be read and will be left out.')).toBeVisible();
  await page.getByRole('button', { name: 'Add 2 conversations' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(chat.toast('Imported 2 conversations from the ChatGPT export')).toBeVisible();
  await expect(chat.rows).toHaveCount(3);
  await expect(chat.rows.nth(0)).toContainText('Conversation 1');

  await chat.rows.filter({ hasText: 'Helm rollback' }).getByRole('button').first().click();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('helm rollback my-app 3');
  await expect(reply.getByTestId('message-version')).toHaveText('2 / 2');
  await reply.getByRole('button', { name: 'Previous version' }).click();
  await expect(chat.messages()).toHaveCount(4);
  await expect(chat.messages('assistant').last()).toContainText('helm history');
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}').apiKey).toBe(
    key,
  );

  // The same file again: nothing doubles.
  await openDataDialog(page, 'Import');
  await choose(
    chat,
    'conversations.json',
    'application/json',
    Buffer.from(await fixture('chatgpt-conversations.json')),
  );
  await page.getByRole('button', { name: 'Add 2 conversations' }).click();
  await expect(chat.toast('Imported 0 conversations from the ChatGPT export')).toContainText(
    '2 were already here',
  );
  await page.reload();
  await expect(chat.rows).toHaveCount(3);
});

test('ZIP exports of ChatGPT and Claude.ai are read as they stream in; a ZIP without conversations is refused', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await openDataDialog(page, 'Import');
  await choose(
    chat,
    'export.zip',
    'application/zip',
    zipOf(await fixture('claude-conversations.json'), 'data-2026/'),
  );
  await expect(page.getByText('Claude.ai export: 2 conversations')).toBeVisible();
  await page.getByRole('button', { name: 'Add 2 conversations' }).click();
  await expect(chat.rows.filter({ hasText: 'Trip plan' })).toHaveCount(1);
  await chat.rows.filter({ hasText: 'Trip plan' }).getByRole('button').first().click();
  await expect(chat.messages('assistant').last()).toContainText('Day 2: Trastevere.');
  await expect(chat.messages('user').first()).toContainText('Must see: the Pantheon.');

  await openDataDialog(page, 'Import');
  await choose(chat, 'chatgpt.zip', 'application/zip', zipOf(await fixture('chatgpt-conversations.json')));
  await expect(page.getByText('ChatGPT export: 2 conversations')).toBeVisible();
  // The warning says what will happen: added, not overwritten (the spec's words for our own format).
  const overwrite = page.getByText(
    'Warning: Importing data will overwrite your existing configuration and conversations.',
  );
  await expect(
    page.getByText('These will be added to your conversations; nothing is overwritten.'),
  ).toBeVisible();
  await expect(overwrite).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('ChatGPT export: 2 conversations')).toHaveCount(0);
  await expect(overwrite).toBeVisible();

  await choose(chat, 'photos.zip', 'application/zip', zipSync({ 'photo.txt': strToU8('not a chat') }));
  await expect(page.getByRole('alert')).toHaveText('The ZIP file holds no conversations.json.');
  await page.keyboard.press('Escape');
  await expect(chat.rows).toHaveCount(2);
});

test('BetterChatGPT and NextChat, pasted or chosen; NextChat keys are never taken in', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await openDataDialog(page, 'Import');
  await page.getByPlaceholder('Paste JSON data here...').fill(await fixture('betterchatgpt-export.json'));
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(page.getByText('BetterChatGPT export: 2 conversations')).toBeVisible();
  await page.getByRole('button', { name: 'Add 2 conversations' }).click();
  await expect(chat.rows).toHaveCount(2);

  await openDataDialog(page, 'Import');
  await choose(
    chat,
    'Backup-2026-7-6.json',
    'application/json',
    Buffer.from(await fixture('nextchat-backup.json')),
  );
  await expect(page.getByText('NextChat backup: 2 conversations')).toBeVisible();
  await page.getByRole('button', { name: 'Add 2 conversations' }).click();
  await expect(chat.rows).toHaveCount(4);
  await chat.rows.filter({ hasText: 'Regex help' }).last().getByRole('button').first().click();
  await expect(chat.messages('user').last()).toContainText('And in this screenshot?');
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).not.toContain('sk-secret');
  expect(stored).not.toContain('sk-ant-secret');
});

test('a ChatGPT ZIP: the images its messages point to come along as attachments, and go with the next question', async ({
  page,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await openDataDialog(page, 'Import');
  const zip = zipSync({
    'conversations.json': strToU8(await fixture('chatgpt-conversations.json')),
    // As ChatGPT names them: the pointer's id, then the original name.
    'file-abc-cat.png': png(80, 60),
    'file-unused-other.png': png(8, 8),
  });
  await choose(chat, 'chatgpt.zip', 'application/zip', zip);
  await page.getByRole('button', { name: 'Add 2 conversations' }).click();
  await chat.rows.filter({ hasText: 'Photo of a cat' }).getByRole('button').first().click();
  const question = chat.messages('user').first();
  await expect(question.getByRole('list', { name: 'Attached files' })).toBeVisible();
  const opener = question.getByRole('button', { name: 'Open file-abc-cat.png' });
  // The thumbnail is drawn from the stored bytes: the image's own size.
  await expect
    .poll(() => opener.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(80);
  await expect(question).not.toContainText('[image]');

  await chat.send('And its colour?');
  await chat.waitForReplyDone();
  const [request] = await recordedRequests(key);
  const sent = JSON.stringify((request?.body as { messages: unknown[] }).messages);
  expect(sent).toContain(`data:image/png;base64,${Buffer.from(png(80, 60)).toString('base64')}`);

  await page.reload();
  await expect(
    chat.messages('user').first().getByRole('button', { name: 'Open file-abc-cat.png' }),
  ).toBeVisible();
});

// The 200 MB export (2000 conversations) is read by the benchmark (`npm run bench -- --only=import`),
// which times it and checks what was stored; here, the same file at a fiftieth of the size.
test('a ChatGPT export as ChatGPT sends it (ZIP, 4 MB): named, then every conversation added as exported', async ({
  page,
}, testInfo) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  const json = chatGptExport(40);
  const path = testInfo.outputPath('chatgpt-export.zip');
  await writeFile(path, zipSync({ 'conversations.json': strToU8(json) }, { level: 6 }));
  await openDataDialog(page, 'Import');
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(path);
  await expect(page.getByText('ChatGPT export: 40 conversations')).toBeVisible();
  await page.getByRole('button', { name: 'Add 40 conversations' }).click();
  await expect(chat.toast('Imported 40 conversations from the ChatGPT export')).toBeVisible();
  await expect(chat.rows.filter({ hasText: 'Imported chat 40' })).toHaveCount(1);
  expect(await readDbStore(page, 'summaries')).toHaveLength(40);
  const [sample] = (await readDbStore(page)).filter((record) => record.id === 'chatgpt-bench-12');
  expect(sample).toMatchObject({ name: 'Imported chat 13' });
  // The system message and the twelve of the export, on one branch.
  expect(sample?.messages).toHaveLength(13);
});
