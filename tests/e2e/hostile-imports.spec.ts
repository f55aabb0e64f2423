import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { deflatedZeros, zipOf } from '../../tools/fixtures/zip-bomb.mjs';
import {
  expect,
  exportSnapshot,
  openDataDialog,
  openWithData,
  sampleConversation,
  test,
} from './fixtures.ts';
import { longestTask, watchTasks } from './long-tasks.ts';
import type { ChatPage } from './fixtures.ts';

/**
 * Hostile imports: ZIP bombs, JSON too large or too deep, ChatGPT trees that loop. Each ends with a
 * clear message, never a page frozen or a dialog busy forever, and loses nothing: the file is read
 * in a worker, bounded (src/state/import-limits.ts). The hostile files are built here, never kept.
 */

const MiB = 1024 * 1024;
/** The longest main-thread task allowed while a hostile file is read. */
const budgetMs = 200;
const invalidFormat = 'Error importing data: Invalid format';

/** The app with conversations worth keeping, the Import tab open. */
async function openForImport(page: Page): Promise<{ chat: ChatPage; before: string }> {
  const chat = await openWithData(page);
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
  await watchTasks(page);
  const chosen = Date.now();
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(path);
  return chosen;
}

/** No main-thread task over the budget (CPU time) since the file was chosen (noted in the report). */
async function expectNoLongTask(page: Page): Promise<void> {
  const longest = await longestTask(page);
  test.info().annotations.push({
    type: 'longest task',
    description: `${longest.cpuMs.toFixed(0)} ms of CPU (${longest.wallMs.toFixed(0)} ms wall)`,
  });
  expect(longest.cpuMs, 'longest task while reading (CPU ms)').toBeLessThan(budgetMs);
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
  const { before } = await openForImport(page);
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
  const { before } = await openForImport(page);
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
  await expect(chat.rows).toHaveCount(3);
  await chat.rows.filter({ hasText: 'Two pictures' }).getByRole('button').first().click();
  await expect(chat.messages('user')).toHaveText(/\[image\]\s*\[image\]\s*Look at these/);
  // What was here before is as it was.
  await chat.rows.filter({ hasText: 'Conversation 1' }).getByRole('button').first().click();
  await expect(chat.messages('assistant')).toContainText('Echo: Keep me');
  expect(before).toContain('Keep me');
});

/** `count` conversations of about 54 KB each, as our export writes them, joined for a list. */
function bigConversations(count: number): string[] {
  const filler = 'lorem ipsum dolor sit amet '.repeat(2000);
  return Array.from({ length: count }, (_, index) =>
    JSON.stringify(sampleConversation(`big-${index}`, 'Big', [[filler, 'ok']])),
  );
}

// 50 MB: read on the page, parsing it alone would be a task of several hundred milliseconds.
const bigCount = Math.ceil((50 * MiB) / 54_100);

test('a 50 MB export cut short gets its clear message without a long task on the page', async ({ page }) => {
  const { chat, before } = await openForImport(page);
  const entries = bigConversations(bigCount);
  // Cut inside the last conversation, as an interrupted download is.
  const chosen = await choose(page, 'cut-short.json', [
    '{"version":"2.0","conversations":[',
    entries.join(','),
    ',',
    entries[0]?.slice(0, 1000) ?? '',
  ]);
  await expect(chat.toast(invalidFormat).filter({ hasText: 'The file is not valid JSON' })).toBeVisible({
    timeout: 30_000,
  });
  test.info().annotations.push({ type: 'refused after', description: `${Date.now() - chosen} ms` });
  await expectNoLongTask(page);
  await expectUntouched(page, before);
});

test('a 50 MB export whose very last message is bad is refused whole, naming it, without a long task', async ({
  page,
}) => {
  const { chat, before } = await openForImport(page);
  // Valid JSON all the way, with one bad message at the very end: the whole file is checked
  // before anything is replaced.
  const bad = JSON.stringify(sampleConversation('bad', 'Bad', [['q', 'a']])).replace(
    '"role":"user"',
    '"role":"wizard"',
  );
  const chosen = await choose(page, 'bad-at-the-end.json', [
    '{"version":"2.0","conversations":[',
    bigConversations(bigCount).join(','),
    `,${bad}]}`,
  ]);
  await expect(
    chat.toast(invalidFormat).filter({ hasText: `conversations[${bigCount}].messages[1].role` }),
  ).toBeVisible({ timeout: 30_000 });
  test.info().annotations.push({ type: 'refused after', description: `${Date.now() - chosen} ms` });
  await expectNoLongTask(page);
  // The page answers at once: the dialog closes, the sidebar switches.
  await page.keyboard.press('Escape');
  await chat.rows.nth(1).getByRole('button').first().click();
  await expect(chat.rows.nth(1)).toHaveAttribute('data-active', 'true');
  await chat.rows.nth(0).getByRole('button').first().click();
  expect(await exportSnapshot(page)).toBe(before);
  await page.reload();
  expect(await exportSnapshot(page)).toBe(before);
});

test('a file of a million nested lists gets a clear message without a long task on the page', async ({
  page,
}) => {
  const { chat, before } = await openForImport(page);
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
