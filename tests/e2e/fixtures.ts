import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { mockUrl } from './ports.ts';

export { expect };

export type ProviderId = 'azure' | 'openai' | 'claude' | 'gemini' | 'groq';

/** A configuration pointing the app at the mock server, as stored under ai-chat-config. */
export function mockConfig(provider: ProviderId, apiKey: string): Record<string, unknown> {
  const common = { apiKey, temperature: 0.7, maxTokens: 800, baseUrl: mockUrl };
  switch (provider) {
    case 'azure':
      return {
        ...common,
        provider,
        baseUrl: undefined,
        endpoint: mockUrl,
        deploymentName: 'gpt-4o-test',
        apiVersion: '2024-10-21',
        topP: 0.95,
        frequencyPenalty: 0,
        presencePenalty: 0,
      };
    case 'openai':
      return {
        ...common,
        provider,
        model: 'gpt-4o-mini',
        topP: 0.95,
        frequencyPenalty: 0,
        presencePenalty: 0,
      };
    case 'claude':
      return { ...common, provider, model: 'claude-haiku-4-5', maxTokens: 1024 };
    case 'gemini':
      return { ...common, provider, model: 'gemini-2.5-flash', topP: 0.95, topK: 40 };
    case 'groq':
      return { ...common, provider, model: 'llama-3.3-70b-versatile', topP: 0.95 };
  }
}

/** A key the mock understands: scenario, then a unique suffix so parallel tests don't share records. */
export function mockKey(scenario: string): string {
  return `${scenario}.${Math.random().toString(36).slice(2, 10)}`;
}

export interface RecordedRequest {
  provider: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export async function recordedRequests(key: string): Promise<RecordedRequest[]> {
  const response = await fetch(`${mockUrl}/__mock/requests?key=${encodeURIComponent(key)}`);
  return (await response.json()) as RecordedRequest[];
}

/** Seeds storage before the app's scripts run (first load only, so reloads see the app's own writes). */
export async function seedStorage(page: Page, values: Record<string, string>): Promise<void> {
  await page.addInitScript((entries) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, values);
}

/** Imports `file` (an export-shaped object) through the Import tab and waits for the dialog to close. */
export async function importFile(page: Page, file: unknown): Promise<void> {
  await page.getByRole('button', { name: 'Import / Export' }).click();
  await page.getByRole('tab', { name: 'Import' }).click();
  await page.getByPlaceholder('Paste JSON data here...').fill(JSON.stringify(file));
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Every import ends with a toast; the toaster loads with the first one, so waiting here keeps a
  // late toast from landing in the middle of whatever the test checks next.
  await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
}

/** Puts one conversation (system, 'hi', then `reply`) in place through the Import tab. */
export async function importConversation(page: Page, reply: string): Promise<void> {
  await importReplies(page, [reply], 'Imported');
}

/**
 * One conversation per reply (system, 'hi', then the reply), named `{name}`, `{name} 2`, …, the
 * first one shown, in one import.
 */
export async function importReplies(page: Page, replies: string[], name = 'Reply'): Promise<void> {
  const conversations = replies.map((reply, index) => ({
    id: index === 0 ? 'imported' : `imported-${index + 1}`,
    name: index === 0 ? name : `${name} ${index + 1}`,
    provider: 'openai',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: reply },
    ],
  }));
  await importFile(page, { version: '2.0', conversations, activeConversationId: 'imported' });
}

export class ChatPage {
  constructor(readonly page: Page) {}

  get composer() {
    return this.page.getByRole('textbox', { name: 'Message' });
  }
  get sendButton() {
    return this.page.getByRole('button', { name: 'Send' });
  }
  get stopButton() {
    return this.page.getByRole('button', { name: 'Stop' });
  }
  get rows() {
    return this.page.getByTestId('conversation-row');
  }
  messages(role?: 'user' | 'assistant') {
    const all = this.page.getByTestId('message');
    return role ? all.and(this.page.locator(`[data-role="${role}"]`)) : all;
  }
  toast(text: string | RegExp) {
    return this.page.locator('[data-sonner-toast]').filter({ hasText: text });
  }

