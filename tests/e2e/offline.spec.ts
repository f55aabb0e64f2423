import { readFile, writeFile } from 'node:fs/promises';
import { ChatPage, expect, importConversation, mockConfig, mockKey, test } from './fixtures.ts';

/** The installable app: its service worker caches the app, so it opens and works offline. */
test.use({ serviceWorkers: 'allow' });
// One at a time: the second test deploys a new service worker into the served build.
test.describe.configure({ mode: 'serial' });

const servedWorker = new URL('../../dist/sw.js', import.meta.url);

/** Waits until the service worker controls the page (its files are cached by then). */
async function controlled(chat: ChatPage) {
  await chat.page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => chat.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test('installable: a manifest with icons; with no network the app opens with its conversations and keeps a draft', async ({
  page,
  context,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await importConversation(page, '## Kept offline\n\nA **markdown** reply.');
  await controlled(chat);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel=manifest]');
    return link
      ? ((await (await fetch(link.href)).json()) as {
          name: string;
          display: string;
          icons: { sizes: string }[];
        })
      : null;
  });
  expect(manifest).toMatchObject({ name: 'BYOK Chat', display: 'standalone' });
  expect(manifest?.icons.map((icon) => icon.sizes)).toEqual(['192x192', '512x512']);

  // A reply from the provider (another origin) is never kept by the service worker.
  await chat.send('Hello');
  await chat.waitForReplyDone();
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.length).toBeGreaterThan(10);
  expect(cached.every((url) => url.startsWith(new URL(page.url()).origin))).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(chat.rows).toHaveCount(1);
  await expect(
    chat.messages('assistant').first().getByRole('heading', { name: 'Kept offline' }),
  ).toBeVisible();
  await expect(page.getByText('You are offline: your draft is kept here.')).toBeVisible();
  await chat.composer.fill('Written on the train');
  await page.reload();
  await expect(chat.composer).toHaveValue('Written on the train');
  await context.setOffline(false);
  await expect(page.getByText('You are offline: your draft is kept here.')).toHaveCount(0);
});

test("a new deployment: 'A new version is available', and Reload waits for a streaming reply to end", async ({
  page,
  held,
}) => {
  const chat = new ChatPage(page);
  await chat.open(held.config());
  await chat.newConversation();
  await controlled(chat);
  // The next deployment: the host now serves a service worker that differs by a byte.
  const worker = await readFile(servedWorker, 'utf8');
  await writeFile(servedWorker, `${worker}\n// the next version\n`);
  try {
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  } finally {
    await writeFile(servedWorker, worker);
  }
  await chat.send('Tell me a story');
  const stream = await held.nextReply();
  stream.send('Once upon a time, ');
  await expect(chat.stopButton).toBeVisible();
  const prompt = chat.toast('A new version is available');
  await expect(prompt).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await prompt.getByRole('button', { name: 'Reload' }).click();
  // Not while the reply streams: more of it arrives in the same page, the new version still waiting.
  stream.send('a reply went on after Reload was asked for.');
  await expect(chat.messages('assistant').last()).toContainText('after Reload was asked for.');
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(
    true,
  );
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null),
  ).toBe(true);
  const reloaded = page.waitForEvent('load');
  await chat.stopButton.click();
  await reloaded;
  expect(
    await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
  ).toBeUndefined();
  await expect(chat.rows).toHaveCount(1);
});
