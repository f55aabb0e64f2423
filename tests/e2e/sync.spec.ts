import type { Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import { startCouchServer } from '../../tools/couch-server/couch-server.mjs';
import {
  ChatPage,
  deleteRow,
  expect,
  importFile,
  mockConfig,
  mockKey,
  newWindow,
  readDbStore,
  sampleConversation,
  seedStorage,
  settingsPanel,
  test,
} from './fixtures.ts';
import { pdf } from './files.ts';

type StoredMessage = { role: string; content: string };

/**
 * Sync through a real CouchDB-protocol server (pouchdb-server, in memory, on 127.0.0.1) between
 * two browser profiles: two devices. The server has an admin, as CouchDB 3 always does.
 */
type CouchServer = Awaited<ReturnType<typeof startCouchServer>>;
const admin = { name: 'ada', password: 'correct horse' };
let server: CouchServer;
/** The server's limit on one attachment (CouchDB's `max_attachment_size`). */
const attachmentLimit = 100_000;

test.beforeAll(async () => {
  server = await startCouchServer({ admin, maxAttachmentSize: attachmentLimit });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A device: a browser profile of its own, with the app configured for the mock. */
async function device(
  browser: Browser,
  testInfo: TestInfo,
  stored: Record<string, string> = {},
): Promise<{ context: BrowserContext; chat: ChatPage }> {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    serviceWorkers: 'block',
  });
  await context.addInitScript(() => localStorage.setItem('ai-chat-auto-title', 'off'));
  const page = await context.newPage();
  const chat = new ChatPage(page);
  await seedStorage(page, {
    'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))),
    ...stored,
  });
  await chat.open();
  return { context, chat };
}

/** Settings → Sync, filled in; 'Test' or 'Turn on sync' is the caller's. */
async function fillSync(page: Page, database: string, password = admin.password, url = server.url) {
  const sync = settingsPanel(page).getByRole('region', { name: 'Sync' });
  await sync.getByLabel('Server').fill(url);
  await sync.getByLabel('Database').fill(database);
  await sync.getByLabel('User').fill(admin.name);
  await sync.getByLabel('Password').fill(password);
  return sync;
}

/** The user turns this device has stored, every branch. */
async function storedQuestions(page: Page): Promise<string[]> {
  const [record] = await readDbStore(page);
  const messages = [
    ...((record?.['messages'] as StoredMessage[] | undefined) ?? []),
    ...((record?.['otherMessages'] as StoredMessage[] | undefined) ?? []),
  ];
  return messages.filter((message) => message.role === 'user').map((message) => message.content);
}

const status = (page: Page) => page.getByRole('status', { name: 'Sync status' });

test('two devices: set up, both ways, live; edits made apart merge with nothing lost; a deletion reaches the other', async ({
  browser,
}, testInfo) => {
  const database = `chats-${testInfo.workerIndex}-${Date.now()}`;
  const laptop = await device(browser, testInfo);
  const phone = await device(browser, testInfo);

  // The laptop: tested (the database created), then on.
  const sync = await fillSync(laptop.chat.page, database);
  await sync.getByRole('button', { name: 'Test' }).click();
  await expect(sync.getByRole('status')).toContainText(`Signed in as ${admin.name}.`);
  await expect(sync.getByRole('status')).toContainText(`The database ${database} was created.`);
  await sync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(status(laptop.chat.page)).toHaveText('Synced');
  await laptop.chat.newConversation();
  await laptop.chat.ask('Hello from the laptop');

  // The phone: the database is there; the laptop's conversation arrives.
  const phoneSync = await fillSync(phone.chat.page, database);
  await phoneSync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(phone.chat.rows).toHaveCount(1);
  await phone.chat.rows.first().click();
  await expect(phone.chat.messages('assistant')).toContainText('Echo: Hello from the laptop');

  // Live, the other way: the phone's next turn shows on the laptop, open there.
  await phone.chat.ask('And from the phone');
  await expect(laptop.chat.messages('user').locator('.message-content')).toHaveText([
    'Hello from the laptop',
    'And from the phone',
  ]);
  await expect(status(laptop.chat.page)).toHaveText('Synced');

  // Settings other than keys: the laptop's dark theme reaches the phone, whose key stays its own.
  const config = (page: Page) =>
    page.evaluate(() => JSON.parse(localStorage.getItem('ai-chat-config') ?? '{}') as { apiKey: string });
  const phoneKey = (await config(phone.chat.page)).apiKey;
  const laptopKey = (await config(laptop.chat.page)).apiKey;
  await laptop.chat.page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(phone.chat.page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  expect((await config(phone.chat.page)).apiKey).toBe(phoneKey);
  const held = await fetch(`${server.url}/${database}/_all_docs?include_docs=true`, {
    headers: { authorization: `Basic ${btoa(`${admin.name}:${admin.password}`)}` },
  }).then((response) => response.text());
  expect(held).toContain('"_id":"settings:preferences"');
  for (const key of [phoneKey, laptopKey]) expect(held).not.toContain(key);

  // Apart (the server out of reach of both), each adds a turn; back together, both have both.
  for (const { context } of [laptop, phone])
    await context.route(`${server.url}/**`, (route) => route.abort());
  await laptop.chat.ask('Laptop, offline');
  await phone.chat.ask('Phone, offline');
  await expect(status(laptop.chat.page)).toContainText('Offline');
  for (const { context } of [laptop, phone]) await context.unroute(`${server.url}/**`);
  // 'Sync now' beside the status, at the foot of the sidebar.
  for (const { chat } of [laptop, phone])
    await chat.page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: 'Sync now' })
      .click();
  // Each question answers the same reply: two versions of the next turn, on both devices.
  for (const { chat } of [laptop, phone]) {
    await expect(status(chat.page)).toHaveText('Synced');
    await expect
      .poll(() => storedQuestions(chat.page))
      .toEqual(expect.arrayContaining(['Laptop, offline', 'Phone, offline']));
    await expect(chat.messages('user').last().getByTestId('message-version')).toHaveText(/^[12] \/ 2$/);
  }

  // Deleted on the laptop, gone from the phone.
  await deleteRow(laptop.chat, 0);
  await expect(phone.chat.rows).toHaveCount(0);

  await laptop.context.close();
  await phone.context.close();
});

