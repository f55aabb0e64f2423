import { readFileSync } from 'node:fs';
import {
  expect,
  importFile,
  openDataDialog,
  mockConfig,
  mockKey,
  providerLabel,
  recordedRequests,
  test,
  type ChatPage,
  type ProviderId,
} from './fixtures.ts';

/**
 * Projects: conversations grouped with shared instructions and files (docs/projects.md). What a
 * project shares is checked where it lands: in the request the mock received.
 */

const instructions = 'Answer in one sentence.';
const notes = 'The thesis deadline is May 3.';

/** 'Create project' in the sidebar, named and given instructions and a text file in its settings. */
async function createProject(chat: ChatPage, name: string) {
  const { page } = chat;
  await page.getByRole('button', { name: 'Create project' }).click();
  const settings = page.getByRole('dialog', { name: 'Project settings' });
  await settings.getByRole('textbox', { name: 'Name' }).fill(name);
  await settings.getByRole('textbox', { name: 'Instructions' }).fill(instructions);
  await settings.locator('input[type=file]').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(notes),
  });
  await expect(settings.getByRole('list', { name: 'Project files' })).toContainText('notes.txt');
  await expect(settings).toContainText('(estimated)');
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(settings).toHaveCount(0);
}

function projectRow(chat: ChatPage, name: string) {
  return chat.page.getByTestId('project-row').filter({ hasText: name });
}

async function newConversationIn(chat: ChatPage, name: string) {
  await projectRow(chat, name).hover();
  await chat.page.getByRole('button', { name: `Actions for ${name}` }).click();
  await chat.page.getByRole('button', { name: `New conversation in ${name}` }).click();
}

/** The system text a provider's request carries, as its API spells it. */
function systemText(provider: ProviderId, body: Record<string, unknown>): string {
  if (provider === 'claude') return (body.system as { text: string }[]).map((block) => block.text).join('');
  if (provider === 'gemini')
    return (body.systemInstruction as { parts: { text: string }[] }).parts.map((part) => part.text).join('');
  const [first] = body.messages as { role: string; content: string }[];
  return first?.role === 'system' ? first.content : '';
}

for (const provider of ['openai', 'claude', 'gemini', 'groq', 'azure'] as const) {
  test(`${providerLabel(provider)}: a project's instructions and files reach the provider before the system prompt`, async ({
    chat,
  }) => {
    const key = mockKey('ok');
    await chat.open(mockConfig(provider, key));
    await createProject(chat, 'Thesis');
    await newConversationIn(chat, 'Thesis');
    await chat.ask('When is the deadline?');

    const [request] = (await recordedRequests(key)).filter((entry) => entry.method === 'POST').slice(-1);
    const body = request?.body as Record<string, unknown>;
    const system = systemText(provider, body);
    expect(system.startsWith(instructions)).toBe(true);
    expect(system).toContain(`<file name="notes.txt">\n${notes}\n</file>`);
    expect(system.endsWith('You are a helpful assistant.')).toBe(true);
    // The shared part is marked for the provider's prompt caching where its API has it.
    if (provider === 'claude')
      expect((body.system as { cache_control?: unknown }[])[0]?.cache_control).toEqual({ type: 'ephemeral' });
    if (provider === 'openai') expect(typeof body.prompt_cache_key).toBe('string');
    else expect(body).not.toHaveProperty('prompt_cache_key');

    // The conversation is listed under its project, which folds it away.
    const row = projectRow(chat, 'Thesis');
    await expect(row).toContainText('1');
    await row.getByRole('button', { name: /Thesis/, expanded: true }).click();
    await expect(chat.rows).toHaveCount(0);
  });
}

test('conversations move into a project from the row menu, by dragging, and out again', async ({ chat }) => {
  const { page } = chat;
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.ask('first');
  await chat.newConversation();
  await chat.ask('second');
  await createProject(chat, 'Client');
  const project = projectRow(chat, 'Client');
  await expect(project).toContainText('0');

  // 'Move to project…' from the row's menu.
  const first = chat.rows.filter({ hasText: 'Conversation 1' });
  await first.hover();
  await first.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('button', { name: 'Move to project…' }).click();
  const move = page.getByRole('dialog', { name: 'Move to project' });
  await move.getByRole('radio', { name: 'Client' }).check();
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(project).toContainText('1');

  // Dragged onto the project's row.
  await chat.rows.filter({ hasText: 'Conversation 2' }).dragTo(project);
  await expect(project).toContainText('2');

  // And out again, from the palette.
  await chat.rows.filter({ hasText: 'Conversation 2' }).click();
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands and conversations' }).fill('Move to project');
  await page.keyboard.press('Enter');
  await move.getByRole('radio', { name: 'No project' }).check();
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(project).toContainText('1');

  // Kept over a reload.
  await page.reload();
  await expect(projectRow(chat, 'Client')).toContainText('1');
});

test('deleting a project deletes its conversations, and Undo brings both back', async ({ chat }) => {
  const { page } = chat;
  await chat.open(mockConfig('openai', mockKey('ok')));
  await createProject(chat, 'Old work');
  await newConversationIn(chat, 'Old work');
  await chat.ask('keep this');
  await expect(chat.rows).toHaveCount(1);

  await projectRow(chat, 'Old work').hover();
  await page.getByRole('button', { name: 'Actions for Old work' }).click();
  await page.getByRole('button', { name: 'Delete project' }).click();
  await expect(projectRow(chat, 'Old work')).toHaveCount(0);
  await expect(chat.rows).toHaveCount(0);

  await chat.toast('Project deleted').getByRole('button', { name: 'Undo' }).click();
  await expect(projectRow(chat, 'Old work')).toContainText('1');
  await chat.rows.first().click();
  await expect(chat.messages('user')).toContainText(['keep this']);
  await page.reload();
  await expect(projectRow(chat, 'Old work')).toContainText('1');
});

test('a project travels through an export and an import, with its files and conversations', async ({
  chat,
}) => {
  const { page } = chat;
  const key = mockKey('ok');
  await chat.open(mockConfig('openai', key));
  await createProject(chat, 'Travel');
  await newConversationIn(chat, 'Travel');
  await chat.ask('pack list?');
  // The download carries the files' bytes (the text shown in the dialog only their sizes).
  await openDataDialog(page, 'Export');
  const started = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  const exported = JSON.parse(readFileSync(await (await started).path(), 'utf8')) as {
    projects: { id: string; name: string; instructions: string; files: { name: string }[] }[];
    conversations: { projectId?: string }[];
  };
  expect(exported.projects).toEqual([
    expect.objectContaining({
      name: 'Travel',
      instructions,
      files: [expect.objectContaining({ name: 'notes.txt' })],
    }),
  ]);
  await page.keyboard.press('Escape');
  expect(exported.conversations.map((conversation) => conversation.projectId)).toEqual([
    exported.projects[0]?.id,
  ]);

  // Gone, then back from the file: the project, its conversation under it, its file still sent.
  await projectRow(chat, 'Travel').hover();
  await page.getByRole('button', { name: 'Actions for Travel' }).click();
  await page.getByRole('button', { name: 'Delete project' }).click();
  await expect(projectRow(chat, 'Travel')).toHaveCount(0);
  await importFile(page, exported);
  await expect(projectRow(chat, 'Travel')).toContainText('1');
  await chat.rows.first().click();
  await chat.ask('and the deadline?');
  const [request] = (await recordedRequests(key)).filter((entry) => entry.method === 'POST').slice(-1);
  expect(systemText('openai', request?.body as Record<string, unknown>)).toContain(notes);
});
