import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { deflatedZeros, zipOf } from '../../tools/fixtures/zip-bomb.mjs';
import {
  ChatPage,
  expect,
  exportSnapshot,
  mockConfig,
  mockKey,
  openDataDialog,
  sampleConversation,
  test,
} from './fixtures.ts';
import { longestTask, resetLongTasks, watchLongTasks } from './long-tasks.ts';

/**
 * Hostile imports: ZIP bombs, JSON too large or too deep, ChatGPT trees that loop. Each ends with a
 * clear message, never a page frozen or a dialog busy forever, and loses nothing: the file is read
 * in a worker, bounded (src/state/import-limits.ts). The hostile files are built here, never kept.
 */

const MiB = 1024 * 1024;
/** The longest main-thread task allowed while a hostile file is read. */
const budgetMs = 200;
const invalidFormat = 'Error importing data: Invalid format';

/** The app with a conversation worth keeping, the Import tab open, and long tasks watched. */
async function openWithData(page: Page): Promise<{ chat: ChatPage; before: string }> {
  await watchLongTasks(page);
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.ask('Keep me');
  const before = await exportSnapshot(page);
  await openDataDialog(page, 'Import');
  return { chat, before };
}

/**
 * Chooses a file in the Import tab (written to disk first: a buffer would be rebuilt in the page by
 * the test harness, a long task of its own), measuring long tasks from here on.
 */
async function choose(page: Page, name: string, content: Parameters<typeof writeFile>[1]): Promise<number> {
  const path = test.info().outputPath(name);
  await writeFile(path, content);
  await resetLongTasks(page);
  const chosen = Date.now();
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(path);
  return chosen;
}

/** No main-thread task over the budget since the file was chosen (noted in the report). */
async function expectNoLongTask(page: Page): Promise<void> {
  const longest = await longestTask(page);
  test.info().annotations.push({ type: 'longest task', description: `${longest} ms` });
  expect(longest, 'longest task while reading').toBeLessThan(budgetMs);
}

/** The file's data is all still there, in memory and after a reload. */
async function expectUntouched(page: Page, before: string): Promise<void> {
  await page.keyboard.press('Escape');
  expect(await exportSnapshot(page)).toBe(before);
  await page.reload();
  expect(await exportSnapshot(page)).toBe(before);
}

const chatGptNode = (id: string, parent: string | null, role: 'user' | 'assistant', parts: unknown[]) => ({
  id,
  parent,
  message: { author: { role }, create_time: 1756000001, content: { content_type: 'multimodal_text', parts } },
});
const chatGptChat = (id: string, title: string, mapping: Record<string, unknown>) => ({
  id,
  title,
  create_time: 1756000000,
  mapping,
});

test('a ZIP whose conversations.json unpacks to 1.2 GB is refused within seconds, naming the file and the limit', async ({
  page,
}) => {
  const { before } = await openWithData(page);
  // Sizes left out of the header, as a streaming zipper writes: only inflating finds them out.
  const bomb = zipOf([
    { name: 'conversations.json', data: deflatedZeros(1200), unpacked: 1200 * MiB, streamed: true },
  ]);
  expect(bomb.length).toBeLessThan(1.5 * MiB);
  const chosen = await choose(page, 'chatgpt-export.zip', bomb);
  await expect(page.getByRole('alert')).toHaveText(
    "The ZIP file's conversations.json is larger than 500 MB unpacked, more than can be read.",
    { timeout: 30_000 },
  );
  test.info().annotations.push({ type: 'refused after', description: `${Date.now() - chosen} ms` });
  await expectNoLongTask(page);
  await expectUntouched(page, before);
});

