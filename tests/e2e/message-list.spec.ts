import type { Locator } from '@playwright/test';
import { ChatPage, expect, importFile, layoutSettled, pageIdle, test } from './fixtures.ts';
import type { HeldReply } from './held-stream.ts';

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
  held,
}) => {
  // A short window, so the reply soon overflows it.
  await page.setViewportSize({ width: 1000, height: 360 });
  const chat = new ChatPage(page);
  await chat.open(held.config());
  await chat.newConversation();
  await chat.send('Tell me a long story');
  const stream = await held.nextReply();
  const reply = chat.messages('assistant');
  const list = page.getByTestId('message-list');
  const cursor = page.getByTestId('streaming-cursor');
  // A line at a time, each on screen before the next: the list follows past the window's height.
  let line = 0;
  const more = async (lines: number) => {
    for (const end = line + lines; line < end; line++) {
      stream.send(`Line ${line + 1} of the story.\n\n`);
      await expect(reply).toContainText(`Line ${line + 1} of the story.`);
    }
  };
  await more(12);
  expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight + 60)).toBe(true);
  await expect(cursor).toBeInViewport();

  await list.hover();
  await page.mouse.wheel(0, -5000);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBe(0);
  // More of the reply arrives, and the list stays where the reader put it.
  await more(6);
  await layoutSettled(list);
  expect(await list.evaluate((element) => element.scrollTop)).toBe(0);
  await expect(cursor).not.toBeInViewport();

  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(cursor).toBeInViewport();
  await more(2);
  await layoutSettled(list);
  await expect(cursor).toBeInViewport();
  stream.end();
  await chat.waitForReplyDone();
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
  // Every code block highlighted and measured: the list's height has stopped changing.
  await expect(chat.messages().last().locator('pre code.hljs')).toHaveCount(1);
  await layoutSettled(page.getByTestId('message-list'));
  await expect(chat.messages().last().getByText('End of part 30.')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
});

test("a streamed reply's off-screen containment is lifted only when some block was never painted", async ({
  page,
  held,
}) => {
  await page.setViewportSize({ width: 1000, height: 420 });
  const chat = new ChatPage(page);
  await chat.open(held.config());
  await chat.newConversation();
  const contained = page.getByTestId('message').last().locator('.markdown-skip-offscreen');
  /** Streams markdown steps from `first` to `last`, each shown before the next is sent. */
  const steps = async (stream: HeldReply, first: number, last: number, reply: Locator) => {
    for (let step = first; step <= last; step++) {
      stream.send(`### Step ${step}\n\nThis step is done, and the next one follows.\n\n`);
      await expect(reply.getByRole('heading', { name: `Step ${step}`, exact: true })).toBeAttached();
    }
  };

  // Followed to the end: every block was painted as it arrived (the reply, four times the
  // window's height, scrolls by under the reader), so nothing is lifted.
  await chat.send('First');
  let stream = await held.nextReply();
  await steps(stream, 1, 20, chat.messages('assistant'));
  stream.end();
  await chat.waitForReplyDone();
  // The app lifts it in idle time, if at all: the page has been idle since.
  await pageIdle(page);
  await pageIdle(page);
  await expect(contained).toHaveCount(1);

  // Read from the top while it streams: the blocks arriving far below are never painted, so the
  // containment goes once the stream ends and they get their real size.
  await chat.newConversation();
  await chat.send('Second');
  stream = await held.nextReply();
  const reply = chat.messages('assistant');
  await steps(stream, 1, 20, reply);
  await page.getByTestId('message-list').hover();
  await page.mouse.wheel(0, -100_000);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await expect.poll(() => page.getByTestId('message-list').evaluate((element) => element.scrollTop)).toBe(0);
  await steps(stream, 21, 40, reply);
  stream.end();
  await chat.waitForReplyDone();
  await expect(reply.locator('.markdown')).toHaveCount(1);
  await expect(reply.locator('.markdown-skip-offscreen')).toHaveCount(0);
});
