import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  ChatPage,
  expect,
  importFile,
  openDataDialog,
  setStorageFull,
  simulateFullStorage,
  mockConfig,
  mockKey,
  recordedRequests,
  test,
  type ProviderId,
} from './fixtures.ts';
import { notes, photo, png, report, type TestFile } from './files.ts';

/** Files attached through the picker, a paste and a drop, as each provider's API carries them. */

async function pick(page: Page, files: TestFile[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files.map(({ name, mimeType, buffer }) => ({ name, mimeType, buffer })));
}

/** Fires `type` (paste on the composer, drop on the conversation) carrying `files`. */
async function carry(page: Page, type: 'paste' | 'drop', files: TestFile[]): Promise<void> {
  const payload = files.map(({ name, mimeType, buffer }) => ({ name, mimeType, bytes: [...buffer] }));
  await page.evaluate(
    ({ type, payload }) => {
      const transfer = new DataTransfer();
      for (const { name, mimeType, bytes } of payload)
        transfer.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
      if (type === 'paste') {
        const composer = document.querySelector('textarea[aria-label="Message"]') as HTMLElement;
        composer.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
        return;
      }
      const list = document.querySelector('[data-testid="message-list"]') ?? document.querySelector('main');
      for (const kind of ['dragenter', 'dragover', 'drop'])
        list?.dispatchEvent(new DragEvent(kind, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { type, payload },
  );
}

function chips(page: Page) {
  return page.getByRole('list', { name: 'Files to send' }).getByTestId('file-chip');
}

async function waitReady(page: Page, count: number) {
  await expect(chips(page)).toHaveCount(count);
  await expect(chips(page).filter({ hasText: 'Preparing…' })).toHaveCount(0);
}

interface Body {
  messages?: { role: string; content: unknown }[];
  input?: { role: string; content: unknown }[];
  contents?: { role: string; parts: unknown[] }[];
}

async function lastBody(key: string): Promise<Body> {
  const requests = await recordedRequests(key);
  return requests.at(-1)?.body as Body;
}

const dataUrl = (file: TestFile) => `data:${file.mimeType};base64,${file.buffer.toString('base64')}`;

async function sendWithFiles(chat: ChatPage, provider: ProviderId, key: string, config = {}) {
  await chat.open({ ...mockConfig(provider, key), ...config });
  await chat.newConversation();
  await pick(chat.page, [photo, report, notes]);
  await waitReady(chat.page, 3);
  await chat.send('What are these?');
  await chat.waitForReplyDone();
}

test('picked files: chips before sending, OpenAI content parts, the reply, and after reload', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const key = mockKey('attachments');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await pick(page, [photo, report, notes]);
  await waitReady(page, 3);
  await expect(chips(page).nth(0)).toContainText('photo.png');
  await expect(chips(page).nth(1)).toContainText('report.pdf');
  await expect(chips(page).nth(2)).toContainText('notes.md');
  await page.getByRole('button', { name: 'Remove notes.md' }).click();
  await expect(chips(page)).toHaveCount(2);
  await pick(page, [notes]);
  await waitReady(page, 3);

  await chat.send('What are these?');
  await chat.waitForReplyDone();
  await expect(chips(page)).toHaveCount(0);
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('image image/png 64×48');
  await expect(reply).toContainText(`pdf report.pdf ${report.buffer.length} bytes`);
  await expect(reply).toContainText('text notes.md');
  await expect(reply).toContainText('message: What are these?');

  const body = await lastBody(key);
  expect(body.messages?.[1]).toEqual({
    role: 'user',
    content: [
      { type: 'image_url', image_url: { url: dataUrl(photo) } },
      { type: 'file', file: { filename: 'report.pdf', file_data: dataUrl(report) } },
      { type: 'text', text: '<file name="notes.md">\n# Shopping\n\n- milk\n\n</file>\n\nWhat are these?' },
    ],
  });

  await page.reload();
  const sent = chat.messages('user').last().getByRole('list', { name: 'Attached files' });
  await expect(sent.getByTestId('file-chip')).toHaveCount(3);
  await sent.getByRole('button', { name: 'Open photo.png' }).click();
  const viewer = page.getByRole('dialog', { name: 'photo.png' });
  await expect(viewer.getByRole('img', { name: 'photo.png' })).toBeVisible();
  expect(
    await viewer
      .getByRole('img', { name: 'photo.png' })
      .evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBe(64);
});

test('Claude gets base64 image and document blocks', async ({ page }) => {
  const key = mockKey('attachments');
  await sendWithFiles(new ChatPage(page), 'claude', key);
  const body = await lastBody(key);
  expect(body.messages?.[0]?.content).toEqual([
    {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: photo.buffer.toString('base64') },
    },
    {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: report.buffer.toString('base64') },
      title: 'report.pdf',
    },
    { type: 'text', text: '<file name="notes.md">\n# Shopping\n\n- milk\n\n</file>\n\nWhat are these?' },
  ]);
  await expect(new ChatPage(page).messages('assistant').last()).toContainText('pdf report.pdf');
});

test('Gemini gets inlineData parts', async ({ page }) => {
  const key = mockKey('attachments');
  await sendWithFiles(new ChatPage(page), 'gemini', key);
  const body = await lastBody(key);
  expect(body.contents?.[0]?.parts.slice(0, 2)).toEqual([
    { inlineData: { mimeType: 'image/png', data: photo.buffer.toString('base64') } },
    { inlineData: { mimeType: 'application/pdf', data: report.buffer.toString('base64') } },
  ]);
  await expect(new ChatPage(page).messages('assistant').last()).toContainText('image image/png 64×48');
});

test('an OpenAI reasoning model gets Responses input_image and input_file items', async ({ page }) => {
  const key = mockKey('attachments');
  await sendWithFiles(new ChatPage(page), 'openai', key, { model: 'gpt-5.4' });
  const body = await lastBody(key);
  expect(body.input?.[0]?.content).toEqual([
    { type: 'input_image', image_url: dataUrl(photo) },
    { type: 'input_file', filename: 'report.pdf', file_data: dataUrl(report) },
    {
      type: 'input_text',
      text: '<file name="notes.md">\n# Shopping\n\n- milk\n\n</file>\n\nWhat are these?',
    },
  ]);
});

test("Groq's vision model sees the image; the PDF goes as its text, read in the browser", async ({
  page,
}) => {
  const key = mockKey('attachments');
  const chat = new ChatPage(page);
  await chat.open({ ...mockConfig('groq', key), model: 'meta-llama/llama-4-scout-17b-16e-instruct' });
  await chat.newConversation();
  await pick(page, [photo, report]);
  await waitReady(page, 2);
  await expect(chips(page).nth(1)).toContainText(
    'Sent as text: meta-llama/llama-4-scout-17b-16e-instruct does not read PDFs',
  );
  await chat.send('Read this');
  await chat.waitForReplyDone();
  const body = await lastBody(key);
  expect(body.messages?.[1]?.content).toEqual([
    { type: 'image_url', image_url: { url: dataUrl(photo) } },
    { type: 'text', text: '<file name="report.pdf">\nHello PDF\n</file>\n\nRead this' },
  ]);
  await expect(chat.messages('assistant').last()).toContainText('text report.pdf');
});

test('a model that does not see images says so on the chip and refuses to send; nothing is sent', async ({
  page,
}) => {
  const key = mockKey('attachments');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('groq', key));
  await chat.newConversation();
  await pick(page, [photo]);
  await waitReady(page, 1);
  await expect(chips(page).first()).toContainText('llama-3.3-70b-versatile does not see images');
  await chat.composer.fill('Look');
  await chat.sendButton.click();
  await expect(
    chat.toast('llama-3.3-70b-versatile does not see images. Remove photo.png, or choose a model that does.'),
  ).toBeVisible();
  // The draft and its file stay; nothing reached the provider.
  await expect(chat.composer).toHaveValue('Look');
  await expect(chips(page)).toHaveCount(1);
  expect(await recordedRequests(key)).toEqual([]);
});