test('a ChatGPT ZIP whose images unpack to 800 MB each: the conversation comes in, the images are left out and counted', async ({
  chat,
  page,
}) => {
  const { before } = await openWithData(page);
  const pointer = (id: string) => ({
    content_type: 'image_asset_pointer',
    asset_pointer: `sediment://${id}`,
  });
  const json = JSON.stringify([
    chatGptChat('pics', 'Two pictures', {
      q: chatGptNode('q', null, 'user', [pointer('file-one'), pointer('file-two'), 'Look at these']),
    }),
  ]);
  const bomb = zipOf([
    { name: 'conversations.json', data: Buffer.from(json) },
    // One declares its size, the other leaves it to the inflating.
    { name: 'file-one-photo.png', data: deflatedZeros(800), unpacked: 800 * MiB },
    { name: 'file-two-photo.png', data: deflatedZeros(800), unpacked: 800 * MiB, streamed: true },
  ]);
  const chosen = await choose(page, 'chatgpt-export.zip', bomb);
  await expect(page.getByText('ChatGPT export: 1 conversation')).toBeVisible({ timeout: 30_000 });
  test.info().annotations.push({ type: 'found after', description: `${Date.now() - chosen} ms` });
  await expect(page.getByText('2 images were left out: larger than 50 MB unpacked.')).toBeVisible();
  await expectNoLongTask(page);
  await page.getByRole('button', { name: 'Add 1 conversation' }).click();
  await expect(chat.toast('Imported 1 conversation from the ChatGPT export')).toBeVisible();
  await expect(chat.rows).toHaveCount(2);
  await chat.rows.filter({ hasText: 'Two pictures' }).getByRole('button').first().click();
  await expect(chat.messages('user')).toHaveText(/\[image\]\s*\[image\]\s*Look at these/);
  // What was here before is as it was.
  await chat.rows.filter({ hasNotText: 'Two pictures' }).getByRole('button').first().click();
  await expect(chat.messages('assistant')).toContainText('Echo: Keep me');
  expect(before).toContain('Keep me');
});

test('a 200 MB export cut short gets its clear message without a long task on the page', async ({ page }) => {
  const { chat, before } = await openWithData(page);
  const entry = JSON.stringify(
    sampleConversation('big', 'Big', [['lorem ipsum dolor sit amet '.repeat(2000), 'ok']]),
  );
  const count = Math.ceil((200 * MiB) / (entry.length + 1));
  // Cut inside the last conversation, as an interrupted download is.
  const chosen = await choose(page, 'cut-short.json', [
    '{"version":"2.0","conversations":[',
    ...Array.from({ length: count }, () => `${entry},`),
    entry.slice(0, 1000),
  ]);
  await expect(chat.toast(invalidFormat).filter({ hasText: 'The file is not valid JSON' })).toBeVisible({
    timeout: 30_000,
  });
  test.info().annotations.push({ type: 'refused after', description: `${Date.now() - chosen} ms` });
  await expectNoLongTask(page);
  await expectUntouched(page, before);
});

test('a file of a million nested lists gets a clear message without a long task on the page', async ({
  page,
}) => {
  const { chat, before } = await openWithData(page);
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
  const chosen = await choose(page, 'deep.json', deep);
  await expect(chat.toast(invalidFormat).filter({ hasText: 'The file is nested too deeply' })).toBeVisible({
    timeout: 30_000,
  });
  test.info().annotations.push({ type: 'refused after', description: `${Date.now() - chosen} ms` });
  await expectNoLongTask(page);
  await expectUntouched(page, before);
});

test('a ChatGPT export with a parent cycle and a 200,000-node chain: the good conversation comes in, two are unreadable', async ({
  chat,
  page,
}) => {
  await watchLongTasks(page);
  await chat.open();
  const cycle: Record<string, unknown> = { leaf: chatGptNode('leaf', 'c0', 'user', ['In a loop']) };
  for (let index = 0; index < 1000; index++)
    cycle[`c${index}`] = { id: `c${index}`, parent: `c${(index + 1) % 1000}`, message: null };
  const chain: Record<string, unknown> = { leaf: chatGptNode('leaf', 'n199999', 'user', ['At the end']) };
  for (let index = 0; index < 200_000; index++)
    chain[`n${index}`] = { id: `n${index}`, parent: index === 0 ? null : `n${index - 1}`, message: null };
  const good = {
    q: chatGptNode('q', null, 'user', ['A fair question']),
    a: chatGptNode('a', 'q', 'assistant', ['A fair answer']),
  };
  const json = JSON.stringify([
    chatGptChat('cycle', 'Loop', cycle),
    chatGptChat('chain', 'Chain', chain),
    chatGptChat('good', 'Good one', good),
  ]);
  await openDataDialog(page, 'Import');
  await choose(page, 'conversations.json', json);
  await expect(page.getByText('ChatGPT export: 1 conversation')).toBeVisible();
  await expect(page.getByText('2 entries could not be read and will be left out.')).toBeVisible();
  await expectNoLongTask(page);
  await page.getByRole('button', { name: 'Add 1 conversation' }).click();
  await expect(chat.toast('Imported 1 conversation from the ChatGPT export')).toContainText(
    '2 entries could not be read and were left out.',
  );
  await expect(chat.rows).toHaveCount(1);
  await chat.rows.first().getByRole('button').first().click();
  await expect(chat.messages('assistant')).toContainText('A fair answer');
});
