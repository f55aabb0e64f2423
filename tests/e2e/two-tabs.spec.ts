import { deleteRow, expect, mockKey, readDbStore, renameRow, test, twoTabs } from './fixtures.ts';
import { mockUrl } from './ports.ts';

/** A prompt the `ok` scenario echoes back in ~200 pieces, 20 ms apart: a reply streaming for ~4 s. */
const longPrompt = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
const fullEcho = `Echo: ${longPrompt} (2 messages received)`;

type StoredMessage = { role: string; content: string; status?: string };

test('changes in one tab show in the other: create, rename, reply, settings, delete', async ({ context }) => {
  const [a, b] = await twoTabs(context);

  await a.newConversation();
  await expect(b.rows).toHaveCount(1);
  await expect(b.rows.first()).toContainText('Conversation 1');

  await renameRow(b, 0, 'Named in B');
  await expect(a.rows.first()).toContainText('Named in B');
  await expect(a.page.getByRole('heading', { level: 1 })).toHaveText('Named in B');

  await a.send('Hello from A');
  await a.waitForReplyDone();
  await b.rows.first().getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText('Echo: Hello from A');

  // Settings saved in B apply in A.
  const panel = b.page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByLabel('Provider').selectOption('groq');
  await panel.getByLabel('API Key').fill(mockKey('ok'));
  await panel.getByText('Advanced').click();
  await panel.getByLabel('Base URL').fill(mockUrl);
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(a.page.getByTestId('provider-badge')).toHaveText('Groq');

  await a.newConversation();
  await expect(b.rows).toHaveCount(2);
  // The newest is on top: the first conversation is second.
  await deleteRow(a, 1);
  await expect(a.rows).toHaveCount(1);
  await expect(b.rows).toHaveCount(1);
  await expect(b.rows.first()).toContainText('Conversation 2');
  await expect(b.page.getByRole('heading', { level: 1 })).toHaveText('Conversation 2');
});

test('the conversation deleted in another tab, or switched away from, leaves no messages behind', async ({
  context,
}) => {
  const [a, b] = await twoTabs(context);
  await a.newConversation();
  await a.send('First conversation');
  await a.waitForReplyDone();
  await a.newConversation();
  await expect(a.messages()).toHaveCount(0, { timeout: 2_000 });

  // The newest is on top: the first conversation is second.
  await b.rows.nth(1).getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText('Echo: First conversation');
  await deleteRow(a, 1);
  await expect(b.rows).toHaveCount(1);
  await expect(b.page.getByRole('heading', { level: 1 })).toHaveText('Conversation 2');
  await expect(b.messages()).toHaveCount(0, { timeout: 2_000 });
});

test('a reply streaming in one tab while the other renames it: both the name and the full reply are kept', async ({
  context,
}) => {
  const [a, b] = await twoTabs(context);
  await a.newConversation();
  await expect(b.rows).toHaveCount(1);

  await a.send(longPrompt);
  await expect(a.messages('assistant')).toContainText('word5');
  await renameRow(b, 0, 'Renamed mid-stream');
  await expect(a.rows.first()).toContainText('Renamed mid-stream');
  // The rename really landed while the reply was still streaming.
  await expect(a.page.getByTestId('streaming-cursor')).toBeVisible();
  await expect(a.messages('assistant')).not.toContainText('word199');

  await a.waitForReplyDone();
  await expect(a.messages('assistant')).toContainText(fullEcho);
  await expect(b.rows.first()).toContainText('Renamed mid-stream');
  await b.rows.first().getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText(fullEcho);
  await expect(b.messages('assistant')).not.toContainText('Interrupted');

  const [record] = await readDbStore(a.page);
  expect(record?.name).toBe('Renamed mid-stream');
  expect((record?.messages as StoredMessage[]).at(-1)).toMatchObject({
    role: 'assistant',
    content: fullEcho,
  });
  expect((record?.messages as StoredMessage[]).at(-1)?.status).toBeUndefined();
  for (const tab of [a, b]) {
    await tab.page.reload();
    await expect(tab.rows.first()).toContainText('Renamed mid-stream');
    await expect(tab.messages('assistant')).toContainText(fullEcho);
  }
});

test('a conversation deleted in one tab while the other streams into it: deletion is final, the stream stops, both tabs agree', async ({
  context,
}) => {
  const [a, b] = await twoTabs(context);
  await a.newConversation();
  await expect(b.rows).toHaveCount(1);

  await a.send(longPrompt);
  await expect(a.messages('assistant')).toContainText('word5');
  await deleteRow(b, 0);
  await expect(a.rows).toHaveCount(0);
  await expect(a.page.getByTestId('streaming-cursor')).toHaveCount(0);
  await expect(a.page.getByRole('heading', { name: 'No Conversation Selected' })).toBeVisible();
  // Nothing brings it back: not the stream's own saves, not a reload.
  await a.page.reload();
  await expect(a.page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  await expect(a.rows).toHaveCount(0);
  expect(await readDbStore(a.page)).toHaveLength(0);
  await expect(b.rows).toHaveCount(0);
});
