import { ChatPage, expect, importFile, mockConfig, mockKey, test } from './fixtures.ts';

function longConversation(count: number) {
  const messages = [{ role: 'system', content: 'You are a helpful assistant.' }];
  for (let index = 1; index <= count; index++) {
    messages.push({
      role: index % 2 ? 'user' : 'assistant',
      content: `Message number ${index}. ${'Lorem ipsum dolor sit amet. '.repeat(8)}`,
    });
  }
  return {
    version: '2.0',
    conversations: [
      {
        id: 'long',
        name: 'Long one',
        provider: 'openai',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        messages,
      },
    ],
    activeConversationId: 'long',
  };
}

test('a long conversation opens at its latest message and renders only the messages in view', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importFile(page, longConversation(400));

  await expect(chat.messages().last()).toContainText('Message number 400.');
  await expect(chat.messages().last()).toBeInViewport();
  // Only what is in view (plus a little) is in the page.
  expect(await chat.messages().count()).toBeLessThanOrEqual(12);

  // Scrolling to the top brings the first messages in.
  const list = page.getByTestId('message-list');
  await list.hover();
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, -20_000);
      return chat.messages().first().innerText();
    })
    .toContain('Message number 1.');
  expect(await chat.messages().count()).toBeLessThanOrEqual(12);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(chat.messages().last()).toContainText('Message number 400.');
  await expect(chat.messages().last()).toBeInViewport();
});

test('the list follows a streaming reply, stays put when the reader scrolls up, and offers Jump to latest', async ({
  page,
}) => {
  // A short window, so the reply soon overflows it.
  await page.setViewportSize({ width: 1000, height: 360 });
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('slow')));
  await chat.newConversation();
  await chat.send('Tell me a long story');
  await expect(page.getByTestId('streaming-cursor')).toBeVisible();
  const list = page.getByTestId('message-list');
  await expect
    .poll(() => list.evaluate((element) => element.scrollHeight > element.clientHeight + 60), {
      timeout: 15_000,
    })
    .toBe(true);
  await expect(page.getByTestId('streaming-cursor')).toBeInViewport();

  await list.hover();
  await page.mouse.wheel(0, -5000);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBe(0);
  await page.waitForTimeout(600);
  expect(await list.evaluate((element) => element.scrollTop)).toBe(0);

  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(page.getByTestId('streaming-cursor')).toBeInViewport();
  await chat.stopButton.click();
});

test('tall messages, measured after they render, still open pinned to the latest one', async ({ page }) => {
  const code = Array.from({ length: 60 }, (_, line) => `const value${line} = ${line};`).join('\n');
  const file = longConversation(30);
  const [conversation] = file.conversations;
  conversation?.messages.forEach((message, index) => {
    if (message.role === 'assistant')
      message.content = `## Part ${index}\n\n\`\`\`js\n${code}\n\`\`\`\n\nEnd of part ${index}.`;
  });
  const chat = new ChatPage(page);
  await chat.open();
  await importFile(page, file);

  await expect(chat.messages().last()).toContainText('End of part 30.');
  await page.waitForTimeout(800);
  await expect(chat.messages().last().getByText('End of part 30.')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
});

test("a streamed reply's off-screen containment is lifted only when some block was never painted", async ({
  page,
}) => {
  // Two replies of half a minute each: on a loaded 2-core machine this took over 90 s once.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1000, height: 420 });
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('markdown')));
  await chat.newConversation();
  const contained = page.getByTestId('message').last().locator('.markdown-skip-offscreen');
  // A markdown reply of some 1500 tokens streams for about half a minute.
  const idle = () =>
    page.evaluate(
      () => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 3000 })),
    );

  // Followed to the end: every block was painted as it arrived, so nothing is lifted.
  await chat.send('First');
  await expect(page.getByTestId('streaming-cursor')).toHaveCount(0, { timeout: 60_000 });
  await idle();
  await idle();
  await expect(contained).toHaveCount(1);

  // Read from its top while it streams: the blocks arriving far below were never painted, so
  // the containment goes once the stream ends and they get their real size.
  await chat.newConversation();
  await chat.send('Second');
  const reply = chat.messages('assistant');
  await expect
    .poll(() => reply.evaluate((element) => element.getBoundingClientRect().height), { timeout: 30_000 })
    .toBeGreaterThan(2500);
  await page.getByTestId('message-list').hover();
  await page.mouse.wheel(0, -100_000);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await expect(page.getByTestId('streaming-cursor')).toHaveCount(0, { timeout: 60_000 });
  await expect(reply.locator('.markdown')).toHaveCount(1);
  await expect(reply.locator('.markdown-skip-offscreen')).toHaveCount(0);
});
