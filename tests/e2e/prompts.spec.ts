import { violations } from './axe.ts';
import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import {
  expect,
  mockConfig,
  mockKey,
  recordedRequests,
  settingsPanel,
  test,
  twoTabs,
  type ChatPage,
} from './fixtures.ts';

/**
 * The prompt library (docs/prompts.md): prompts saved in Settings → Prompts, inserted by typing
 * '/' in the message box or from the palette, a variable asked for in a form; all by keyboard.
 */

const translate = { title: 'Translate text', body: 'Translate into {{ language }}: {{text}}' };
const word = { title: 'Translate a word', body: 'One word, please.' };

function promptsSection(chat: ChatPage): Locator {
  return settingsPanel(chat.page).getByRole('region', { name: 'Prompts' });
}

/** The message box while the '/' list is open: the list's combobox. */
function messageCombobox(chat: ChatPage): Locator {
  return chat.page.getByRole('combobox', { name: 'Message' });
}

async function createPrompt(chat: ChatPage, { title, body }: { title: string; body: string }) {
  const section = promptsSection(chat);
  await section.getByRole('button', { name: 'New prompt' }).click();
  const editor = chat.page.getByRole('dialog', { name: 'New prompt' });
  await editor.getByRole('textbox', { name: 'Title' }).fill(title);
  const text = editor.getByRole('textbox', { name: 'Prompt' });
  await text.fill(body);
  await expect(text).toHaveAccessibleDescription('Write {{name}} where a value should be asked for.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);
  await expect(section.getByRole('list', { name: 'Saved prompts' })).toContainText(title);
}

async function openWithPrompts(chat: ChatPage) {
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await createPrompt(chat, translate);
  await createPrompt(chat, word);
}

test("'/' lists the prompts; chosen by keyboard, a variable is asked for and the filled text inserted", async ({
  chat,
}) => {
  const { page } = chat;
  await openWithPrompts(chat);
  await chat.composer.focus();
  await page.keyboard.type('/transl');

  const list = page.getByRole('listbox', { name: 'Prompts' });
  const options = list.getByRole('option');
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toHaveAccessibleName(word.title);
  await expect(options.nth(0)).toHaveAccessibleDescription(word.body);
  await expect(options.nth(1)).toHaveAccessibleName(translate.title);
  await expect(options.nth(1)).toHaveAccessibleDescription(translate.body);
  const box = messageCombobox(chat);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id')) ?? '');
  const first = list.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? '');
  expect(await violations(page, 'form')).toEqual([]);

  await page.keyboard.press('ArrowDown');
  const chosen = list.getByRole('option', { name: translate.title });
  await expect(chosen).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id')) ?? '');
  await page.keyboard.press('Enter');

  const form = page.getByRole('dialog', { name: `Fill in ${translate.title}` });
  await expect(form).toBeVisible();
  await expect(list).toHaveCount(0);
  const language = form.getByRole('textbox', { name: 'language' });
  await expect(language).toBeFocused();
  await page.keyboard.type('French');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'text' })).toBeFocused();
  await page.keyboard.type('good morning');
  await page.keyboard.press('Enter');

  await expect(form).toHaveCount(0);
  await expect(chat.composer).toHaveValue('Translate into French: good morning');
  await expect(chat.composer).toBeFocused();
  await expect(chat.composer).not.toHaveAttribute('aria-expanded');
  // The caret is at the end: typing goes on from there, and Enter sends the filled text.
  await page.keyboard.type('!');
  await expect(chat.composer).toHaveValue('Translate into French: good morning!');
  await page.keyboard.press('Enter');
  await expect(chat.messages('user')).toContainText(['Translate into French: good morning!']);
  await chat.waitForReplyDone();

  // A prompt without variables goes in at once, by Tab as well.
  await chat.composer.focus();
  await page.keyboard.type('/word');
  await expect(list.getByRole('option')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(chat.composer).toHaveValue(word.body);
  await expect(chat.composer).toBeFocused();
});

