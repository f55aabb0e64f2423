import { ChatPage, dismissToasts, expect, mockConfig, mockKey, test } from './fixtures.ts';

test('composer: Shift+Enter adds a line, send is disabled when empty', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await expect(chat.sendButton).toBeDisabled();
  await chat.composer.fill('   ');
  await expect(chat.sendButton).toBeDisabled();
  await chat.composer.fill('line one');
  await chat.composer.press('Shift+Enter');
  await chat.composer.pressSequentially('line two');
  await expect(chat.composer).toHaveValue('line one\nline two');
  await chat.sendButton.click();
  await expect(chat.messages('user')).toHaveText(/line one\s+line two/);
  await chat.waitForReplyDone();
});

test('while a reply streams the input is disabled; Stop keeps the partial reply', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('claude', mockKey('slow')));
  await chat.newConversation();
  await chat.send('Tell me a long story');
  await expect(page.getByTestId('streaming-cursor')).toBeVisible();
  await expect(chat.composer).toBeDisabled();
  // Some text below the header line ('Assistant' and the model) has arrived.
  await expect
    .poll(async () => (await chat.messages('assistant').innerText()).split('\n').slice(1).join('').trim())
    .not.toBe('');
  await chat.stopButton.click();
  await chat.waitForReplyDone();
  const partial = await chat.messages('assistant').innerText();
  await expect(chat.messages('assistant')).toContainText('Stopped');
  await page.reload();
  await expect(chat.messages('assistant')).toContainText(partial.split('\n')[1]?.slice(0, 20) ?? '');
});

test('an HTTP error shows the provider and its message, keeps the user message, and Retry works', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('http-401')));
  await chat.newConversation();
  await chat.send('Will this work?');
  await expect(chat.toast('Error calling OpenAI API')).toBeVisible();
  await expect(chat.toast('Error calling OpenAI API')).toContainText('401');
  await expect(chat.messages('user')).toHaveText(/Will this work\?/);
  await expect(chat.messages('assistant')).toHaveCount(0);
  await expect(page.getByText('No reply was received.')).toBeVisible();
  // The provider's reason stays with the question, after the toast has gone.
  await dismissToasts(page);
  await expect(page.getByTestId('failure-reason')).toContainText('401');
  await page.reload();
  await expect(chat.messages('user')).toHaveText(/Will this work\?/);
});

test('a connection dropped mid-stream keeps the partial reply, marked, with Retry', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('groq', mockKey('drop')));
  await chat.newConversation();
  await chat.send('Go');
  await expect(chat.toast('Error calling Groq API')).toBeVisible();
  await expect(chat.messages('assistant')).toContainText('Interrupted');
  await expect(chat.messages('assistant').getByRole('button', { name: 'Retry' })).toBeVisible();
  await page.reload();
  await expect(chat.messages('assistant')).toContainText('Interrupted');
});

test('Gemini safety block is reported clearly', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('gemini', mockKey('blocked')));
  await chat.newConversation();
  await chat.send('Something');
  await expect(chat.toast('Error calling Gemini API')).toContainText(/block/i);
});

test('multi-byte text split across network chunks arrives intact', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('utf8')));
  await chat.newConversation();
  await chat.send('unicode please');
  await chat.waitForReplyDone();
  const text = await chat.messages('assistant').innerText();
  expect(text).not.toContain('\uFFFD');
  expect(text).toMatch(/[\u4e00-\u9fff]/);
});

test('a code block shows each line as it streams in, is highlighted while it grows, and whole once stopped', async ({
  page,
  held,
}) => {
  const chat = new ChatPage(page);
  await chat.open(held.config());
  await chat.newConversation();
  await chat.send('Show me some code');
  const stream = await held.nextReply();
  const reply = chat.messages('assistant');
  const code = reply.locator('pre code').first();
  stream.send('Here it is:\n\n```ts\nconst first = compute(1);\n');
  await expect(code).toHaveText('const first = compute(1);');
  await expect(page.getByTestId('streaming-cursor')).toBeVisible();

  // While the fence is still open its text keeps growing, and highlighting catches up with it.
  stream.send('const second = compute(2);\nfunction third() {\n  return first + se');
  await expect(code).toContainText('const second = compute(2);');
  await expect(code).toContainText('return first + se');
  await expect(code.locator('[class^="hljs-"]').first()).toBeAttached();
  await expect(page.getByTestId('streaming-cursor')).toBeVisible();

  await chat.stopButton.click();
  await chat.waitForReplyDone();
  // Stopped: the block's every character is inside the highlighter's output, none left plain.
  const plainTail = await code.evaluate((element) =>
    [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent)
      .join(''),
  );
  expect(plainTail).toBe('');
  await expect(code).toContainText('return first + se');
  await reply.getByRole('button', { name: 'Copy code' }).first().click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
});