  async open(config?: Record<string, unknown>) {
    if (config) await seedStorage(this.page, { 'ai-chat-config': JSON.stringify(config) });
    await this.page.goto('/');
    await expect(this.page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  }

  async newConversation() {
    await this.page.getByRole('button', { name: 'New', exact: true }).click();
  }

  async send(text: string) {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }

  /** Sends a message and waits for its reply to end. */
  async ask(text: string) {
    await this.send(text);
    await this.waitForReplyDone();
  }

  async waitForReplyDone() {
    await expect(this.page.getByTestId('streaming-cursor')).toHaveCount(0, { timeout: 20_000 });
    await expect(this.composer).toBeEnabled();
  }
}

/**
 * `autoTitle`: whether conversations are named by their model after the first reply. The app's
 * default is on; the suite runs with it off (each reply would be followed by a title request that
 * renames 'Conversation n'), and the title tests turn it on with `test.use({ autoTitle: true })`.
 */
export const test = base.extend<{ chat: ChatPage; autoTitle: boolean }>({
  autoTitle: [false, { option: true }],
  context: async ({ context, autoTitle }, provide) => {
    if (!autoTitle)
      await context.addInitScript(() => {
        if (localStorage.getItem('ai-chat-auto-title') === null)
          localStorage.setItem('ai-chat-auto-title', 'off');
      });
    await provide(context);
  },
  chat: async ({ page }, provide) => {
    await provide(new ChatPage(page));
  },
});

/** Opens the Import / Export dialog on one of its tabs. */
export async function openDataDialog(page: Page, tab: 'Export' | 'Import'): Promise<void> {
  await page.getByRole('button', { name: 'Import / Export' }).click();
  await expect(page.getByRole('dialog', { name: 'Import / Export Data' })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

/**
 * The export text with the key included and `exportedAt` blanked: a full picture of the app's data
 * to compare before and after. Leaves the dialog closed.
 */
export async function exportSnapshot(page: Page): Promise<string> {
  await openDataDialog(page, 'Export');
  await page.getByLabel('Include API key').check();
  const area = page.getByTestId('export-text');
  await expect(area).toHaveValue(/"apiKey"/);
  const text = (await area.inputValue()).replace(/"exportedAt": "[^"]*"/, '"exportedAt": ""');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  return text;
}

/** Every record of one object store of the app's IndexedDB database ('ai-chat'), as stored. */
export async function readDbStore(
  page: Page,
  store: 'conversations' | 'summaries' = 'conversations',
): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open('ai-chat');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction(name, 'readonly').objectStore(name).getAll();
          request.onerror = () => reject(request.error ?? new Error('read failed'));
          request.onsuccess = () => {
            db.close();
            resolve(request.result as Record<string, unknown>[]);
          };
        };
      }),
    store,
  );
}

/** Writes raw records straight into the app's IndexedDB stores, bypassing the app (corruption tests). */
export async function writeDbRecords(
  page: Page,
  records: { store: 'conversations' | 'summaries'; value: unknown }[],
): Promise<void> {
  await page.evaluate(
    (entries) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('ai-chat');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['conversations', 'summaries'], 'readwrite');
          for (const { store, value } of entries) tx.objectStore(store).put(value);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error('write failed'));
        };
      }),
    records,
  );
}

/** A conversation in the export/storage shape, with a system message first. */
export function sampleConversation(
  id: string,
  name: string,
  turns: [string, string][] = [],
  createdAt = '2025-03-01T10:00:00.000Z',
): Record<string, unknown> {
  return {
    id,
    name,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      ...turns.flatMap(([question, answer]) => [
        { role: 'user', content: question },
        { role: 'assistant', content: answer },
      ]),
    ],
    createdAt,
    updatedAt: createdAt,
    provider: 'openai',
  };
}

/** Renames a conversation through its row's rename button. */
export async function renameRow(chat: ChatPage, index: number, name: string): Promise<void> {
  const row = chat.rows.nth(index);
  await row.hover();
  await row.getByRole('button', { name: 'Rename conversation' }).click();
  await chat.page.getByRole('textbox', { name: 'Conversation name' }).fill(name);
  await chat.page.getByRole('textbox', { name: 'Conversation name' }).press('Enter');
  await expect(chat.rows.nth(index)).toContainText(name);
}

/** Deletes a conversation through its row's delete button and the confirmation. */
export async function deleteRow(chat: ChatPage, index: number): Promise<void> {
  const row = chat.rows.nth(index);
  await row.hover();
  await row.getByRole('button', { name: 'Delete conversation' }).click();
  await chat.page.getByRole('button', { name: 'Delete', exact: true }).click();
}

/** Two tabs of the app in one browser profile, both configured for the mock. */
export async function twoTabs(context: BrowserContext, key = mockKey('ok')): Promise<[ChatPage, ChatPage]> {
  await context.addInitScript(
    (config) => {
      if (!localStorage.getItem('ai-chat-config')) localStorage.setItem('ai-chat-config', config);
    },
    JSON.stringify(mockConfig('openai', key)),
  );
  const a = new ChatPage(await context.newPage());
  const b = new ChatPage(await context.newPage());
  await a.open();
  await b.open();
  return [a, b];
}

/** IndexedDB writes fail as a full disk does, while `window.__storageFull` is true. */
export async function simulateFullStorage(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if ((window as unknown as { __storageFull?: boolean }).__storageFull) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return put.apply(this, args);
    };
  });
}

export async function setStorageFull(page: Page, full: boolean): Promise<void> {
  await page.evaluate((value) => {
    (window as unknown as { __storageFull?: boolean }).__storageFull = value;
  }, full);
}
