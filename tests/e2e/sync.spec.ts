import type { Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import { startCouchServer } from '../../tools/couch-server/couch-server.mjs';
import {
  ChatPage,
  deleteRow,
  expect,
  mockConfig,
  mockKey,
  readDbStore,
  seedStorage,
  settingsPanel,
  test,
} from './fixtures.ts';

type StoredMessage = { role: string; content: string };

/**
 * Sync through a real CouchDB-protocol server (pouchdb-server, in memory, on 127.0.0.1) between
 * two browser profiles: two devices. The server has an admin, as CouchDB 3 always does.
 */
type CouchServer = Awaited<ReturnType<typeof startCouchServer>>;
const admin = { name: 'ada', password: 'correct horse' };
let server: CouchServer;

test.beforeAll(async () => {
  server = await startCouchServer({ admin });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A device: a browser profile of its own, with the app configured for the mock. */
async function device(
  browser: Browser,
  testInfo: TestInfo,
): Promise<{ context: BrowserContext; chat: ChatPage }> {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    serviceWorkers: 'block',
  });
  await context.addInitScript(() => localStorage.setItem('ai-chat-auto-title', 'off'));
  const page = await context.newPage();
  const chat = new ChatPage(page);
  await seedStorage(page, { 'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))) });
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
