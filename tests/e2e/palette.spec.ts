import type { Page } from '@playwright/test';
import { ChatPage, expect, importConversation, mockConfig, mockKey, test } from './fixtures.ts';

/** The command palette, the shortcuts and the header menu: one registry of actions behind all three. */

const codeReply = '## Example\n\n```python\nprint("first")\n```\n\nThen:\n\n```js\nconsole.log("last");\n```';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });

/** Opens the palette with Ctrl+K, types, and presses Enter on the first match. */
async function runFromPalette(page: Page, typed: string, expected: string) {
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: 'Search commands and conversations' });
  await expect(search).toBeFocused();
  await search.fill(typed);
  await expect(page.getByRole('option').first()).toContainText(expected);
  await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toHaveCount(0);
}

test('the palette opens with Ctrl+K, filters as one types, runs the choice, and Escape gives the focus back', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await chat.composer.focus();
  // A shortcut with Ctrl works while typing; the palette lists what can be done now.
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await expect(page.getByRole('option', { name: /New conversation/ })).toContainText('Ctrl+Shift+O');
  await expect(page.getByRole('option', { name: /Stop generating/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(palette(page)).toHaveCount(0);
  await expect(chat.composer).toBeFocused();

  await runFromPalette(page, 'nwcv', 'New conversation');
  await expect(chat.rows).toHaveCount(2);
  // Arrow keys move the choice; Enter runs it.
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands and conversations' }).fill('theme');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { selected: true })).toHaveCount(1);
  await page.keyboard.press('End');
  await expect(page.getByRole('option').last()).toHaveAttribute('aria-selected', 'true');
  await page
    .getByRole('combobox', { name: 'Search commands and conversations' })
    .fill('no such thing at all');
  await expect(palette(page)).toContainText('Nothing matches.');
  await expect(page.getByRole('status').filter({ hasText: 'Nothing matches.' })).toHaveCount(1);
});

test('themes from the palette and the header menu: light, dark and system, which follows the OS live', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await chat.open();
  const html = page.locator('html');

  await runFromPalette(page, 'theme dark', 'Theme: Dark');
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('radio', { name: 'System' }).check();
  await expect(html).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  await page.keyboard.press('Escape');

  // The spec's toggle still flips between light and dark, through the same action.
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
});

test('shortcuts: new conversation, settings panel, the shortcut list, focus; never while typing', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await page.getByRole('heading', { level: 1 }).click();

  await page.keyboard.press('Control+Shift+O');
  await expect(chat.rows).toHaveCount(2);

  await page.keyboard.press('Control+Shift+S');
  await expect(page.getByRole('button', { name: 'Expand settings' })).toBeVisible();
  await runFromPalette(page, 'settings', 'Toggle the settings panel');
  await expect(page.getByRole('region', { name: 'AI Provider Configuration' })).toBeVisible();

  await page.keyboard.press('Control+/');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('row', { name: /Copy last code block/ })).toContainText('Ctrl+Shift+C');
  await expect(help.getByRole('row', { name: /Stop generating/ })).toContainText('Esc');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('Shift+Escape');
  await expect(chat.composer).toBeFocused();
  // Keys without Ctrl belong to the field being typed in.
  await chat.composer.fill('draft');
  await page.keyboard.press('Shift+Escape');
  await expect(chat.composer).toHaveValue('draft');
  await expect(chat.composer).toBeFocused();
});

test('copy the last reply and its last code block, by shortcut and from the palette', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, codeReply);
  await expect(chat.messages('assistant').locator('.hljs')).toHaveCount(2);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await page.keyboard.press('Control+Shift+C');
  await expect(chat.toast('Code copied to clipboard')).toBeVisible();
  expect(await clipboard()).toBe('console.log("last");');

  await runFromPalette(page, 'copy last reply', 'Copy last reply');
  await expect(chat.toast('Message copied to clipboard')).toBeVisible();
  expect(await clipboard()).toBe(codeReply);

  await page.keyboard.press('Control+Shift+;');
  await expect.poll(clipboard).toBe(codeReply);
});

test('Escape stops a streaming reply; regenerate and the model picker from the palette; a conversation by name', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('slow')));
  await chat.newConversation();
  await chat.send('Tell me slowly');
  await expect(chat.stopButton).toBeVisible();
  await expect(chat.messages('assistant')).toContainText('This is a slow');
  await page.keyboard.press('Escape');
  await expect(chat.stopButton).toHaveCount(0);
  await expect(page.getByTestId('streaming-cursor')).toHaveCount(0);

  await runFromPalette(page, 'regen', 'Regenerate last reply');
  await expect(chat.stopButton).toBeVisible();
  // The new version starts empty: once it has words, stopping keeps it.
  await expect(chat.messages('assistant')).toContainText('This is a slow');
  await page.keyboard.press('Escape');
  await expect(chat.messages('assistant').getByTestId('message-version')).toHaveText('2 / 2');

  await runFromPalette(page, 'model', 'Choose a model');
  await expect(page.getByRole('dialog', { name: 'Choose a model' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Rename conversation' }).first().click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Zebra facts');
  await page.keyboard.press('Enter');
  await chat.newConversation();
  await runFromPalette(page, 'zebra', 'Zebra facts');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zebra facts');
});

test('the palette renames, clears with Undo, opens the conversation settings and export, and deletes after asking', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.ask('Hello');

  await runFromPalette(page, 'rename', 'Rename conversation');
  const rename = page.getByRole('dialog', { name: 'Rename conversation' });
  await rename.getByRole('textbox', { name: 'Name' }).fill('Greetings');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(chat.rows.first()).toContainText('Greetings');

  await runFromPalette(page, 'clear', 'Clear conversation');
  await expect(chat.messages()).toHaveCount(0);
  await chat.toast('Conversation cleared').getByRole('button', { name: 'Undo' }).click();
  await expect(chat.messages()).toHaveCount(2);

  await runFromPalette(page, 'conversation settings', 'Conversation settings');
  await expect(page.getByRole('dialog', { name: 'Conversation settings' })).toBeVisible();
  await page.keyboard.press('Escape');
  await runFromPalette(page, 'export', 'Export data');
  await expect(page.getByRole('tab', { name: 'Export', selected: true })).toBeVisible();
  await page.keyboard.press('Escape');

  // The spec's question, as the row's Delete asks it.
  const ask = page.getByRole('dialog', { name: 'Delete conversation?' });
  await runFromPalette(page, 'delete', 'Delete conversation');
  await expect(ask).toContainText('This action cannot be undone.');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(chat.rows).toHaveCount(1);
  await runFromPalette(page, 'delete', 'Delete conversation');
  await ask.getByRole('button', { name: 'Delete' }).click();
  await expect(chat.rows).toHaveCount(0);
});
