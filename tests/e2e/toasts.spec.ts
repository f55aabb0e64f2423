import type { Locator } from '@playwright/test';
import { ChatPage, expect, importConversation, test } from './fixtures.ts';

/** Whether two elements' boxes overlap on the screen. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [first, second] = [await a.boundingBox(), await b.boundingBox()];
  if (!first || !second) throw new Error('an element has no box');
  return (
    first.x < second.x + second.width &&
    second.x < first.x + first.width &&
    first.y < second.y + second.height &&
    second.y < first.y + first.height
  );
}

test('toasts leave Send and Save Configuration visible, on a wide screen and on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, 'A reply.');
  const imported = chat.toast('Data imported successfully');
  await expect(imported).toBeVisible();
  const save = page.getByRole('button', { name: 'Save Configuration' });
  await expect(save).toBeVisible();
  // Polled: a toast slides in from below.
  await expect.poll(() => overlap(imported, chat.sendButton)).toBe(false);
  await expect.poll(() => overlap(imported, save)).toBe(false);

  await page.setViewportSize({ width: 390, height: 800 });
  // Copy the last reply (Ctrl+Shift+;): a toast at phone width.
  await chat.composer.press('Escape');
  await page.keyboard.press('Control+Shift+Semicolon');
  const copied = chat.toast('Message copied to clipboard');
  await expect(copied).toBeVisible();
  await expect(chat.composer).toBeVisible();
  await expect.poll(() => overlap(copied, chat.sendButton)).toBe(false);
});
