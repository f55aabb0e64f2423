import { violations } from './axe.ts';
import {
  ChatPage,
  dismissToasts,
  expect,
  importConversation,
  importFile,
  mockConfig,
  mockKey,
  newWindow,
  sampleConversation,
  test,
} from './fixtures.ts';

test('the chat screen, with a toast held on it, has no WCAG A/AA violations', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, '## Answer\n\nSome **bold** text.\n\n```js\nconst x = 1;\n```\n\n- a list');
  await expect(chat.messages('assistant')).toContainText('bold');
  // Hovered, the import's toast stays for as long as the check takes.
  await chat.toast('Data imported successfully').hover();
  expect(await violations(page)).toEqual([]);
});

test('the import/export dialog has no violations and traps focus', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const opener = page.getByRole('button', { name: 'Import / Export' });
  await opener.click();
  await expect(page.getByRole('dialog', { name: 'Import / Export Data' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  for (let index = 0; index < 8; index++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(opener).toBeFocused();
});

test('everything in the sidebar works from the keyboard', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await chat.rows.first().getByRole('button').first().focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Rename conversation' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.type(' renamed');
  await page.keyboard.press('Enter');
  await expect(chat.rows.first()).toContainText('Conversation 1 renamed');
  await chat.rows.first().getByRole('button').first().focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Delete conversation' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Delete conversation?')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chat.rows).toHaveCount(1);
});

test('versions, the message actions, the edit form and conversation settings have no violations', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importFile(page, {
    version: '2.0',
    conversations: [
      {
        id: 'tree',
        name: 'Tree',
        messages: [
          { id: 's', role: 'system', content: 'You are a helpful assistant.' },
          { id: 'q', role: 'user', content: 'Question' },
          { id: 'a2', role: 'assistant', content: 'Second answer', createdAt: '2026-01-01T00:02:00.000Z' },
        ],
        otherMessages: [
          {
            id: 'a1',
            parentId: 'q',
            role: 'assistant',
            content: 'First answer',
            createdAt: '2026-01-01T00:01:00.000Z',
          },
        ],
      },
    ],
  });
  // The toast would leave (fading) in the middle of the checks below.
  await dismissToasts(page);
  const reply = chat.messages('assistant').first();
  await expect(reply.getByTestId('message-version')).toHaveText('2 / 2');
  await reply.hover();
  expect(await violations(page)).toEqual([]);
  const question = chat.messages('user').first();
  await question.hover();
  await question.getByRole('button', { name: 'Edit message' }).click();
  await expect(page.getByRole('textbox', { name: 'Edit message' })).toBeFocused();
  expect(await violations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(page.getByRole('textbox', { name: 'System prompt' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("the model picker, a greyed-out setting and an endpoint's panel have no violations", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open({ ...mockConfig('openai', mockKey('ok')), model: 'o3' });
  await chat.newConversation();
  await page.getByRole('button', { name: 'Model: o3' }).click();
  await expect(page.getByRole('dialog', { name: 'Choose a model' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByText(/^Connected: \d+ models available to this key\.$/)).toBeVisible();
  await panel.getByLabel('Provider').selectOption({ label: 'Add OpenAI-compatible endpoint…' });
  await expect(panel.getByLabel('Name')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('the command palette, the shortcut list and the header menu have no violations', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: 'Search commands and conversations' })).toBeFocused();
  expect(await violations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+/');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  expect(await violations(page)).toEqual([]);
});

test('search results with marked words, and the message a result opens, have no violations', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, 'A stable sort keeps equal records in order.');
  await dismissToasts(page);
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('stable rec');
  const results = page.getByRole('list', { name: 'Search results' }).getByRole('button');
  await expect(results).toHaveCount(1);
  await expect(results.locator('mark')).toHaveText(['stable', 'records']);
  expect(await violations(page)).toEqual([]);
  await results.click();
  await expect(page.locator('[data-revealed]')).toHaveCount(1);
  expect(await violations(page)).toEqual([]);
});

test('the passphrase dialogs and the backups have no violations', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }).check();
  const protect = page.getByRole('dialog', { name: 'Protect keys with a passphrase' });
  await protect.getByRole('button', { name: 'Protect keys' }).click();
  await expect(protect.getByRole('alert')).toHaveText('Choose a passphrase.');
  expect(await violations(page)).toEqual([]);
  await protect.getByLabel('Passphrase', { exact: true }).fill('secret');
  await protect.getByLabel('Repeat passphrase').fill('secret');
  await protect.getByRole('button', { name: 'Protect keys' }).click();
  await expect(protect).toHaveCount(0);

  const later = await newWindow(page.context());
  await page.close();
  await later.goto('/');
  const unlock = later.getByRole('dialog', { name: 'Unlock your API keys' });
  await unlock.getByLabel('Passphrase').fill('wrong');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock.getByRole('alert')).toHaveText('Wrong passphrase');
  expect(await violations(later)).toEqual([]);
  await unlock.getByRole('button', { name: 'Not now' }).click();
  await expect(later.getByRole('textbox', { name: 'API Key' })).toBeDisabled();
  expect(await violations(later)).toEqual([]);

  await importConversation(later, 'Backed up');
  await dismissToasts(later);
  await later.getByRole('button', { name: 'Import / Export' }).click();
  await later.getByRole('tab', { name: 'Import' }).click();
  await later.getByRole('button', { name: 'Back up now' }).click();
  await expect(later.getByRole('list', { name: 'Backups' }).getByRole('listitem')).toHaveCount(1);
  await dismissToasts(later);
  expect(await violations(later)).toEqual([]);
});

