import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  ChatPage,
  deleteRow,
  expect,
  mockConfig,
  mockKey,
  openDataDialog,
  sampleConversation,
  seedStorage,
  test,
} from './fixtures.ts';

/** How many backups the browser holds (0 before the backup database exists). */
function backupCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'ai-chat-backups')) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('ai-chat-backups');
      open.onerror = () => reject(open.error ?? new Error('open failed'));
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('backups')) return resolve(0);
        const request = db.transaction('backups').objectStore('backups').count();
        request.onsuccess = () => {
          db.close();
          resolve(request.result);
        };
      };
    });
  });
}

function backupList(page: Page) {
  return page.getByRole('list', { name: 'Backups' }).getByRole('listitem');
}

/** 'Restore' on the newest backup, then 'Restore' in the question it asks first. */
async function confirmRestore(page: Page) {
  await backupList(page).first().getByRole('button', { name: 'Restore' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: /^Replace your/ })
    .getByRole('button', { name: 'Restore' })
    .click();
}

test('the day’s backup is taken once a conversation is saved, and restores everything with Undo', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const key = mockKey('ok');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await chat.ask('Keep this safe');
  await expect.poll(() => backupCount(page)).toBe(1);

  await openDataDialog(page, 'Import');
  await expect(backupList(page)).toHaveCount(1);
  await expect(backupList(page)).toContainText('1 conversation');
  // Nothing has changed since: another backup would be the same.
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Nothing changed' })).toHaveText(
    'Nothing changed since the last backup.',
  );

  // The backup is the export file of that day, without the key.
  const downloading = page.waitForEvent('download');
  await backupList(page).getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^azure-openai-chat-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile(await download.path(), 'utf8');
  expect(text).toContain('Keep this safe');
  expect(text).not.toContain(key);
  await page.keyboard.press('Escape');

  // Lose it, start something else, then restore.
  await deleteRow(chat, 0);
  await chat.newConversation();
  await chat.ask('Something new');
  await expect(chat.rows).toHaveCount(1);
  await openDataDialog(page, 'Import');
  await confirmRestore(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(chat.toast('Backup restored')).toBeVisible();
  await expect(chat.rows).toHaveCount(1);
  await expect(chat.messages('user')).toHaveCount(1);
  await expect(chat.messages('user')).toContainText('Keep this safe');
  // The key stays: the next question is answered.
  await chat.ask('Still there?');
  await expect(chat.messages('assistant').last()).toContainText('Still there?');

  await page.reload();
  await expect(chat.messages('user')).toHaveCount(2);
  await expect(chat.messages('user').last()).toContainText('Still there?');
});

test('Undo puts back what a restore replaced', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.ask('First');
  await expect.poll(() => backupCount(page)).toBe(1);
  await chat.newConversation();
  await chat.ask('Second');
  await expect(chat.rows).toHaveCount(2);

  await openDataDialog(page, 'Import');
  // Asked first: Cancel changes nothing.
  const question = page.getByText(/^Replace your 2 conversations and settings with the backup of .+\?$/);
  await backupList(page).getByRole('button', { name: 'Restore' }).click();
  await expect(question).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toHaveCount(0);
  await expect(chat.rows).toHaveCount(2);
  await confirmRestore(page);
  await expect(chat.rows).toHaveCount(1);
  await chat.toast('Backup restored').getByRole('button', { name: 'Undo' }).click();
  await expect(chat.toast('Restore undone')).toBeVisible();
  await expect(chat.rows).toHaveCount(2);
});

test('a database of an earlier version is backed up before it is upgraded', async ({ page }) => {
  const chat = new ChatPage(page);
  const record = sampleConversation('old', 'From release 1', [['Old question', 'Old answer']]);
  // The first release's database: version 1, without the attachment store. The not-found page
  // does not start the app.
  await page.goto('/elsewhere');
  await page.evaluate(
    (value) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('ai-chat', 1);
        open.onupgradeneeded = () => {
          open.result.createObjectStore('conversations', { keyPath: 'id' });
          open.result.createObjectStore('summaries', { keyPath: 'id' });
        };
        open.onsuccess = () => {
          const tx = open.result.transaction('conversations', 'readwrite');
          tx.objectStore('conversations').put(value);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
        };
        open.onerror = () => reject(open.error ?? new Error('open failed'));
      }),
    record,
  );
  await chat.open(mockConfig('openai', mockKey('ok')));
  await expect(chat.rows).toHaveCount(1);
  await expect(chat.messages('assistant')).toContainText('Old answer');
  expect(
    await page.evaluate(
      async () => (await indexedDB.databases()).find((db) => db.name === 'ai-chat')?.version,
    ),
  ).toBe(3);

  await openDataDialog(page, 'Import');
  await expect(backupList(page)).toHaveCount(1);
  await expect(backupList(page)).toContainText('1 conversation');
  await expect(backupList(page)).toContainText('before an upgrade');
});

test('release 1’s saved conversations are backed up before they move', async ({ page }) => {
  const chat = new ChatPage(page);
  const legacy = [sampleConversation('legacy', 'Saved long ago', [['Old question', 'Old answer']])];
  await seedStorage(page, { 'ai-chat-conversations': JSON.stringify(legacy) });
  await chat.open(mockConfig('openai', mockKey('ok')));
  await expect(chat.rows).toHaveCount(1);
  await openDataDialog(page, 'Import');
  await expect(backupList(page)).toHaveCount(1);
  await expect(backupList(page)).toContainText('before an upgrade');
});

test('with nothing saved there is no backup, and Back up now says so', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await openDataDialog(page, 'Import');
  await expect(page.getByText('No backups yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'no conversations' })).toHaveText(
    'There are no conversations to back up yet.',
  );
});