test('Test says which part fails: a wrong password, and a server that does not let this page in', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  const sync = await fillSync(page, 'chats', 'wrong');
  await sync.getByRole('button', { name: 'Test' }).click();
  await expect(sync.getByRole('alert')).toContainText('The server refused the user name or password.');

  const closed = await startCouchServer({ cors: false });
  try {
    await sync.getByLabel('Server').fill(closed.url);
    await sync.getByRole('button', { name: 'Turn on sync' }).click();
    await expect(sync.getByRole('alert')).toContainText('does not let this page in (CORS)');
    await expect(sync.getByRole('alert')).toContainText('enable_cors = true');
    await expect(status(page)).toHaveCount(0);
  } finally {
    await closed.stop();
  }
});

test('the server stopped mid-sync: Offline, the turn kept here, and sent once it is back', async ({
  page,
}, testInfo) => {
  const durable = await startCouchServer({ admin, inMemory: false });
  try {
    const chat = new ChatPage(page);
    await chat.open(mockConfig('openai', mockKey('ok')));
    const database = `chats-${testInfo.workerIndex}-${Date.now()}`;
    const sync = await fillSync(page, database, admin.password, durable.url);
    await sync.getByRole('button', { name: 'Turn on sync' }).click();
    await expect(status(page)).toHaveText('Synced');
    await chat.newConversation();
    await chat.ask('Before the server stopped');
    await expect(status(page)).toHaveText('Synced');

    await durable.pause();
    await chat.ask('While it was down');
    await expect(status(page)).toContainText('Offline');
    await durable.resume();
    // Tried again by itself (no 'Sync now'): the turn made meanwhile reaches the server.
    await expect(status(page)).toHaveText('Synced', { timeout: 30_000 });
    const response = await fetch(`${durable.url}/${database}/_all_docs?include_docs=true`, {
      headers: { authorization: `Basic ${btoa(`${admin.name}:${admin.password}`)}` },
    });
    expect(JSON.stringify(await response.json())).toContain('While it was down');
  } finally {
    await durable.stop();
  }
});

/** Settings → Protect keys with a passphrase. */
async function protectKeys(page: Page, passphrase: string) {
  await settingsPanel(page).getByRole('checkbox', { name: 'Protect keys with a passphrase' }).check();
  const protect = page.getByRole('dialog', { name: 'Protect keys with a passphrase' });
  await protect.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await protect.getByLabel('Repeat passphrase').fill(passphrase);
  await protect.getByRole('button', { name: 'Protect keys' }).click();
  await expect(protect).toHaveCount(0);
}

