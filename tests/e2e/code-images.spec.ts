import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { squaresCsv, squaresOutput } from '../../tools/mock-providers/code-images.mjs';
import {
  expect,
  mockConfig,
  mockKey,
  recordedRequests,
  test,
  type ChatPage,
  type ProviderId,
} from './fixtures.ts';

/**
 * The providers' own code execution and drawing, against the mock's `code` and `image` scenarios:
 * each provider runs one program (it prints 55, plots four squares and, on OpenAI and Claude,
 * writes squares.csv) or draws the test picture, in its own wire format.
 */

const toggle = (page: Page, name: 'Run code' | 'Create images') => page.getByRole('button', { name });

async function ask(chat: ChatPage, provider: ProviderId, scenario: string, model?: string) {
  const key = mockKey(scenario);
  await chat.open({ ...mockConfig(provider, key), ...(model && { model }) });
  await chat.newConversation();
  return key;
}

async function switchOn(page: Page, name: 'Run code' | 'Create images') {
  await expect(toggle(page, name)).toHaveAttribute('aria-pressed', 'false');
  await toggle(page, name).click();
  await expect(toggle(page, name)).toHaveAttribute('aria-pressed', 'true');
}

for (const provider of ['openai', 'claude', 'gemini'] as const) {
  test(`${provider}: a code run shows its code, output and plot, its file downloads, and all of it stays over a reload`, async ({
    chat,
    page,
  }) => {
    await ask(chat, provider, 'code');
    await switchOn(page, 'Run code');
    await chat.send('Sum the first five squares and plot them');
    await chat.waitForReplyDone();
    const reply = chat.messages('assistant').last();
    const language = provider === 'claude' ? 'bash' : 'python';
    const card = reply.getByRole('region', { name: `Ran ${language} code` });
    await expect(card).toContainText("squares.to_csv('squares.csv', index=False)");
    await expect(card.getByTestId('code-run-output')).toHaveText(squaresOutput.trim());
    await expect(reply).toContainText('The sum of the first five squares is 55.');
    const plot = card.getByTestId('drawn-picture').getByRole('img');
    await expect(plot).toBeVisible();
    await expect.poll(() => plot.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(64);

    if (provider !== 'gemini') {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        card.getByRole('button', { name: 'Download squares.csv' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('squares.csv');
      expect(await readFile(await download.path(), 'utf8')).toBe(squaresCsv);
    }
    if (provider === 'openai') {
      // The answer's sandbox: link to the file downloads it too.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        reply.getByRole('button', { name: 'squares.csv', exact: true }).click(),
      ]);
      expect(await readFile(await download.path(), 'utf8')).toBe(squaresCsv);
    }

    await page.reload();
    const again = chat
      .messages('assistant')
      .last()
      .getByRole('region', { name: `Ran ${language} code` });
    await expect(again.getByTestId('code-run-output')).toHaveText(squaresOutput.trim());
    await expect(again.getByTestId('drawn-picture').getByRole('img')).toBeVisible();
    // The switch is the conversation's: still on.
    await expect(toggle(page, 'Run code')).toHaveAttribute('aria-pressed', 'true');
  });
}

test('a failed run is marked, with what it printed', async ({ chat, page }) => {
  await ask(chat, 'claude', 'code-failed');
  await switchOn(page, 'Run code');
  await chat.send('Divide by zero');
  await chat.waitForReplyDone();
  const card = chat.messages('assistant').last().getByRole('region', { name: 'Ran bash code, failed' });
  await expect(card).toContainText('Failed: exit code 1');
  await expect(card.getByTestId('code-run-output')).toContainText('ZeroDivisionError: division by zero');
});

test('no switch where the model has no code execution, and the request stays as it was', async ({
  chat,
  page,
}) => {
  const key = await ask(chat, 'groq', 'echo');
  await expect(toggle(page, 'Run code')).toHaveCount(0);
  await expect(toggle(page, 'Create images')).toHaveCount(0);
  await chat.send('Hello');
  await chat.waitForReplyDone();
  const [request] = await recordedRequests(key);
  expect(JSON.stringify(request?.body)).not.toContain('code_interpreter');
});

test('OpenAI: a drawn picture shows while it is drawn, opens full size, stays, and goes back for an edit', async ({
  chat,
  page,
}) => {
  const key = await ask(chat, 'openai', 'image-slow');
  await switchOn(page, 'Create images');
  // A preview first, marked as still being drawn. It shows for two chunks only (600 ms), which a
  // poll from the test can miss on a busy machine: the page notes it, as the DOM changes.
  await page.evaluate(() => {
    const preview = '[data-testid="drawn-picture"][aria-busy="true"]';
    const record = window as unknown as { previewSeen?: boolean };
    const observer = new MutationObserver(() => {
      const replies = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
      for (const picture of replies[replies.length - 1]?.querySelectorAll(preview) ?? []) {
        const shown = picture.checkVisibility() && picture.querySelector('img')?.checkVisibility();
        if (shown && picture.textContent?.includes('Drawing…')) {
          record.previewSeen = true;
          observer.disconnect();
        }
      }
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  await chat.send('Draw four coloured squares');
  const reply = chat.messages('assistant').last();
  await chat.waitForReplyDone();
  expect(await page.evaluate(() => (window as unknown as { previewSeen?: boolean }).previewSeen)).toBe(true);
  await expect(reply).toContainText('Here is the picture: four coloured squares.');
  const picture = reply.getByTestId('drawn-picture');
  await expect(picture).toHaveCount(1);
  await expect(picture).not.toHaveAttribute('aria-busy');
  await picture.getByRole('button', { name: /^Open image-1\./ }).click();
  await expect(page.getByRole('dialog').getByRole('img')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(chat.messages('assistant').last().getByTestId('drawn-picture').getByRole('img')).toBeVisible();
  await chat.send('Change the sky to night');
  await chat.waitForReplyDone();
  const requests = await recordedRequests(key);
  const edit = requests.at(-1)?.body as { input: { type?: string; id?: string; result?: string }[] };
  const sentBack = edit.input.find((item) => item.type === 'image_generation_call');
  expect(sentBack?.id).toMatch(/^ig_/);
  expect(sentBack?.result?.length).toBeGreaterThan(100);
});

test('Gemini: an image model draws in every reply, no switch needed, and its picture goes back with its signature', async ({
  chat,
  page,
}) => {
  const key = await ask(chat, 'gemini', 'image', 'gemini-3-pro-image');
  await expect(toggle(page, 'Create images')).toHaveCount(0);
  await chat.send('Draw four coloured squares');
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Here is the picture: four coloured squares.');
  await expect(reply.getByTestId('drawn-picture').getByRole('img')).toBeVisible();

  await chat.send('Change the sky to night');
  await chat.waitForReplyDone();
  const requests = await recordedRequests(key);
  const edit = requests.at(-1)?.body as {
    contents: { role: string; parts: { inlineData?: unknown; thoughtSignature?: string }[] }[];
  };
  const modelTurn = edit.contents.find((content) => content.role === 'model');
  const image = modelTurn?.parts.find((part) => part.inlineData);
  expect(image?.thoughtSignature).toBeTruthy();
});