test('a pasted image and a dropped file are attached', async ({ page }) => {
  const key = mockKey('attachments');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await carry(page, 'paste', [{ ...photo, name: 'image.png' }]);
  await carry(page, 'drop', [notes]);
  await waitReady(page, 2);
  await chat.send('Both?');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('image image/png 64×48');
  await expect(chat.messages('assistant').last()).toContainText('text notes.md');
});

for (const [provider, extra] of [
  ['azure', {}],
  ['claude', {}],
  ['gemini', {}],
  ['groq', { model: 'meta-llama/llama-4-scout-17b-16e-instruct' }],
] as const)
  test(`${provider}: a pasted image and a dropped PDF reach the request`, async ({ page }) => {
    const key = mockKey('attachments');
    const chat = new ChatPage(page);
    await chat.open({ ...mockConfig(provider, key), ...extra });
    await chat.newConversation();
    await carry(page, 'paste', [photo]);
    await carry(page, 'drop', [report]);
    await waitReady(page, 2);
    await chat.send('Pasted and dropped');
    await chat.waitForReplyDone();
    await expect(chat.messages('assistant').last()).toContainText('image image/png 64×48');
    // Groq reads no PDFs: their text goes instead.
    await expect(chat.messages('assistant').last()).toContainText(
      provider === 'groq' ? 'text report.pdf' : 'pdf ',
    );
    const body = JSON.stringify(await lastBody(key));
    expect(body).toContain(photo.buffer.toString('base64'));
    if (provider === 'groq') expect(body).toContain('Hello PDF');
    else expect(body).toContain(report.buffer.toString('base64'));
  });

test('a file of another kind, or too large, is refused with why', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('attachments')));
  await chat.newConversation();
  await pick(page, [{ name: 'archive.zip', mimeType: 'application/zip', buffer: Buffer.from('PK') }]);
  await expect(
    chat.toast('archive.zip cannot be attached: only images, PDFs and text files can.'),
  ).toBeVisible();
  await pick(page, [{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024 + 1, 97) }]);
  await expect(chat.toast('big.txt is too large (1 MB). Text files can be up to 1 MB.')).toBeVisible();
  await expect(chips(page)).toHaveCount(0);
});