test('encrypted end to end: a conversation with its files, a project and a prompt reach the other device, the server holds only ciphertext, and a file over its limit is left out, said', async ({
  browser,
}, testInfo) => {
  const database = `sealed-${testInfo.workerIndex}-${Date.now()}`;
  const passphrase = 'apple tree at dawn';
  const secret = 'The spare key is under the blue flowerpot';
  const prompt = {
    id: 'prompt-1',
    title: 'Garden plan',
    body: 'Plan a garden for {{place}}',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  // Keys too, sealed: the laptop's Groq connection reaches the phone with its key.
  const groqKey = mockKey('ok');
  const laptop = await device(browser, testInfo, {
    'ai-chat-prompts': JSON.stringify([prompt]),
    'ai-chat-connections': JSON.stringify({ groq: mockConfig('groq', groqKey) }),
  });
  const phone = await device(browser, testInfo);
  for (const { chat } of [laptop, phone]) await protectKeys(chat.page, passphrase);

  const sync = await fillSync(laptop.chat.page, database);
  await sync.getByRole('checkbox', { name: 'Encrypt end to end' }).check();
  await sync.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await sync.getByRole('checkbox', { name: 'Sync API keys too' }).check();
  await sync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(sync).toContainText(
    `To ${database} on ${new URL(server.url).host} as ${admin.name}, encrypted end to end, keys included.`,
  );

  // A question with two files: one the server takes, one over its limit.
  const { page } = laptop.chat;
  await laptop.chat.newConversation();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(secret) },
    { name: 'big.pdf', mimeType: 'application/pdf', buffer: pdf('a'.repeat(attachmentLimit)) },
  ]);
  await expect(page.getByTestId('file-chip').filter({ hasText: 'Preparing…' })).toHaveCount(0);
  await laptop.chat.ask('What is in these files?');
  const sent = laptop.chat.messages('user').last().getByRole('list', { name: 'Attached files' });
  const leftOutNote =
    'Not synced: larger than the sync server takes. It stays on the device it was added on.';
  await expect(sent.getByTestId('file-chip').filter({ hasText: 'big.pdf' }).getByRole('note')).toHaveText(
    leftOutNote,
  );
  await page.getByRole('button', { name: 'Create project' }).click();
  const settings = page.getByRole('dialog', { name: 'Project settings' });
  await settings.getByRole('textbox', { name: 'Name' }).fill('Allotment');
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(status(page)).toHaveText('Synced');

  // The server: ids, and ciphertext.
  const held = await fetch(`${server.url}/${database}/_all_docs?include_docs=true&attachments=true`, {
    headers: { authorization: `Basic ${btoa(`${admin.name}:${admin.password}`)}` },
  }).then((response) => response.text());
  expect(held).toContain('"_id":"conversation:');
  for (const plain of [
    'What is in these files',
    'spare key',
    'Allotment',
    'Garden plan',
    'notes.txt',
    groqKey,
  ])
    expect(held).not.toContain(plain);

  // The phone: without encryption it is refused; with the passphrase, everything arrives.
  const phoneSync = await fillSync(phone.chat.page, database);
  await phoneSync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(phoneSync.getByRole('alert')).toContainText(
    'The data in this database is encrypted end to end',
  );
  await phoneSync.getByRole('checkbox', { name: 'Encrypt end to end' }).check();
  await phoneSync.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await phoneSync.getByRole('checkbox', { name: 'Sync API keys too' }).check();
  await phoneSync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(phone.chat.rows).toHaveCount(1);
  await phone.chat.rows.first().click();
  const received = phone.chat.messages('user').last().getByRole('list', { name: 'Attached files' });
  await expect(received.getByTestId('file-chip')).toHaveCount(2);
  await expect(received.getByTestId('file-chip').filter({ hasText: 'big.pdf' }).getByRole('note')).toHaveText(
    leftOutNote,
  );
  await expect(phone.chat.page.getByRole('button', { name: /Allotment/ }).first()).toBeVisible();
  await expect
    .poll(() => phone.chat.page.evaluate(() => localStorage.getItem('ai-chat-prompts') ?? ''))
    .toContain('Garden plan');
  const panel = settingsPanel(phone.chat.page);
  await panel.getByLabel('Provider').selectOption('groq');
  await expect(panel.getByLabel('API Key')).toHaveValue(groqKey);
  // The file's bytes came too, decrypted: the stored attachment reads back as it was.
  const texts = await phone.chat.page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('ai-chat');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const request = open.result.transaction('attachments').objectStore('attachments').getAll();
          request.onerror = () => reject(request.error ?? new Error('read failed'));
          request.onsuccess = () =>
            void Promise.all((request.result as { blob: Blob }[]).map(({ blob }) => blob.text())).then(
              resolve,
            );
        };
      }),
  );
  expect(texts).toEqual([secret]);

  await laptop.context.close();
  await phone.context.close();
});

