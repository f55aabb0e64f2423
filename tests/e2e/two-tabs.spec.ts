import { deleteRow, expect, mockKey, readDbStore, renameRow, test, twoTabs } from './fixtures.ts';
import { mockUrl } from './ports.ts';

/** A reply held half-way while the other tab acts on its conversation (see held-stream.ts). */
const firstHalf = 'The first half of the reply, ';
const secondHalf = 'and the second half.';
const wholeReply = firstHalf + secondHalf;

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
  await expect(a.messages()).toHaveCount(0);

  // The newest is on top: the first conversation is second.
  await b.rows.nth(1).getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText('Echo: First conversation');
  await deleteRow(a, 1);
  await expect(b.rows).toHaveCount(1);
  await expect(b.page.getByRole('heading', { level: 1 })).toHaveText('Conversation 2');
  await expect(b.messages()).toHaveCount(0);
});

test('a reply streaming in one tab while the other renames it: both the name and the full reply are kept', async ({
  context,
  held,
}) => {
  const [a, b] = await twoTabs(context, held.config());
  await a.newConversation();
  await expect(b.rows).toHaveCount(1);

  await a.send('Tell me a story');
  const stream = await held.nextReply();
  stream.send(firstHalf);
  await expect(a.messages('assistant')).toContainText(firstHalf.trim());
  await renameRow(b, 0, 'Renamed mid-stream');
  await expect(a.rows.first()).toContainText('Renamed mid-stream');
  await expect(a.page.getByTestId('streaming-cursor')).toBeVisible();

  stream.send(secondHalf);
  stream.end();
  await a.waitForReplyDone();
  await expect(a.messages('assistant')).toContainText(wholeReply);
  await expect(b.rows.first()).toContainText('Renamed mid-stream');
  await b.rows.first().getByRole('button').first().click();
  await expect(b.messages('assistant')).toContainText(wholeReply);
  await expect(b.messages('assistant')).not.toContainText('Interrupted');

  const [record] = await readDbStore(a.page);
  expect(record?.name).toBe('Renamed mid-stream');
  expect((record?.messages as StoredMessage[]).at(-1)).toMatchObject({
    role: 'assistant',
    content: wholeReply,
  });
  expect((record?.messages as StoredMessage[]).at(-1)?.status).toBeUndefined();
  for (const tab of [a, b]) {
    await tab.page.reload();
    await expect(tab.rows.first()).toContainText('Renamed mid-stream');
    await expect(tab.messages('assistant')).toContainText(wholeReply);
  }
});

test('a conversation deleted in one tab while the other streams into it: deletion is final, the stream stops, both tabs agree', async ({
  context,
  held,
}) => {
  const [a, b] = await twoTabs(context, held.config());
  await a.newConversation();
  await expect(b.rows).toHaveCount(1);

  await a.send('Tell me a story');
  const stream = await held.nextReply();
  stream.send(firstHalf);
  await expect(a.messages('assistant')).toContainText(firstHalf.trim());
  await deleteRow(b, 0);
  await expect(a.rows).toHaveCount(0);
  await expect(a.page.getByTestId('streaming-cursor')).toHaveCount(0);
  await expect(a.page.getByRole('heading', { name: 'No Conversation Selected' })).toBeVisible();
  // The rest of the reply arrives after the deletion: nothing brings the conversation back, not
  // the stream's own saves, not a reload.
  stream.send(secondHalf);
  stream.end();
  await a.page.reload();
  await expect(a.page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  await expect(a.rows).toHaveCount(0);
  expect(await readDbStore(a.page)).toHaveLength(0);
  await expect(b.rows).toHaveCount(0);
});