test('Escape closes the list and keeps the text; with nothing saved, a hint only and Enter sends', async ({
  chat,
}) => {
  const { page } = chat;
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.composer.focus();

  // Nothing saved yet: a hint says where prompts come from; the message box stays a text box,
  // and Enter sends what starts with '/' like any message.
  await page.keyboard.type('/etc/hosts');
  const list = page.getByRole('listbox', { name: 'Prompts' });
  await expect(page.getByText('No saved prompts yet — add some in Settings → Prompts.')).toBeVisible();
  await expect(list).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(chat.messages('user')).toContainText(['/etc/hosts']);
  await chat.waitForReplyDone();

  await createPrompt(chat, word);
  await chat.composer.fill('');
  await chat.composer.focus();
  await page.keyboard.type('/one');
  await expect(list).toHaveCount(0);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(list.getByRole('option', { name: word.title })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(chat.composer).toHaveValue('/');
  await expect(chat.composer).toBeFocused();
  // Closed, the text is a message as any other.
  await page.keyboard.type('etc');
  await expect(list).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(chat.messages('user').last()).toContainText('/etc');
});

test("the palette's 'Prompt: …' inserts at the caret, through the variables' form", async ({ chat }) => {
  const { page } = chat;
  await openWithPrompts(chat);
  await chat.composer.fill('Please: ');
  await chat.composer.press('End');

  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: 'Search commands and conversations' });
  await search.fill('prompt translate text');
  const option = page.getByRole('option', { name: `Prompt: ${translate.title}` });
  await expect(option).toContainText('Prompt');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');

  const form = page.getByRole('dialog', { name: `Fill in ${translate.title}` });
  await expect(form.getByRole('textbox', { name: 'language' })).toBeFocused();
  await page.keyboard.type('German');
  await form.getByRole('textbox', { name: 'text' }).fill('thanks');
  await form.getByRole('button', { name: 'Insert' }).click();
  await expect(chat.composer).toHaveValue('Please: Translate into German: thanks');
  await expect(chat.composer).toBeFocused();

  // Without variables, at once; Cancel in the form inserts nothing.
  await page.keyboard.press('Control+k');
  await search.fill(`Prompt: ${word.title}`);
  await page.keyboard.press('Enter');
  await expect(chat.composer).toHaveValue(`Please: Translate into German: thanks${word.body}`);
  await page.keyboard.press('Control+k');
  await search.fill(`Prompt: ${translate.title}`);
  await page.keyboard.press('Enter');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);
  await expect(chat.composer).toHaveValue(`Please: Translate into German: thanks${word.body}`);
  await expect(chat.composer).toBeFocused();
});

