import type { BrowserContext, Page } from '@playwright/test';
import {
  ChatPage,
  expect,
  mockConfig,
  mockKey,
  newTab,
  openDataDialog,
  recordedRequests,
  test,
} from './fixtures.ts';

const passphrase = 'correct horse battery staple';

function storedValues(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => ({ ...localStorage }));
}

/** What a script of the page gets when it exports each key kept for reloads: the error's name. */
function exportKeptKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('ai-chat-key-sessions', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('keys');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('keys', 'readonly').objectStore('keys').getAll();
          request.onerror = () => reject(request.error ?? new Error('read failed'));
          request.onsuccess = () => {
            db.close();
            const keys = request.result as CryptoKey[];
            resolve(
              Promise.all(
                keys.map((key) =>
                  crypto.subtle.exportKey('raw', key).then(
                    () => 'exported',
                    (error: unknown) => (error instanceof Error ? error.name : String(error)),
                  ),
                ),
              ),
            );
          };
        };
      }),
  );
}

async function protect(page: Page) {
  await page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }).check();
  const dialog = page.getByRole('dialog', { name: 'Protect keys with a passphrase' });
  await dialog.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await dialog.getByLabel('Repeat passphrase').fill(passphrase);
  await dialog.getByRole('button', { name: 'Protect keys' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(new ChatPage(page).toast('Keys are protected with your passphrase')).toBeVisible();
}

/** A tab of a new browser session: the other tabs are closed, so none can hand the key over. */
async function newSession(context: BrowserContext, ...open: Page[]): Promise<ChatPage> {
  for (const page of open) await page.close();
  const page = await context.newPage();
  await page.goto('/');
  return new ChatPage(page);
}

async function ask(chat: ChatPage, text: string) {
  await chat.ask(text);
  await expect(chat.messages('assistant').last()).toContainText(text);
}

test('keys are stored encrypted; a new session asks once, refuses a wrong passphrase, and the key works again', async ({
  page,
  context,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  const before = JSON.parse((await storedValues(page))['ai-chat-config'] ?? '{}') as Record<string, unknown>;
  await protect(page);

  const stored = await storedValues(page);
  // Nothing in storage holds the key in the clear; the configuration keeps its shape.
  for (const value of Object.values(stored)) expect(value).not.toContain(key);
  expect(JSON.parse(stored['ai-chat-config'] ?? '{}')).toEqual({ ...before, apiKey: '' });
  const vault = JSON.parse(stored['ai-chat-key-vault'] ?? '{}') as Record<string, unknown>;
  expect(Object.keys(vault).sort()).toEqual(['data', 'format', 'iterations', 'iv', 'salt']);
  expect(vault).toMatchObject({ format: 1, iterations: 600_000 });
  // Unlocked, no storage holds the vault's key: sessionStorage holds a random token (and the
  // fixture's mark), and the key kept for a reload is one no script can read out.
  const session = await page.evaluate(() => ({ ...sessionStorage }));
  expect(Object.keys(session).sort()).toEqual(['ai-chat-key-token', 'seeded']);
  expect(session['ai-chat-key-token']).toMatch(/^[0-9a-f-]{36}$/);
  expect(await exportKeptKeys(page)).toEqual(['InvalidAccessError']);
  // A reload in the same session does not ask.
  await page.reload();
  await chat.newConversation();
  await ask(chat, 'After a reload');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const later = await newSession(context, page);
  const unlock = later.page.getByRole('dialog', { name: 'Unlock your API keys' });
  await expect(unlock).toBeVisible();
  // No tab of the ended session is open: what it kept is cleared.
  await expect.poll(() => exportKeptKeys(later.page)).toEqual([]);
  await unlock.getByLabel('Passphrase').fill('wrong');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock.getByRole('alert')).toHaveText('Wrong passphrase');
  await unlock.getByLabel('Passphrase').fill(passphrase);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toHaveCount(0);
  await later.newConversation();
  await ask(later, 'Unlocked');
  const requests = await recordedRequests(key);
  expect(requests.map((request) => request.headers.authorization)).toEqual([
    `Bearer ${key}`,
    `Bearer ${key}`,
  ]);
});

test('locked, nothing is sent and the export holds no key; Forgot passphrase clears the keys and nothing else', async ({
  page,
  context,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await ask(chat, 'Kept');
  await protect(page);

  const later = await newSession(context, page);
  const unlock = later.page.getByRole('dialog', { name: 'Unlock your API keys' });
  await unlock.getByRole('button', { name: 'Not now' }).click();
  await expect(later.page.getByRole('textbox', { name: 'API Key' })).toBeDisabled();
  await expect(later.messages('assistant')).toContainText('Kept');
  // A message waits for the passphrase: it asks instead of sending.
  await later.send('Not yet');
  await expect(unlock).toBeVisible();
  await unlock.getByRole('button', { name: 'Not now' }).click();
  await expect(later.composer).toHaveValue('Not yet');

  await openDataDialog(later.page, 'Export');
  await later.page.getByLabel('Include API key').check();
  const text = later.page.getByTestId('export-text');
  await expect(text).toHaveValue(/"provider": "openai"/);
  await expect(text).not.toHaveValue(/"apiKey"|key-vault|"iv"/);
  await later.page.keyboard.press('Escape');

  // Another tab unlocks meanwhile (this one stays locked: nothing is handed over unasked).
  const other = await newTab(context);
  const otherUnlock = other.page.getByRole('dialog', { name: 'Unlock your API keys' });
  await otherUnlock.getByLabel('Passphrase').fill(passphrase);
  await otherUnlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(other.page.getByRole('textbox', { name: 'API Key' })).toHaveValue(key);

  await later.send('Still not');
  await unlock.getByRole('button', { name: 'Forgot passphrase' }).click();
  await expect(later.toast('API keys cleared')).toBeVisible();
  const stored = await storedValues(later.page);
  expect(stored['ai-chat-key-vault']).toBeUndefined();
  expect(JSON.parse(stored['ai-chat-config'] ?? '{}')).toMatchObject({
    provider: 'openai',
    model: 'gpt-4o-mini',
    apiKey: '',
  });
  await expect(
    later.page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }),
  ).not.toBeChecked();
  await expect(later.rows).toHaveCount(1);
  await expect(later.messages('assistant')).toContainText('Kept');
  expect(await recordedRequests(key)).toHaveLength(1);
  // The unlocked tab forgets them too: nothing of the key is left anywhere.
  await expect(
    other.page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }),
  ).not.toBeChecked();
  await expect(other.page.getByRole('textbox', { name: 'API Key' })).toHaveValue('');
  await expect.poll(() => exportKeptKeys(other.page)).toEqual([]);
});

