import { readFile } from 'node:fs/promises';
import { ChatPage, expect, importFile, test } from './fixtures.ts';

/** 'Download as Markdown': one conversation's shown path, from its row's menu and from the palette. */

const file = {
  version: '2.0',
  conversations: [
    {
      id: 'c',
      name: 'Sorting: a/b',
      messages: [
        { id: 's', role: 'system', content: 'You are a helpful assistant.' },
        { id: 'q', role: 'user', content: 'Sort a list in Python?' },
        {
          id: 'a',
          role: 'assistant',
          content: 'Use `sorted`:\n\n```python\nsorted(xs)\n```',
          model: 'gpt-4o',
          reasoning: [{ text: 'A one-liner will do.' }],
          createdAt: '2026-01-01T00:02:00.000Z',
        },
      ],
      otherMessages: [
        {
          id: 'old',
          parentId: 'q',
          role: 'assistant',
          content: 'Not shown',
          createdAt: '2026-01-01T00:01:00.000Z',
        },
      ],
    },
  ],
};

const expected = [
  '# Sorting: a/b',
  '## User',
  'Sort a list in Python?',
  '## Assistant (gpt-4o)',
  '<details>\n<summary>Thinking</summary>\n\nA one-liner will do.\n\n</details>',
  'Use `sorted`:\n\n```python\nsorted(xs)\n```',
].join('\n\n');

test('downloads the shown path as Markdown, from the row menu and from the palette', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importFile(page, file);

  const row = chat.rows.first();
  await row.hover();
  await row.getByRole('button', { name: 'More actions' }).click();
  const fromMenu = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download as Markdown' }).click();
  const download = await fromMenu;
  expect(download.suggestedFilename()).toMatch(/^\d{4}-\d{2}-\d{2} Sorting- a-b\.md$/);
  expect(await readFile(await download.path(), 'utf8')).toBe(`${expected}\n`);

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands and conversations' }).fill('markdown');
  const fromPalette = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect(await readFile(await (await fromPalette).path(), 'utf8')).toBe(`${expected}\n`);
});