test('a big photo is resized in the browser before it is stored and sent', async ({ page }) => {
  const key = mockKey('attachments');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await pick(page, [{ name: 'wide.png', mimeType: 'image/png', buffer: png(3000, 1500) }]);
  await waitReady(page, 1);
  await chat.send('Big');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('image image/png 2000×1000');
});

test("a photo's EXIF metadata (where it was taken) is dropped before it is stored and sent", async ({
  page,
}) => {
  const key = mockKey('attachments');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  const located = png(64, 48, [20, 120, 200], Buffer.from('MM\0*GPS 51.5007N 0.1246W'));
  await pick(page, [{ name: 'located.png', mimeType: 'image/png', buffer: located }]);
  await waitReady(page, 1);
  await chat.send('Where?');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('image image/png 64×48');
  const sent = JSON.stringify(await lastBody(key));
  expect(sent).not.toContain(located.toString('base64').slice(0, 200));
  const image = /data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(sent)?.[1] ?? '';
  expect(Buffer.from(image, 'base64').includes('eXIf')).toBe(false);
  expect(Buffer.from(image, 'base64').includes('GPS')).toBe(false);
});

test('deleting the message deletes its stored files', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('attachments')));
  await chat.newConversation();
  await pick(page, [photo, notes]);
  await waitReady(page, 2);
  await chat.send('Keep?');
  await chat.waitForReplyDone();
  await expect.poll(() => storedFileCount(page)).toBe(2);
  await chat.messages('user').last().hover();
  await chat.messages('user').last().getByRole('button', { name: 'Delete message' }).click();
  await expect.poll(() => storedFileCount(page)).toBe(0);
});

/** How many files the app's database holds. */
function storedFileCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('ai-chat');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const request = open.result.transaction('attachments').objectStore('attachments').count();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result);
          };
        };
      }),
  );
}

test('export carries the files (shown as their size), import brings them back; unticked, it names them only', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('attachments')));
  await chat.newConversation();
  await pick(page, [photo, notes]);
  await waitReady(page, 2);
  await chat.send('Keep these');
  await chat.waitForReplyDone();

  await openDataDialog(page, 'Export');
  const shown = page.getByTestId('export-text');
  await expect(shown).toHaveValue(/"data": "\(\d+ (bytes|KB) of file data, in the download\)"/);
  expect(await shown.inputValue()).not.toContain(photo.buffer.toString('base64'));
  const full = await download(page);
  expect(full).toContain(`"data": "${photo.buffer.toString('base64')}"`);
  await page.getByRole('checkbox', { name: 'Include attachments' }).uncheck();
  await expect(shown).not.toHaveValue(/of file data/);
  const named = await download(page);
  expect(named).toContain('"name": "photo.png"');
  expect(named).not.toContain('"data"');
  await page.keyboard.press('Escape');

  // Everything goes; the full export brings the conversation and its files back.
  await chat.messages('user').last().hover();
  await chat.messages('user').last().getByRole('button', { name: 'Delete message' }).click();
  await expect.poll(() => storedFileCount(page)).toBe(0);
  await importFile(page, JSON.parse(full));
  await expect.poll(() => storedFileCount(page)).toBe(2);
  await page.reload();
  await expectImageShown(page, 'photo.png');
});

test('storage full: a sent file stays on screen and is stored once space frees up', async ({ page }) => {
  await simulateFullStorage(page);
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('attachments')));
  await chat.newConversation();
  await setStorageFull(page, true);
  await pick(page, [photo]);
  await waitReady(page, 1);
  await chat.send('While full');
  await chat.waitForReplyDone();
  await expect(chat.toast('Storage is full: changes are not being saved')).toBeVisible();
  expect(await storedFileCount(page)).toBe(0);
  // Shown from the bytes held in memory.
  await expectImageShown(page, 'photo.png');

  await setStorageFull(page, false);
  await chat.send('Space again');
  await chat.waitForReplyDone();
  await expect.poll(() => storedFileCount(page)).toBe(1);
  await page.reload();
  await expectImageShown(page, 'photo.png');
});

test('Undo of a deleted message brings its files back', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('attachments')));
  await chat.newConversation();
  await pick(page, [photo]);
  await waitReady(page, 1);
  await chat.send('Keep?');
  await chat.waitForReplyDone();
  await chat.messages('user').last().hover();
  await chat.messages('user').last().getByRole('button', { name: 'Delete message' }).click();
  await expect.poll(() => storedFileCount(page)).toBe(0);
  await chat.toast('Message deleted').getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => storedFileCount(page)).toBe(1);
  await page.reload();
  await expectImageShown(page, 'photo.png');
});

/** Clicks 'Download JSON' and returns the file's text. */
async function download(page: Page): Promise<string> {
  const started = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  const file = await (await started).path();
  return readFileSync(file, 'utf8');
}

/** The sent image opens full size, read from storage. */
async function expectImageShown(page: Page, name: string) {
  await page.getByRole('button', { name: `Open ${name}` }).click();
  const image = page.getByRole('dialog', { name }).getByRole('img', { name });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
  await page.keyboard.press('Escape');
}