test('one tab syncs for all: another tab shows its status and its turns go through it; closing it, the other takes over', async ({
  browser,
}, testInfo) => {
  const database = `tabs-${testInfo.workerIndex}-${Date.now()}`;
  const { context, chat: first } = await device(browser, testInfo);
  const sync = await fillSync(first.page, database);
  await sync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(status(first.page)).toHaveText('Synced');

  // A second tab: it waits to lead, so it asks the server nothing, and shows the first tab's status.
  const second = new ChatPage(await newWindow(context));
  const asked: string[] = [];
  second.page.on('request', (request) => {
    if (request.url().startsWith(server.url)) asked.push(request.url());
  });
  await second.page.goto('/');
  await expect(status(second.page)).toHaveText('Synced');
  await second.newConversation();
  await second.ask('Asked in the second tab');
  const onServer = () =>
    fetch(`${server.url}/${database}/_all_docs?include_docs=true`, {
      headers: { authorization: `Basic ${btoa(`${admin.name}:${admin.password}`)}` },
    }).then((response) => response.text());
  await expect.poll(onServer).toContain('Asked in the second tab');
  expect(asked).toEqual([]);

  // The first tab closes: the second takes over.
  await first.page.close();
  await second.ask('After the first tab closed');
  await expect.poll(onServer).toContain('After the first tab closed');
  expect(asked.length).toBeGreaterThan(0);
  await expect(status(second.page)).toHaveText('Synced');
  await context.close();
});

test('a thousand conversations: the first sync sends them in bulk, and another device receives every one', async ({
  browser,
}, testInfo) => {
  const database = `thousand-${testInfo.workerIndex}-${Date.now()}`;
  const laptop = await device(browser, testInfo);
  const conversations = Array.from({ length: 1000 }, (_, index) =>
    sampleConversation(`c${index}`, `Trip ${index}`, [[`Question ${index}`, `Answer ${index}`]]),
  );
  await importFile(laptop.chat.page, { version: '2.0', conversations, activeConversationId: 'c0' });
  const writes: string[] = [];
  laptop.chat.page.on('request', (request) => {
    if (request.url().startsWith(server.url) && ['PUT', 'POST'].includes(request.method()))
      writes.push(`${request.method()} ${new URL(request.url()).pathname.split('/').at(-1)}`);
  });
  const sync = await fillSync(laptop.chat.page, database);
  await sync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(status(laptop.chat.page)).toHaveText('Synced', { timeout: 60_000 });
  const info = (await fetch(`${server.url}/${database}`, {
    headers: { authorization: `Basic ${btoa(`${admin.name}:${admin.password}`)}` },
  }).then((response) => response.json())) as { doc_count: number };
  // The conversations and the settings' document.
  expect(info.doc_count).toBe(1001);
  // In bulk, 25 to a request (1,000 conversations and the settings: 41), not a write each.
  expect(writes.filter((write) => write === 'POST _bulk_docs').length).toBe(41);
  expect(writes.filter((write) => write.startsWith('PUT conversation')).length).toBe(0);

  const phone = await device(browser, testInfo);
  const phoneSync = await fillSync(phone.chat.page, database);
  await phoneSync.getByRole('button', { name: 'Turn on sync' }).click();
  await expect
    .poll(async () => (await readDbStore(phone.chat.page, 'summaries')).length, { timeout: 60_000 })
    .toBe(1000);
  await expect(status(phone.chat.page)).toHaveText('Synced');
  // Found by search too: what sync stores is indexed as any conversation is.
  const sidebar = phone.chat.page.getByRole('navigation', { name: 'Conversations' });
  await sidebar.getByRole('searchbox', { name: 'Search conversations' }).fill('Answer 999');
  await expect(sidebar.getByRole('button', { name: /Trip 999/ })).toHaveCount(1);

  await laptop.context.close();
  await phone.context.close();
});
