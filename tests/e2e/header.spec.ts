import { ChatPage, expect, importFile, test } from './fixtures.ts';

const longName = 'Planning a two-week trip through Portugal and Spain by train, with budgets';

test('the header keeps one row at 1280 px with the settings panel open, and two at most on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const chat = new ChatPage(page);
  await chat.open();
  const at = '2026-01-01T00:00:00.000Z';
  await importFile(page, {
    version: '2.0',
    conversations: [
      { id: 'c', name: longName, provider: 'openai', createdAt: at, updatedAt: at, messages: [] },
    ],
    activeConversationId: 'c',
  });
  await expect(page.getByRole('button', { name: 'Save Configuration' })).toBeVisible();
  const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1 }) });
  const oneRow = (await page.getByRole('button', { name: 'Clear' }).boundingBox())?.height ?? 0;
  // The row's height: the tallest control and the header's padding.
  expect((await header.boundingBox())?.height).toBeLessThan(oneRow * 2 + 12);
  await expect(page.getByRole('heading', { level: 1 })).toHaveAttribute('title', longName);

  await page.setViewportSize({ width: 390, height: 800 });
  // The phone layout has rendered once its own button is there.
  await expect(page.getByRole('button', { name: 'Open conversations' })).toBeVisible();
  expect((await header.boundingBox())?.height).toBeLessThan(oneRow * 3 + 20);
});