test('a code run, a drawn picture and the artifact panel have no violations', async ({ chat, page }) => {
  await chat.open(mockConfig('claude', mockKey('code')));
  await chat.newConversation();
  await page.getByRole('button', { name: 'Run code' }).click();
  await chat.ask('Sum the first five squares');
  await expect(chat.messages('assistant').last().getByTestId('code-run')).toBeVisible();
  await dismissToasts(page);
  expect(await violations(page)).toEqual([]);

  // An artifact in two versions: two replies, put in place by an import (how they arrived is not
  // what is checked here; artifacts.spec.ts opens a streamed one).
  await importFile(page, {
    version: '2.0',
    conversations: [
      sampleConversation(
        'page',
        'Page',
        ['One', 'Two'].map((word): [string, string] => [
          word,
          `Here:\n\n\`\`\`html title="Page"\n<h1>${word}</h1>\n\`\`\`\n\nThat is all.`,
        ]),
      ),
    ],
    activeConversationId: 'page',
  });
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const panel = page.getByRole('complementary', { name: 'Page' });
  await panel.getByRole('tab', { name: 'Changes' }).click();
  await expect(panel.getByTestId('artifact-change-count')).toBeVisible();
  await dismissToasts(page);
  expect(await violations(page)).toEqual([]);
});

test('projects in the sidebar, their settings and the move dialog have no violations', async ({
  chat,
  page,
}) => {
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.ask('hello');
  await page.getByRole('button', { name: 'Create project' }).click();
  const settings = page.getByRole('dialog', { name: 'Project settings' });
  await settings.getByRole('textbox', { name: 'Name' }).fill('Thesis');
  await settings.getByRole('textbox', { name: 'Emoji' }).fill('📚');
  await settings.locator('input[type=file]').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Notes.'),
  });
  await expect(settings.getByRole('list', { name: 'Project files' })).toContainText('notes.txt');
  expect(await violations(page)).toEqual([]);
  await settings.getByRole('button', { name: 'Done' }).click();

  const row = chat.rows.first();
  await row.hover();
  await row.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('button', { name: 'Move to project…' }).click();
  const move = page.getByRole('dialog', { name: 'Move to project' });
  await move.getByRole('radio', { name: 'Thesis' }).check();
  expect(await violations(page)).toEqual([]);
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByTestId('project-row')).toContainText('1');
  await dismissToasts(page);
  expect(await violations(page)).toEqual([]);
});