test('prompts travel through prompts.json, are edited and deleted with Undo, and a wrong file is refused', async ({
  chat,
}) => {
  const { page } = chat;
  await openWithPrompts(chat);
  const section = promptsSection(chat);
  const saved = section.getByRole('list', { name: 'Saved prompts' });

  const started = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Export prompts' }).click();
  const download = await started;
  expect(download.suggestedFilename()).toBe('prompts.json');
  const path = await download.path();
  const exported = JSON.parse(readFileSync(path, 'utf8')) as {
    kind: string;
    version: number;
    prompts: Record<string, unknown>[];
  };
  expect(exported.kind).toBe('prompts');
  expect(exported.version).toBe(1);
  expect(exported.prompts.map(({ title, body }) => ({ title, body }))).toEqual([translate, word]);
  for (const prompt of exported.prompts)
    expect(Object.keys(prompt)).toEqual(['id', 'title', 'body', 'createdAt', 'updatedAt']);

  // Edited: its title and first line show.
  await section.getByRole('button', { name: `Edit ${word.title}` }).click();
  const editor = page.getByRole('dialog', { name: 'Edit prompt' });
  await expect(editor.getByRole('textbox', { name: 'Title' })).toHaveValue(word.title);
  await editor.getByRole('textbox', { name: 'Prompt' }).fill('Two words.\nAt most.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(saved).toContainText('Two words.');
  await expect(saved).not.toContainText('At most.');

  // Deleted, then back with Undo; then both deleted.
  await section.getByRole('button', { name: `Delete ${translate.title}` }).click();
  await expect(saved).not.toContainText(translate.title);
  await chat.toast('Prompt deleted').getByRole('button', { name: 'Undo' }).click();
  await expect(saved).toContainText(translate.title);
  await section.getByRole('button', { name: `Delete ${translate.title}` }).click();
  await section.getByRole('button', { name: `Delete ${word.title}` }).click();
  await expect(saved).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Export prompts' })).toBeDisabled();

  // Imported from the file: both back, as they were exported.
  const chooser = page.waitForEvent('filechooser');
  await section.getByRole('button', { name: 'Import prompts' }).click();
  await (await chooser).setFiles(path);
  await expect(chat.toast('2 prompts imported')).toBeVisible();
  await expect(saved.getByRole('listitem')).toHaveCount(2);
  await expect(saved).toContainText(word.body);

  // Kept over a reload, and found by '/' there.
  await page.reload();
  await expect(promptsSection(chat).getByRole('listitem')).toHaveCount(2);
  await chat.newConversation();
  await chat.composer.focus();
  await page.keyboard.type('/trans text');
  await expect(page.getByRole('option', { name: translate.title })).toBeVisible();

  // A file that is not a prompts export is refused, saying why.
  const again = page.waitForEvent('filechooser');
  await promptsSection(chat).getByRole('button', { name: 'Import prompts' }).click();
  await (
    await again
  ).setFiles({ name: 'prompts.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
  await expect(chat.toast('No prompts were imported: the file is not JSON.')).toBeVisible();
  await expect(promptsSection(chat).getByRole('listitem')).toHaveCount(2);
});

test('a persona made in settings sets up a new conversation, is sent with it, and is chosen in its settings and the palette', async ({
  chat,
}) => {
  const { page } = chat;
  const key = mockKey('ok');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();

  const personas = settingsPanel(page).getByRole('region', { name: 'Personas' });
  await personas.getByRole('button', { name: 'New persona' }).click();
  const editor = page.getByRole('dialog', { name: 'New persona' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Pirate');
  await editor.getByRole('textbox', { name: 'System prompt' }).fill('You talk like a pirate.');
  await editor.getByRole('button', { name: "Model: The conversation's own" }).click();
  await page
    .getByRole('dialog', { name: "Choose the persona's model" })
    .getByRole('button', { name: 'gpt-4.1', exact: true })
    .click();
  await expect(editor.getByRole('button', { name: 'Model: gpt-4.1 (OpenAI)' })).toBeVisible();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);
  await expect(personas.getByRole('list', { name: 'Saved personas' })).toContainText('Pirate');
  // A persona is not a prompt to insert.
  await expect(promptsSection(chat).getByRole('list', { name: 'Saved prompts' })).toHaveCount(0);

  // A conversation with no message yet offers the personas above the message box.
  const start = page.getByRole('combobox', { name: 'Persona' });
  await start.selectOption({ label: 'Pirate' });
  await expect(start).toHaveAccessibleDescription('It also sets the model to gpt-4.1.');
  await chat.send('Hello');
  await chat.waitForReplyDone();
  await expect(start).toHaveCount(0);
  const [request] = (await recordedRequests(key)).filter((entry) => entry.method === 'POST').slice(-1);
  const body = request?.body as { model: string; messages: { role: string; content: string }[] };
  expect(body.model).toBe('gpt-4.1');
  expect(body.messages[0]).toEqual({ role: 'system', content: 'You talk like a pirate.' });

  // Its settings show it, and 'None' empties the system prompt.
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Conversation settings' });
  const field = settings.getByRole('combobox', { name: 'Persona' });
  await expect(field).toHaveValue(/.+/);
  await expect(field.locator('option:checked')).toHaveText('Pirate');
  await field.selectOption({ label: 'None' });
  await expect(settings.getByRole('textbox', { name: 'System prompt' })).toHaveValue('');
  await field.selectOption({ label: 'Pirate' });
  await expect(settings.getByRole('textbox', { name: 'System prompt' })).toHaveValue(
    'You talk like a pirate.',
  );
  await settings.getByRole('button', { name: 'Cancel' }).click();
  await expect(settings).toHaveCount(0);

  // The palette starts a conversation as the persona.
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: 'Search commands and conversations' });
  await expect(search).toBeFocused();
  await search.fill('as pirate');
  await page.getByRole('option', { name: /New conversation as Pirate/ }).click();
  await expect(start.locator('option:checked')).toHaveText('Pirate');
});

test('a prompt and a persona saved in one tab are offered in the other at once', async ({ context }) => {
  const [a, b] = await twoTabs(context);
  await b.newConversation();
  await createPrompt(a, word);
  const personas = settingsPanel(a.page).getByRole('region', { name: 'Personas' });
  await personas.getByRole('button', { name: 'New persona' }).click();
  const editor = a.page.getByRole('dialog', { name: 'New persona' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Pirate');
  await editor.getByRole('textbox', { name: 'System prompt' }).fill('You talk like a pirate.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);

  // The other tab hears the storage change: its empty conversation offers the persona, its '/' the prompt.
  await expect(b.page.getByRole('combobox', { name: 'Persona' })).toContainText('Pirate');
  await b.composer.focus();
  await b.page.keyboard.type('/word');
  const options = b.page.getByRole('listbox', { name: 'Prompts' }).getByRole('option');
  await expect(options).toHaveCount(1);
  await expect(options).toHaveAccessibleName(word.title);
});
