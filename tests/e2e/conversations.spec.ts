import {
  ChatPage,
  expect,
  importConversation,
  importFile,
  mockConfig,
  mockKey,
  sampleConversation,
  test,
} from './fixtures.ts';

test('an empty list, then new conversations named in sequence and made active', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await expect(page.getByText('No conversations yet')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No Conversation Selected' })).toBeVisible();
  await expect(
    page.getByText('Create a new conversation or select an existing one to get started.'),
  ).toBeVisible();

  await page.getByRole('button', { name: 'New Conversation' }).click();
  await chat.newConversation();
  // The newest on top.
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toContainText('Conversation 2');
  await expect(chat.rows.nth(1)).toContainText('Conversation 1');
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(chat.rows.nth(0)).toContainText('less than a minute ago');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Conversation 2');

  await chat.rows.nth(1).getByRole('button').first().click();
  await expect(chat.rows.nth(1)).toHaveAttribute('data-active', 'true');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Conversation 1');
});

test('rename: Enter saves, Escape cancels, a blank name is ignored', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  const row = chat.rows.first();

  await row.hover();
  await row.getByRole('button', { name: 'Rename conversation' }).click();
  await page.getByRole('textbox', { name: 'Conversation name' }).fill('Trip plans');
  await page.getByRole('textbox', { name: 'Conversation name' }).press('Enter');
  await expect(chat.rows.first()).toContainText('Trip plans');

  await chat.rows.first().hover();
  await chat.rows.first().getByRole('button', { name: 'Rename conversation' }).click();
  await page.getByRole('textbox', { name: 'Conversation name' }).fill('Something else');
  await page.getByRole('textbox', { name: 'Conversation name' }).press('Escape');
  await expect(chat.rows.first()).toContainText('Trip plans');

  await chat.rows.first().hover();
  await chat.rows.first().getByRole('button', { name: 'Rename conversation' }).click();
  await page.getByRole('textbox', { name: 'Conversation name' }).fill('   ');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(chat.rows.first()).toContainText('Trip plans');

  await page.reload();
  await expect(chat.rows.first()).toContainText('Trip plans');
});

test('delete asks first; deleting the active one activates the first remaining', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newConversation();
  await chat.newConversation();
  await chat.newConversation();
  // The newest on top, and active.
  const active = chat.rows.nth(0);
  await expect(active).toHaveAttribute('data-active', 'true');
  await active.hover();
  await active.getByRole('button', { name: 'Delete conversation' }).click();
  await expect(page.getByText('Delete conversation?')).toBeVisible();
  await expect(page.getByText('This action cannot be undone.')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(chat.rows).toHaveCount(3);

  await active.hover();
  await active.getByRole('button', { name: 'Delete conversation' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(chat.rows.nth(0)).toContainText('Conversation 2');
  expect(await page.evaluate(() => localStorage.getItem('ai-chat-active-conversation'))).not.toBeNull();

  await page.reload();
  await expect(chat.rows).toHaveCount(2);
  await expect(chat.rows.nth(0)).toHaveAttribute('data-active', 'true');
});

test('copy, clear, and everything persists across a reload', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.send('First question');
  await chat.waitForReplyDone();

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(chat.toast('Conversation copied to clipboard')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^User: First question\n\nAssistant: Echo: First question/);
  expect(copied).not.toContain('You are a helpful assistant.');

  await page.reload();
  await expect(chat.messages('user')).toHaveText(/First question/);
  await expect(chat.messages('assistant')).toContainText('Echo: First question');

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(chat.toast('Conversation cleared')).toBeVisible();
  await expect(chat.messages()).toHaveCount(0);
  await page.reload();
  await expect(chat.rows).toHaveCount(1);
  await expect(chat.messages()).toHaveCount(0);
});

test('message and code copy buttons copy and reset after 2 seconds', async ({ page }) => {
  // The page's clock runs in real time; the test moves it on by the 2 seconds instead of waiting.
  await page.clock.install();
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(
    page,
    '## Example\n\nRun **this**:\n\n```python\ndef greet(name):\n    return f"Hello {name}"\n```\n\n- done',
  );

  const reply = chat.messages('assistant');
  await reply.hover();
  await reply.getByRole('button', { name: 'Copy message' }).click();
  await expect(chat.toast('Message copied to clipboard')).toBeVisible();
  await expect(reply.getByRole('button', { name: 'Message copied' })).toBeVisible();
  await page.clock.fastForward(2_000);
  await expect(reply.getByRole('button', { name: 'Copy message' })).toBeVisible();

  const codeCopy = reply.getByRole('button', { name: 'Copy code' }).first();
  await codeCopy.click();
  await expect(chat.toast('Code copied to clipboard')).toBeVisible();
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(code).toBe('def greet(name):\n    return f"Hello {name}"');
  await expect(reply.locator('.hljs-keyword').first()).toHaveText('def');
  await expect(reply.getByRole('heading', { name: 'Example' })).toBeVisible();
  await expect(reply.locator('strong')).toHaveText('this');
});

test('the most recently active first, under date headings: a message in an old conversation moves it to the top, under Today', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  const conversations = [
    sampleConversation('recent', 'March chat', [['q', 'a']], '2025-03-01T12:00:00.000Z'),
    sampleConversation('older', 'January chat', [['q', 'a']], '2025-01-15T12:00:00.000Z'),
  ];
  await importFile(page, { version: '2.0', conversations, activeConversationId: 'recent' });
  const headings = page.getByRole('navigation', { name: 'Conversations' }).getByRole('heading', { level: 3 });
  await expect(headings).toHaveText(['March 2025', 'January 2025']);
  await expect(chat.rows).toHaveText([/^March chat/, /^January chat/]);

  await chat.rows.filter({ hasText: 'January chat' }).getByRole('button').first().click();
  await chat.ask('Back to this one');
  await expect(headings).toHaveText(['Today', 'March 2025']);
  await expect(chat.rows).toHaveText([/^January chat/, /^March chat/]);
  await page.reload();
  await expect(headings).toHaveText(['Today', 'March 2025']);
  await expect(chat.rows.first()).toContainText('January chat');
});

test('a long conversation list renders only the rows in view and keeps the active row visible', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const conversations = Array.from({ length: 300 }, (_, index) => ({
    id: `c${index}`,
    name: `Chat ${index + 1}`,
    provider: 'openai',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
    messages: [{ role: 'system', content: 'You are a helpful assistant.' }],
  }));
  await importFile(page, { version: '2.0', conversations, activeConversationId: 'c0' });

  // The oldest, so the last row: scrolled into view.
  const oldest = chat.rows.filter({ has: page.getByText('Chat 1', { exact: true }) });
  await expect(oldest).toBeInViewport();
  await expect(oldest).toHaveAttribute('data-active', 'true');
  expect(await chat.rows.count()).toBeLessThan(60);

  await chat.newConversation();
  const newest = chat.rows.filter({ hasText: 'Conversation 301' });
  await expect(newest).toBeInViewport();
  await expect(newest).toHaveAttribute('data-active', 'true');
  expect(await chat.rows.count()).toBeLessThan(60);
});
