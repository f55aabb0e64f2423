import { ChatPage, expect, importFile, readDbStore, test } from './fixtures.ts';

/** Pinned conversations on top, archived ones apart: from the row's menu and the palette. */

async function rowMenu(chat: ChatPage, name: string, item: string) {
  const row = chat.rows.filter({ hasText: name });
  await row.hover();
  await row.getByRole('button', { name: 'More actions' }).click();
  await chat.page.getByRole('button', { name: item }).click();
}

test('pin from the row menu: on top, marked, after a reload too; unpin puts it back', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  for (let count = 0; count < 3; count++) await chat.newConversation();
  await expect(chat.rows).toHaveCount(3);

  // The oldest is last, newest first.
  await rowMenu(chat, 'Conversation 1', 'Pin conversation');
  await expect(chat.rows.first()).toContainText('Conversation 1');
  await expect(chat.rows.first().getByLabel('Pinned')).toBeVisible();
  // Stored first: a reload while the save is still in flight can lose it (the page-hide flush
  // writes only what has not been sent yet), which is not what this test is about.
  await expect
    .poll(async () => (await readDbStore(page)).find((record) => record.name === 'Conversation 1')?.place)
    .toBe('pinned');
  await page.reload();
  await expect(chat.rows.first()).toContainText('Conversation 1');

  await rowMenu(chat, 'Conversation 1', 'Unpin conversation');
  await expect(chat.rows.last()).toContainText('Conversation 1');
  await expect(chat.rows.getByLabel('Pinned')).toHaveCount(0);
  await expect(chat.rows).toHaveCount(3);
});

test('archive from the palette: hidden from the list, listed under Archived, found by the palette, and back', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await chat.newConversation();
  await chat.rows.filter({ hasText: 'Conversation 1' }).getByRole('button').first().click();

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands and conversations' }).fill('archive');
  await expect(page.getByRole('option').first()).toContainText('Archive conversation');
  await page.keyboard.press('Enter');
  await expect(chat.rows).toHaveCount(1);
  const archivedToggle = page.getByRole('button', { name: 'Archived (1)' });
  await expect(archivedToggle).toHaveAttribute('aria-expanded', 'false');
  await expect
    .poll(async () => (await readDbStore(page)).find((record) => record.name === 'Conversation 1')?.place)
    .toBe('archived');
  await page.reload();
  await archivedToggle.click();
  await expect(page.getByRole('list', { name: 'Archived' })).toContainText('Conversation 1');

  // Still found: the palette lists it, marked.
  await chat.rows.filter({ hasText: 'Conversation 2' }).getByRole('button').first().click();
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands and conversations' }).fill('conversation 1');
  await expect(page.getByRole('option').first()).toContainText('Archived');
  await page.keyboard.press('Escape');

  await rowMenu(chat, 'Conversation 1', 'Unarchive conversation');
  await expect(page.getByRole('button', { name: /^Archived/ })).toHaveCount(0);
  await expect(chat.rows).toHaveCount(2);
});

test('pins and the archive come back from an export file', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const conversation = (id: string, name: string, place?: string) => ({
    id,
    name,
    ...(place ? { place, placedAt: '2026-01-02T00:00:00.000Z' } : {}),
    messages: [{ role: 'system', content: 'You are a helpful assistant.' }],
  });
  await importFile(page, {
    version: '2.0',
    conversations: [
      conversation('a', 'Alpha'),
      conversation('b', 'Beta', 'pinned'),
      conversation('c', 'Gamma', 'archived'),
    ],
    activeConversationId: 'a',
  });
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.first()).toContainText('Beta');
  await expect(page.getByRole('button', { name: 'Archived (1)' })).toBeVisible();
});