test('an unlocked tab hands the key to a new one; turning protection off stores the key as before', async ({
  page,
  context,
}) => {
  const key = mockKey('ok');
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', key));
  await protect(page);
  // A script of the origin listening on the tabs' channel gets the key handed over, but cannot
  // read it out.
  const overheard = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const channel = new BroadcastChannel('ai-chat-sync');
        channel.onmessage = ({ data }: MessageEvent<{ message?: { type?: string; key?: unknown } }>) => {
          const key = data.message?.type === 'key-share' ? data.message.key : undefined;
          if (!(key instanceof CryptoKey)) return;
          channel.close();
          crypto.subtle.exportKey('raw', key).then(
            () => resolve('exported'),
            (error: unknown) => resolve(error instanceof Error ? error.name : String(error)),
          );
        };
      }),
  );

  const second = await newTab(context);
  await second.newConversation();
  await ask(second, 'From the second tab');
  await expect(second.page.getByRole('dialog')).toHaveCount(0);
  expect(await overheard).toBe('InvalidAccessError');
  expect(await exportKeptKeys(second.page)).toEqual(['InvalidAccessError', 'InvalidAccessError']);

  await page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }).uncheck();
  await expect(chat.toast('Keys are no longer protected')).toBeVisible();
  const stored = await storedValues(page);
  expect(stored['ai-chat-key-vault']).toBeUndefined();
  expect(JSON.parse(stored['ai-chat-config'] ?? '{}')).toMatchObject({ apiKey: key });
  await expect.poll(() => exportKeptKeys(page)).toEqual([]);
  // The other tab follows: its keys stay, no longer protected.
  await expect(
    second.page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }),
  ).not.toBeChecked();
  await ask(second, 'Still works');
});
